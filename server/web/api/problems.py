"""Errors as RFC 9457 ``application/problem+json``, everywhere, documented as such.

flask-smorest's own error body and content type are replaced once here (its default is
not problem+json, and schemathesis would flag the documented content type otherwise).
Every domain error (``server.errors.ArenaError``) is mapped here to its status and
problem type, so views raise or let rise instead of catching and aborting. Two handlers
cover what no view expects: Redis unreachable, loading, timing out or out
of pooled connections is a 503 with ``Retry-After`` (the client should come back), and
any other exception, a Redis reply that means a bug included, is a logged 500, still
problem+json, never Werkzeug's HTML page.
"""

from __future__ import annotations

import http
from typing import Any

import marshmallow as ma
from flask import Flask, Response, json
from flask_smorest import Api
from flask_smorest.spec import prepare_response
from redis.exceptions import (
    AuthenticationError,
    BusyLoadingError,
    ClusterDownError,
    MaxConnectionsError,
    OutOfMemoryError,
    ReadOnlyError,
    RedisError,
    TryAgainError,
)
from redis.exceptions import ConnectionError as RedisDown
from redis.exceptions import TimeoutError as RedisTimeout
from werkzeug.exceptions import HTTPException

from server import logs
from server.engine import RulesetError
from server.errors import PROBLEM_TYPES, ArenaError, InvalidRequest

PROBLEM = "application/problem+json"
RETRY_AFTER = 2  # seconds a client is asked to wait when Redis is away

log = logs.logger("api")


class ProblemSchema(ma.Schema):
    type = ma.fields.String(required=True, metadata={"description": "a URI naming the kind of problem"})
    title = ma.fields.String(required=True, metadata={"description": "short summary (the HTTP reason)"})
    status = ma.fields.Integer(required=True)
    detail = ma.fields.String(required=True, metadata={"description": "what is wrong, in words"})
    errors = ma.fields.Dict(
        keys=ma.fields.String(),
        values=ma.fields.Dict(),
        metadata={
            "description": (
                "invalid input only: where it was (json, query, path) -> field -> its messages, a list of "
                "strings, or for a nested object the same mapping one level down; e.g. "
                '{"json": {"name": ["Missing data for required field."]}}, '
                '{"json": {"limits": {"decision_ms": ["Must be greater than or equal to 50 ..."]}}}'
            )
        },
    )


def problem(
    status: int, detail: str | None, errors: dict | None = None, headers: dict | None = None, type: str = "about:blank"
) -> Response:
    body: dict[str, Any] = {
        "type": type,
        "title": http.HTTPStatus(status).phrase,
        "status": status,
        "detail": detail,
    }
    if errors:
        body["errors"] = errors
    return Response(json.dumps(body), status=status, mimetype=PROBLEM, headers=headers)


def _detail_of(errors: Any) -> str:
    """One readable sentence from marshmallow's nested messages, naming the field."""
    if isinstance(errors, dict):
        for _where, value in errors.items():
            if isinstance(value, list) and value:
                return str(value[0])
            if isinstance(value, dict):
                for field, messages in value.items():
                    text = messages[0] if isinstance(messages, list) and messages else messages
                    return f"{field}: {text}" if field != "_schema" else str(text)
    return "invalid input"


class ArenaApi(Api):
    ERROR_SCHEMA = ProblemSchema

    def handle_http_exception(self, error: HTTPException):
        data = getattr(error, "data", None) or {}
        errors = data.get("errors") or data.get("messages")
        detail = data.get("message") or (_detail_of(errors) if errors else error.description)
        headers = {k: v for k, v in error.get_headers() if k.lower() != "content-type"}  # e.g. Allow on 405
        headers.update(data.get("headers") or {})
        return problem(error.code or 500, detail, errors, headers)

    def _register_responses(self):
        for status in http.HTTPStatus:
            response = {"description": status.phrase}
            content_type = self.DEFAULT_RESPONSE_CONTENT_TYPE
            if not (100 <= status < 200) and status not in (204, 304):
                response["schema"] = self.ERROR_SCHEMA
                content_type = PROBLEM
            prepare_response(response, self.spec, content_type)
            self.spec.components.response(status.name, response, lazy=True)
        response = {"description": "Default error response", "schema": self.ERROR_SCHEMA}
        prepare_response(response, self.spec, PROBLEM)
        self.spec.components.response("DEFAULT_ERROR", response, lazy=True)


# Redis errors that pass: Redis away, restarting, loading, slow, full or failing over.
_TRANSIENT = (RedisDown, RedisTimeout, OutOfMemoryError, ReadOnlyError, TryAgainError, ClusterDownError)


def _unavailable(error: RedisError) -> Response:
    """Redis is down, restarting, loading, slow or the pool is exhausted: come back soon.
    The error's own text is not echoed (it may name hosts and ports)."""
    if not isinstance(error, _TRANSIENT) or isinstance(error, AuthenticationError):
        return _internal(error)  # a script error or a wrong password will not pass by waiting
    if isinstance(error, BusyLoadingError):
        why = "is loading its data"
    elif isinstance(error, RedisTimeout):
        why = "did not answer in time"
    elif isinstance(error, MaxConnectionsError) or "No connection available" in str(error):
        why = "is busy (every connection of this server process is in use)"
    else:
        why = "is not reachable"
    log.warning("503: Redis %s (%s: %s)", why, type(error).__name__, error)
    return problem(
        503, f"the arena's database {why}; retry after {RETRY_AFTER} s", headers={"Retry-After": str(RETRY_AFTER)}
    )


def _internal(error: Exception) -> Response:
    log.error("500: unexpected %s", type(error).__name__, exc_info=error)
    return problem(500, "an unexpected error; it has been logged")


ENGINE_ERRORS: dict[type[Exception], type[ArenaError]] = {RulesetError: InvalidRequest}
"""The engine's own errors (it stays free of the arena's) that are a user's mistake when
they reach a view: a ruleset or options a request named."""


def _refused(error: Exception) -> Response:
    """A domain error (``server.errors``) as the problem its class names."""
    kind = error if isinstance(error, ArenaError) else next(k for c, k in ENGINE_ERRORS.items() if isinstance(error, c))
    return problem(kind.status, str(error), type=PROBLEM_TYPES + kind.type)


def register_error_handlers(app: Flask) -> None:
    """Every domain error is the problem its class names, in this one place, so views let
    them rise; Redis trouble is a 503 with Retry-After; anything else unexpected a logged
    500. (HTTP errors keep their own handler: Flask picks the most specific class.)"""
    refusals: tuple[type[Exception], ...] = (ArenaError, *ENGINE_ERRORS)
    for error in refusals:
        app.register_error_handler(error, _refused)
    app.register_error_handler(RedisError, _unavailable)
    app.register_error_handler(Exception, _internal)
