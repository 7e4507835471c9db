"""The decision protocol for remote seats: long-poll for a decision, post the action.

A bot sees only its own decisions, across every table and match it sits at. A request
carries an opaque id, the seat's observation (suits relabeled per room), the legal
actions and a deadline; no match, board or room. An answer is checked against the
legal actions at once, so a bot can correct an illegal answer until its deadline.

The accepted answer carries the bot's next open decisions back (waiting up to ``wait``
seconds for one), so a bot in steady play makes one HTTP exchange per decision. The
requests are stored as the JSON the bot sees and served as they are: this is the hot
path of every remote match.
"""

import random
import time
from collections.abc import Iterable
from contextlib import nullcontext
from typing import Any, NoReturn

from flask import Response
from flask.views import MethodView
from flask_smorest import Blueprint, abort
from werkzeug.routing import BaseConverter

from server.arena.store import Store
from server.engine import IllegalAction
from server.engine.legality import check
from server.web.api.auth import SECURITY, authorised, bearer_token, bot_token_hash, current_bot
from server.web.api.game_schemas import ActionSchema
from server.web.api.ratelimit import empty_polls, limiter
from server.web.api.schemas import DECISION_ID, AcceptedSchema, AnswerArgsSchema, DecisionSchema, WaitSchema
from server.web.context import arena
from server.web.served import Served
from server.web.waker import Interest


class DecisionIdConverter(BaseConverter):
    """Path segments that can be a decision id; ``POST /decisions/next`` is then a 405, and
    ``OPTIONS /decisions/next`` no longer offers POST."""

    regex = DECISION_ID


def decision_id_schema(_converter: BaseConverter) -> dict[str, str]:
    return {"type": "string", "pattern": f"^{DECISION_ID}$"}


blp = Blueprint(
    "decisions",
    __name__,
    url_prefix="/api/v1/decisions",
    description="Remote seats: long-poll for decisions and answer them",
)

POLL_SLICE = 5.0  # the longest wait on a wake event before reading Redis again
FULL_RETRY_AFTER = 2  # seconds a long-poll refused past this process's capacity is told to wait


@blp.before_request
def token_first():
    """No token, no parsing: the 401 comes before any complaint about the request. The
    token itself is checked by each view, the answer in the same round trip as its work."""
    if bearer_token() is None:
        authorised(None)


def await_open(
    store: Store,
    bot: str,
    wait: float,
    woken: Interest | None,
    found: list[str] | None = None,
    limit: int = -1,
    skip: Iterable[str] = (),
) -> list[str]:
    """The bot's open requests (JSON), waiting up to ``wait`` seconds for at least one.

    ``woken`` is the bot's wake event (``Waker.interest``), registered before ``found``
    (what the caller read in the same round trip as its own work) or, without it, before
    this call reads; None means no waiting. A wake-up that brings the new request serves
    it as it came (no second read); any other reads Redis. The wait is sliced, so a
    wake-up lost with the pub/sub connection costs at most one slice. Slices are 2.5 to 5 s at random:
    long-polls that arrived together (every bot after a restart) would otherwise read
    Redis together every 5 s, a burst queuing for the pool each time.
    """
    end = time.monotonic() + wait
    listener = None if woken is None else woken.listener
    pending = store.open_requests(bot, limit, skip, listener) if found is None else found
    while not pending and woken is not None:
        left = end - time.monotonic()
        if left <= 0:
            break
        woken.wait(min(left, POLL_SLICE * random.uniform(0.5, 1.0)))
        brought = woken.take(skip)
        if brought is None:  # no request came with the wake-up: Redis knows
            pending = store.open_requests(bot, limit, skip, listener)
        else:
            pending = brought[:limit] if limit > 0 else brought
    return pending


def json_response(body: str) -> Response:
    return Response(body, mimetype="application/json")


REFUSALS = {
    "missing": (404, "no open decision with that id for this bot"),
    "answered": (409, "this decision was already answered"),
    "expired": (410, "the deadline for this decision has passed; the default action was applied"),
}


def refuse(outcome: str) -> NoReturn:
    if outcome == "unauthorized":
        authorised(None)
    status, message = REFUSALS[outcome]
    abort(status, message=message)


def why_illegal(action: dict[str, Any], served: Served) -> str | None:
    """What is wrong with the action for the decision served, or None if it is legal."""
    try:
        check(action, served.legal, served.seat)
    except IllegalAction as exc:
        return str(exc)
    return None


