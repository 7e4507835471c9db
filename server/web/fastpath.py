"""The hot path of remote play without Flask: an answer to a decision this process served.

A bot in steady play makes one HTTP exchange per decision: it answers, and the answer's
response brings its next decision (``POST /api/v1/decisions/<id>?wait=``,
``server.web.api.decisions.Answer``). Through Flask, flask-smorest and the app's hooks that
exchange cost about 1.4 ms of the API's CPU, most of it in the framework rather than the
work (docs/speed.md, "The answer skips Flask"). This WSGI middleware answers that one request itself when
nothing about it is unusual, and hands every other request to Flask untouched.

It takes a request only when Flask would accept it, so a bot can never tell the two paths
apart but by speed: a ``POST`` to a decision id, ``Content-Type: application/json`` with
a length, a bearer token, a query of ``wait`` (once) and ``skip`` only, a request line and
headers within the app's bounds (``server.web.envelope``), a body that parses to an action
the same schema accepts (``ActionSchema``, ``server.web.limits``) and that is legal for a
decision this process served (``ServedDecisions``). The store then accepts the answer in
the same one round trip as Flask's view (it checks token, owner, status and deadline). If
it refuses (unknown, answered, expired, a wrong token), or anything above does not hold,
or Redis fails before the answer is accepted, the request goes to Flask with its body
replayed, and Flask answers it as it always did: nothing was changed, so its problem and
status are the ones it would have given (Redis failing in the middle of the accepting
script is the one case where Flask, retrying, may answer 409 where a single attempt would
have answered 503; redis-py's own retry in Flask's view has the same effect).

Once the answer is accepted the response is a 200: if Redis fails while the response
waits for the next decision, ``next`` is empty (the bot long-polls for it) rather than a
503 that would hide the acceptance. The response carries what Flask's carries: the request
id, the security headers, the body ``{"accepted": true, "next": [...]}``; it is counted in
``cinch_http_responses`` under the same route template, and log lines made while it is
handled carry its request id.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Iterable
from contextlib import nullcontext
from typing import Any

from flask import Flask
from marshmallow import ValidationError
from redis.exceptions import RedisError

from server import logs
from server.arena.registry import token_hash
from server.metrics import HTTP_RESPONSES
from server.web.api.auth import bearer_of
from server.web.api.decisions import accepted_body, await_open, why_illegal
from server.web.api.game_schemas import ActionSchema
from server.web.api.schemas import DECISION_ID, AnswerArgsSchema
from server.web.context import ArenaContext
from server.web.envelope import out_of_bounds, request_id_of, security_headers_of
from server.web.limits import InputError, check_value

log = logs.logger("api.fastpath")

WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]

ANSWER_PATH = re.compile(rf"/api/v1/decisions/({DECISION_ID})")
QUERY = re.compile(rf"(?:(?:wait=[0-9]{{1,2}}(?:\.[0-9]{{1,6}})?|skip={DECISION_ID})(?:&(?=.)|$))*")
"""The queries taken here: ``wait`` and ``skip`` pairs, nothing quoted, no other name; anything else goes to Flask."""
JSON_TYPES = frozenset({"application/json", "application/json; charset=utf-8"})
CACHED = 1024  # distinct bodies (and queries) remembered as parsed; a bot's actions are few


class DecisionFastPath:
    """WSGI middleware over Flask's ``wsgi_app`` (``create_app`` installs it)."""

    def __init__(self, app: Flask, flask: WSGIApp):
        self.flask = flask
        self.context: ArenaContext = app.extensions["cinch"]
        self.loads = app.json.loads
        self.max_body = int(app.config["MAX_CONTENT_LENGTH"])
        route = next(rule.rule for rule in app.url_map.iter_rules() if rule.endpoint == "decisions.Answer")
        self.counted = HTTP_RESPONSES.labels(route, "POST", "2xx")
        self.headers = security_headers_of(route)
        self.action_schema = ActionSchema()
        self.args_schema = AnswerArgsSchema()
        self.actions: dict[bytes, dict[str, Any]] = {}
        self.queries: dict[str, dict[str, Any]] = {}

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        if environ.get("REQUEST_METHOD") != "POST":
            return self.flask(environ, start_response)
        match = ANSWER_PATH.fullmatch(environ.get("PATH_INFO", ""))
        if match is None:
            return self.flask(environ, start_response)
        body = self._body(environ)
        if body is None:
            return self.flask(environ, start_response)
        response = self._answer(environ, match.group(1), body)
        if response is None:
            environ["wsgi.input"] = io.BytesIO(body)  # Flask reads what this path read
            return self.flask(environ, start_response)
        request_id, payload = response
        start_response(
            "200 OK",
            [
                ("Content-Type", "application/json"),
                ("Content-Length", str(len(payload))),
                ("X-Request-Id", request_id),
                *self.headers,
            ],
        )
        self.counted.inc()
        return [payload]

    def _body(self, environ: dict[str, Any]) -> bytes | None:
        """The JSON body, read whole, if the request's framing is one this path takes."""
        if environ.get("CONTENT_TYPE", "").lower() not in JSON_TYPES or "HTTP_TRANSFER_ENCODING" in environ:
            return None
        try:
            length = int(environ.get("CONTENT_LENGTH") or 0)
        except ValueError:
            return None
        if not 0 < length <= self.max_body:
            return None
        body: bytes = environ["wsgi.input"].read(length)
        return body

    def _answer(self, environ: dict[str, Any], did: str, body: bytes) -> tuple[str, bytes] | None:
        """(request id, response body) once the answer is accepted; None for Flask to answer."""
        headers = [(key[5:], value) for key, value in environ.items() if key.startswith("HTTP_")]
        headers += [(key, environ[key]) for key in ("CONTENT_TYPE", "CONTENT_LENGTH") if key in environ]
        uri = environ.get("RAW_URI") or f"{environ.get('PATH_INFO', '')}?{environ.get('QUERY_STRING', '')}"
        if out_of_bounds(uri, headers) is not None:
            return None
        token = bearer_of(environ.get("HTTP_AUTHORIZATION", ""))
        served = self.context.served.get(did)
        args = self._args(environ.get("QUERY_STRING", ""))
        action = self._action(body)
        if token is None or served is None or args is None or action is None or why_illegal(action, served):
            return None
        request_id = request_id_of(environ.get("HTTP_X_REQUEST_ID", ""))
        bound = logs.bind(request_id=request_id)
        try:
            pending = self._accept(token_hash(token), did, served.bot, action, args["wait"], args["skip"])
        finally:
            logs.unbind(bound)
        return None if pending is None else (request_id, accepted_body(pending).encode())

    def _accept(
        self, hashed: str, did: str, bot: str, action: dict[str, Any], wait: float, skip: list[str]
    ) -> list[str] | None:
        """As Flask's view: accept, then the bot's next decisions; None if the store refused."""
        store, served, waker = self.context.store, self.context.served, self.context.waker
        with waker.interest(bot) if wait > 0 else nullcontext() as woken:
            try:
                outcome, found = store.answer_decision(
                    hashed, did, bot, action, skip=skip, listener=None if woken is None else woken.listener
                )
            except RedisError:
                return None  # Flask tries again, and answers 503 if Redis is still away
            if outcome != "ok":
                return None
            served.forget(did)
            try:
                return served.remember(bot, await_open(store, bot, wait, woken, found, skip=skip))
            except RedisError as error:
                log.warning("answer accepted; its next decisions not read (%s): next is empty", type(error).__name__)
                return []

    def _args(self, query: str) -> dict[str, Any] | None:
        """``wait`` and ``skip`` as ``AnswerArgsSchema`` loads them, or None (Flask parses the query)."""
        known = self.queries.get(query)
        if known is not None:
            return known
        if QUERY.fullmatch(query) is None:
            return None
        pairs = [pair.partition("=") for pair in query.split("&")] if query else []
        waits = [value for name, _, value in pairs if name == "wait"]
        if len(waits) > 1:
            return None
        given: dict[str, Any] = {"skip": [value for name, _, value in pairs if name == "skip"]}
        if waits:
            given["wait"] = waits[0]
        try:
            args: dict[str, Any] = self.args_schema.load(given)
        except ValidationError:
            return None
        if not given["skip"]:  # a query without ids recurs; one with ids rarely does
            self._remember(self.queries, query, args)
        return args

    def _action(self, body: bytes) -> dict[str, Any] | None:
        """The action as Flask's view receives it (parsed within ``server.web.limits``'s bounds
        and loaded by ``ActionSchema``), or None."""
        known = self.actions.get(body)
        if known is not None:
            return known
        try:
            parsed = self.loads(body)
            check_value(parsed)
            action: dict[str, Any] = self.action_schema.load(parsed)
        except (InputError, ValidationError):
            return None  # Flask answers the 400 or 422
        self._remember(self.actions, body, action)
        return action

    @staticmethod
    def _remember(cache: dict[Any, Any], key: Any, value: Any) -> None:
        if len(cache) >= CACHED:
            cache.clear()
        cache[key] = value
