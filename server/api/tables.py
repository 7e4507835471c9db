"""Tables: a whole game between four seats, registered or built-in bots.

Anyone with a bot token (or the admin) creates a table and may fill seats with bots by
name; bots join open seats with their own token. The game starts when all four seats
are taken and is played by a worker. While it runs, the table shows only public
information (the hand in progress as a spectator sees it, and the finished hands'
public summaries); the full record, every card, is served once the game is over.
"""

import secrets

from flask import g, request
from flask.views import MethodView
from flask_smorest import Blueprint, abort

from server import registry
from server.engine import RulesetError, make_ruleset
from server.store import StoreError
from workers.table import play_table

from .auth import SECURITY, bearer_token, current_bot, is_admin
from .context import arena
from .schemas import CreatedSchema, JoinSchema, TableCreateSchema, TableRecordSchema, TableSchema

blp = Blueprint("tables", __name__, url_prefix="/api/v1/tables", description="Tables: whole games")


@blp.before_request
def authenticate_writes():
    """Writes need a bot's token (or the admin's), checked before the body is."""
    if request.method == "POST" and not is_admin(bearer_token()):
        g.bot = current_bot()


def table_or_404(tid: str) -> dict:
    try:
        return arena().store.table(tid)
    except StoreError:
        abort(404, message=f"no table {tid!r}")


def start_if_full(tid: str) -> None:
    store, queue = arena().store, arena().queue
    if store.start_table(tid):
        queue.enqueue(play_table, store.prefix, tid, job_id=f"{store.prefix}_table_{tid}",
                      job_timeout=24 * 3600, result_ttl=600)


def view(tid: str) -> dict:
    table = table_or_404(tid)
    store = arena().store
    hands = store.table_hands(tid)
    summary = [{"number": h["number"], "delta": h["delta"], "scores": h["scores"],
                "contract": h["public"]["contract"], "trump": h["public"]["trump"],
                "points": h["public"]["points"], "tricks": h["public"]["tricks"]} for h in hands]
    return {**{k: table[k] for k in ("id", "ruleset", "options", "seats", "status", "winner", "limits")},
            "hands_played": len(hands), "scores": hands[-1]["scores"] if hands else {"NS": 0, "EW": 0},
            "hands": summary, "live": store.table_live(tid) if table["status"] == "running" else None}


@blp.route("")
class Tables(MethodView):
    @blp.response(200, TableSchema(many=True))
    def get(self):
        """Every table, with its seats and scores."""
        return [view(tid) for tid in arena().store.table_ids()]

    @blp.doc(security=SECURITY)
    @blp.arguments(TableCreateSchema())
    @blp.response(201, CreatedSchema)
    @blp.alt_response(422, description="unknown ruleset, option or bot")
    def post(self, body):
        """Create a table (any bot, or the admin); named seats are filled at once."""
        try:
            make_ruleset(body["ruleset"], body["options"])
        except RulesetError as exc:
            abort(422, message=str(exc))
        known = registry.active_names(arena().store)
        for seat, bot in body["seats"].items():
            if bot not in known:
                abort(422, message=f"seats.{seat}: unknown or disabled bot {bot!r}")
        spec = {"ruleset": body["ruleset"], "options": body["options"], "limits": body["limits"],
                "seed": body["seed"], "deal_seed": secrets.token_hex(8)}
        tid = arena().store.create_table(spec, body["seats"])
        start_if_full(tid)
        return {"id": tid}


@blp.route("/<tid>")
class Table(MethodView):
    @blp.response(200, TableSchema)
    def get(self, tid):
        """The table as a spectator sees it: public information only while the game runs."""
        return view(tid)


@blp.route("/<tid>/join")
class Join(MethodView):
    @blp.doc(security=SECURITY)
    @blp.arguments(JoinSchema())
    @blp.response(200, TableSchema)
    @blp.alt_response(409, description="the seat (or every seat) is taken")
    def post(self, body, tid):
        """Take a seat (the one asked for, or the first open one) with your bot."""
        if "bot" not in g:
            abort(403, message="seats are taken by bots, with their own token")
        table = table_or_404(tid)
        open_seats = [s for s, b in table["seats"].items() if b is None]
        wanted = [body["seat"]] if body.get("seat") else open_seats
        if not any(arena().store.claim_seat(tid, s, g.bot) for s in wanted if s in open_seats):
            abort(409, message="that seat is taken" if body.get("seat") else "every seat is taken")
        start_if_full(tid)
        return view(tid)


@blp.route("/<tid>/record")
class Record(MethodView):
    @blp.response(200, TableRecordSchema)
    @blp.alt_response(409, description="the game is still being played")
    def get(self, tid):
        """The whole game, every action of every hand, once the game is over."""
        table = table_or_404(tid)
        if table["status"] != "finished":
            abort(409, message="the record is served once the game is over")
        return {"id": tid, "winner": table["winner"] or None, "hands": arena().store.table_hands(tid)}