def judge(store: Store, token_hash: str, did: str, action: dict[str, Any]) -> Served:
    """Every check on an answer, in the order a bot can act on: token (401), its own open
    decision (404, 409, 410), legal (422)."""
    bot, decision = store.answer_context(token_hash, did)
    name = authorised(bot)
    if decision is None or decision["bot"] != name:
        refuse("missing")
    if decision["status"] != "pending":
        refuse(decision["status"])
    served = Served(name, decision["legal"], decision["seat"])
    reason = why_illegal(action, served)
    if reason is not None:
        abort(422, message=reason)
    return served


@blp.route("")
class Decisions(MethodView):
    @blp.doc(security=SECURITY)
    @blp.response(200, DecisionSchema(many=True))
    @blp.doc(operationId="list_decisions")
    def get(self):
        """Every open decision of this bot, soonest deadline first (no waiting)."""
        bot = current_bot()
        return json_response("[" + ",".join(arena().served.remember(bot, arena().store.open_requests(bot))) + "]")


@blp.route("/next")
class Next(MethodView):
    @limiter.limit(
        empty_polls,
        key_func=bot_token_hash,
        deduct_when=lambda response: response.status_code == 204,
        error_message="too many long-polls that found nothing for this token (use wait=)",
    )
    @blp.doc(security=SECURITY)
    @blp.arguments(WaitSchema(), location="query")
    @blp.response(200, DecisionSchema)
    @blp.alt_response(204, description="nothing to decide within the wait")
    @blp.alt_response(429, description="too many empty long-polls for this token")
    @blp.doc(operationId="next_decision")
    def get(self, args):
        """The bot's most urgent open decision, waiting up to ``wait`` seconds for one.

        Asking again returns the same decision until it is answered or expires, so a
        lost response never loses a decision.
        """
        store, waker, wait = arena().store, arena().waker, args["wait"]
        bot = current_bot()
        # registered before the one read, so a decision published meanwhile still wakes it;
        # a process at capacity still reads once, and refuses only if nothing is open
        with waker.interest(bot) if wait > 0 else nullcontext() as woken:
            pending = await_open(store, bot, wait, woken, limit=1)
            if not pending and wait > 0 and woken is None:
                abort(
                    503,
                    message=f"this server process holds {waker.capacity} long-polls already; "
                    f"retry after {FULL_RETRY_AFTER} s",
                    headers={"Retry-After": str(FULL_RETRY_AFTER)},
                )
        arena().served.remember(bot, pending)
        return json_response(pending[0]) if pending else Response(status=204)


@blp.route("/<decision_id:decision_id>")
class Answer(MethodView):
    @blp.doc(security=SECURITY)
    @blp.arguments(AnswerArgsSchema(), location="query")
    @blp.arguments(ActionSchema())
    @blp.response(200, AcceptedSchema)
    @blp.alt_response(404, description="no such open decision for this bot")
    @blp.alt_response(409, description="already answered")
    @blp.alt_response(410, description="the deadline has passed")
    @blp.alt_response(422, description="the action is not legal here")
    @blp.doc(operationId="answer_decision")
    def post(self, args, action, decision_id):
        """Answer a decision with one action in the engine's format.

        The response lists the bot's other open decisions in ``next``, waiting up to
        ``wait`` seconds for one when there is none; ids in ``skip`` (decisions the bot
        is already working on) are left out and not waited for. Answering with
        ``wait=20`` and then answering what comes back is the whole loop of a bot.
        A ``next`` lost with its response is not lost: those decisions stay open. When the
        process holds as many long-polls as it takes, the answer is accepted without waiting.
        """
        store, served_here, token_hash = arena().store, arena().served, bot_token_hash()
        served = served_here.get(decision_id)
        if served is None or why_illegal(action, served):  # anything to report is checked in order
            served = judge(store, token_hash, decision_id, action)
        wait, skip = args["wait"], args["skip"]
        with arena().waker.interest(served.bot) if wait > 0 else nullcontext() as woken:
            outcome, found = store.answer_decision(
                token_hash,
                decision_id,
                served.bot,
                action,
                skip=skip,
                listener=None if woken is None else woken.listener,
            )
            if outcome != "ok":
                refuse(outcome)
            served_here.forget(decision_id)
            pending = served_here.remember(served.bot, await_open(store, served.bot, wait, woken, found, skip=skip))
        return json_response(accepted_body(pending))


def accepted_body(pending: list[str]) -> str:
    """An accepted answer's response, with the bot's next decisions (JSON) as they are stored."""
    return '{"accepted": true, "next": [' + ",".join(pending) + "]}"
