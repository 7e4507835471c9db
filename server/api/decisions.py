"""The decision protocol for remote seats: long-poll for a decision, post the action.

A bot sees only its own decisions, across every table and match it sits at. A request
carries an opaque id, the seat's observation (suits relabeled per room), the legal
actions and a deadline; no match, board or room. An answer is checked against the
legal actions at once, so a bot can correct an illegal answer until its deadline.
"""

import time

from flask import Response, g
from flask.views import MethodView
from flask_smorest import Blueprint, abort

from server.engine import IllegalAction
from server.engine.legality import check

from .auth import SECURITY, current_bot
from .context import arena
from .schemas import AcceptedSchema, ActionSchema, DecisionSchema, WaitSchema

blp = Blueprint("decisions", __name__, url_prefix="/api/v1/decisions",
                description="Remote seats: long-poll for decisions and answer them")


@blp.before_request
def authenticate():
    g.bot = current_bot()


@blp.route("")
class Decisions(MethodView):
    @blp.doc(security=SECURITY)
    @blp.response(200, DecisionSchema(many=True))
    def get(self):
        """Every open decision of this bot, soonest deadline first (no waiting)."""
        return arena().store.open_decisions(g.bot["name"])


@blp.route("/next")
class Next(MethodView):
    @blp.doc(security=SECURITY)
    @blp.arguments(WaitSchema, location="query")
    @blp.response(200, DecisionSchema)
    @blp.alt_response(204, description="nothing to decide within the wait")
    def get(self, args):
        """The bot's most urgent open decision, waiting up to ``wait`` seconds for one.

        Asking again returns the same decision until it is answered or expires, so a
        lost response never loses a decision.
        """
        store, name = arena().store, g.bot["name"]
        end = time.monotonic() + args["wait"]
        while True:
            pending = store.open_decisions(name, limit=1)
            if pending:
                return pending[0]
            left = end - time.monotonic()
            if left <= 0:
                return Response(status=204)
            store.wait_for_decision(name, min(left, 5.0))


@blp.route("/<decision_id>")
class Answer(MethodView):
    @blp.doc(security=SECURITY)
    @blp.arguments(ActionSchema)
    @blp.response(200, AcceptedSchema)
    @blp.alt_response(404, description="no such open decision for this bot")
    @blp.alt_response(409, description="already answered")
    @blp.alt_response(410, description="the deadline has passed")
    @blp.alt_response(422, description="the action is not legal here")
    def post(self, action, decision_id):
        """Answer a decision with one action in the engine's format."""
        store, name = arena().store, g.bot["name"]
        decision = store.decision(decision_id)
        if decision is None or decision["bot"] != name:
            abort(404, message="no open decision with that id for this bot")
        if decision["status"] == "answered":
            abort(409, message="this decision was already answered")
        if decision["status"] == "expired":
            abort(410, message="the deadline for this decision has passed; the default action was applied")
        request = decision["request"]
        try:
            check(action, request["legal"], request["observation"]["seat"])
        except IllegalAction as exc:
            abort(422, message=str(exc))
        outcome = store.answer_decision(decision_id, name, action)
        if outcome != "ok":
            abort(409 if outcome == "answered" else 410, message=f"the decision is {outcome}")
        return {"accepted": True}
