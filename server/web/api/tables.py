"""Tables: a whole game of any ruleset at any of its table sizes, registered or built-in bots.

Anyone with a bot token (or the admin) creates a table. Seats are taken by consent: a
bot's token seats only itself and built-in bots (they are the arena's own); other remote
bots join with their own token, and only the admin seats them by name. Tables are within
the arena's means: time limits at most the admin's caps, and a bounded number of live
(open or running) tables per remote bot and in all, so tables cannot take the workers
tournaments need. A table has the ruleset's seats (N E S W at four, P1..Pk at any other
size, ``options.players``) and keeps its scores by the ruleset's sides (NS and EW where
four play in partnerships, else each seat for itself). The game starts when every seat is
taken and is played by a worker. While it runs, the table shows only public
information (the hand in progress as a spectator sees it, and the finished hands'
public summaries); the full record, every card, is served once the game is over.
A seat may be a person's (``{"human": NAME}``, ``server.arena.humans``): the answer gives
its private link once, whose token plays that seat's decisions through the decision
protocol, as a remote bot does, and reads which seat it holds (``GET .../seat``).
Every table deals from a 128-bit secret seed: its sha256 (the commitment) is shown from
the start, the seed once the game is over, so anyone can check the deals were fixed
before play.
"""

import secrets
from typing import NoReturn

from flask import g, request
from flask.views import MethodView
from flask_smorest import Blueprint, abort

from server.arena import humans, registry
from server.arena.settings import DEFAULT_LIMITS
from server.arena.store import TableLimit
from server.engine import Ruleset, game_spec, make_ruleset, seats_for
from server.web.api.auth import SECURITY, bearer_token, current_bot, is_admin, seat_principal
from server.web.api.schemas import (
    HumanSeatViewSchema,
    JoinSchema,
    TableCreatedSchema,
    TableCreateSchema,
    TableRecordSchema,
    TableSchema,
)
from server.web.context import arena
from server.web.readmodel import OVER, table_or_404, view
from workers.table import play_table

blp = Blueprint("tables", __name__, url_prefix="/api/v1/tables", description="Tables: whole games")


@blp.before_request
def authenticate_writes():
    """Writes need a bot's token (or the admin's), checked before the body is."""
    if request.method == "POST" and not is_admin(bearer_token()):
        g.bot = current_bot()


def check_caps(limits: dict[str, int]) -> None:
    """A 422 naming the limit if the table's time limits (the defaults for those it does
    not set) pass the admin's caps: a slow table holds a worker as long as its bots think."""
    effective = {**DEFAULT_LIMITS, **limits}
    config = arena().config
    for name, most, variable in (
        ("decision_ms", config.table_max_decision_ms, "CINCH_TABLE_MAX_DECISION_MS"),
        ("bank_ms", config.table_max_bank_ms, "CINCH_TABLE_MAX_BANK_MS"),
    ):
        if effective[name] > most:
            abort(422, message=f"limits.{name}: at most {most} on a table ({variable})")


def check_seats(rules: Ruleset, seats: dict[str, str]) -> None:
    """A 422 naming the table's seats if ``seats`` names one it has not: the seat names
    are the ruleset's at its table size, so N at a three-player table is a mistake to
    tell, not a seat to ignore."""
    allowed = seats_for(rules.players)
    wrong = sorted(set(seats) - set(allowed))
    if wrong:
        abort(
            422,
            message=f"seats.{wrong[0]}: a {rules.name} table of {rules.players} players has the seats "
            f"{' '.join(allowed)}",
        )


def check_consent(seats: dict[str, str], kinds: dict[str, str]) -> None:
    """A 422 for an unknown bot; a 403 if a bot's token names another remote bot."""
    for seat, bot in seats.items():
        if bot not in kinds:
            abort(422, message=f"seats.{seat}: unknown or disabled bot {bot!r}")
        if "bot" in g and kinds[bot] == "remote" and bot != g.bot:
            abort(
                403,
                message=f"seats.{seat}: a bot's token seats only itself and built-in bots; "
                f"{bot!r} joins with its own token (POST /api/v1/tables/{{id}}/join)",
            )


def opposing(rules: Ruleset, seats: dict[str, str | None], kinds: dict[str, str]) -> str | None:
    """The first remote bot of ``seats`` that holds seats of two sides without holding
    every seat, or None. Such a bot sees both sides' hands, so whoever sits down with it
    plays against a program that knows its cards; self-play (every seat one bot) hides
    nothing from anyone."""
    order = seats_for(rules.players)
    side_of = game_spec(rules).sides(rules.players)[1]
    for bot in dict.fromkeys(b for b in seats.values() if b is not None and kinds.get(b) == "remote"):
        mine = [s for s, b in seats.items() if b == bot]
        if len({side_of[order.index(s)] for s in mine}) > 1 and len(mine) < len(order):
            return bot
    return None


def check_opposing(rules: Ruleset, seats: dict[str, str | None], kinds: dict[str, str], practice: bool) -> None:
    """A 422 naming the bot if a table that is not practice would seat it on opposing sides."""
    bot = opposing(rules, seats, kinds)
    if bot is not None and not practice:
        abort(
            422,
            message=f"seats: {bot} would hold seats of two opposing sides and see both their hands; seat it on "
            'one side, at every seat (self-play), or mark the table "practice": true',
        )


def live_table_refusal(limit: TableLimit) -> NoReturn:
    """The 409 problem for a bound on live tables."""
    if limit.args[0] == "tables":
        abort(
            409,
            message=f"the arena holds {arena().config.table_max_live} live tables (open or "
            "running), its most (CINCH_TABLE_MAX_LIVE); try again when one has finished",
        )
    abort(
        409,
        message=f"bot {limit.args[0]!r} has {arena().config.table_max_per_bot} live tables "
        "(open or running), the most a bot may have (CINCH_TABLE_MAX_PER_BOT); "
        "try again when one has finished",
    )


def start_if_full(tid: str) -> None:
    store, queue = arena().store, arena().queue
    if store.start_table(tid):
        queue.enqueue(
            play_table, store.prefix, tid, job_id=f"{store.prefix}_table_{tid}", job_timeout=24 * 3600, result_ttl=600
        )


@blp.route("")
class Tables(MethodView):
    @blp.response(200, TableSchema(many=True))
    @blp.doc(operationId="list_tables")
    def get(self):
        """Every table, with its seats and scores."""
        return [view(tid) for tid in arena().store.table_ids()]

    @blp.doc(security=SECURITY)
    @blp.arguments(
        TableCreateSchema(),
        required=False,
        description=(
            "optional: every field has a default, and no body (or {}) opens an american62 table of four empty seats"
        ),
    )
    @blp.response(201, TableCreatedSchema)
    @blp.alt_response(403, description="a bot's token named another remote bot in seats")
    @blp.alt_response(409, description="too many live tables, for a bot or in all")
    @blp.alt_response(
        422,
        description=("unknown ruleset, option or bot, a seat the ruleset's table has not, or limits above the caps"),
    )
    @blp.doc(operationId="create_table")
    def post(self, body):
        """Create a table (any bot, or the admin) of any ruleset and table size; named seats
        are filled at once. The seats are the ruleset's: N E S W at four players, P1..Pk at
        any other size (``options.players``). A bot's token seats only itself and built-in
        bots."""
        rules = make_ruleset(body["ruleset"], body["options"])  # RulesetError: a 422
        check_seats(rules, body["seats"])
        check_caps(body["limits"])
        bots = {seat: b for seat, b in body["seats"].items() if isinstance(b, str)}
        people = {seat: h for seat, h in body["seats"].items() if not isinstance(h, str)}
        kinds = registry.active_kinds(arena().store)
        check_consent(bots, kinds)
        check_opposing(rules, bots, kinds, body["practice"])
        spec = {
            "ruleset": body["ruleset"],
            "options": body["options"],
            "limits": body["limits"],
            "seed": body["seed"],
            "deal_seed": secrets.token_hex(16),
            "practice": body["practice"],
            "humans": people,
        }
        principals = {seat: humans.new_principal() for seat in people}
        creator = g.get("bot", "")
        holders = ([creator] if creator else []) + [b for b in bots.values() if kinds.get(b) == "remote"]
        try:
            tid = arena().store.create_table(
                spec,
                {**bots, **principals},
                creator,
                holders,
                arena().config.table_max_live,
                arena().config.table_max_per_bot,
            )
        except TableLimit as limit:
            live_table_refusal(limit)
        links = {}
        for seat, principal in principals.items():  # each token shown here once, stored by its hash
            token = registry.new_token()
            arena().store.open_human_seat(principal, registry.token_hash(token))
            links[seat] = f"/tables/{tid}/seat#{token}"
        start_if_full(tid)
        return {"id": tid, "seat_links": links}


@blp.route("/<tid>")
class Table(MethodView):
    @blp.response(200, TableSchema)
    @blp.doc(operationId="get_table")
    def get(self, tid):
        """The table as a spectator sees it: public information only while the game runs."""
        return view(tid)


@blp.route("/<tid>/seat")
class HumanSeat(MethodView):
    @blp.doc(security=SECURITY)
    @blp.response(200, HumanSeatViewSchema)
    @blp.alt_response(403, description="the token is not a human seat's at this table")
    @blp.doc(operationId="get_human_seat")
    def get(self, tid):
        """Which seat of this table a human seat's token holds (the seat page asks it first);
        its cards come with its decisions (``GET /api/v1/decisions/next``)."""
        principal = seat_principal()
        table = table_or_404(tid)
        seat = next((s for s, b in table["seats"].items() if b == principal), None)
        if seat is None:
            abort(403, message=f"this token holds no seat at table {tid}")
        human = table["humans"][seat]
        return {"table": tid, "seat": seat, "name": human["human"], "decision_ms": human["decision_ms"]}


@blp.route("/<tid>/join")
class Join(MethodView):
    @blp.doc(security=SECURITY)
    @blp.arguments(JoinSchema())
    @blp.response(200, TableSchema)
    @blp.alt_response(409, description="the seat (or every seat) is taken, or the bot has too many live tables")
    @blp.alt_response(422, description="the table has no such seat")
    @blp.doc(operationId="join_table")
    def post(self, body, tid):
        """Take a seat (the one asked for, or the first open one) with your bot."""
        if "bot" not in g:
            abort(403, message="seats are taken by bots, with their own token")
        table = table_or_404(tid)
        if body.get("seat") and body["seat"] not in table["seats"]:
            abort(422, message=f"seat: table {tid} has the seats {' '.join(table['seats'])}")
        open_seats = [s for s, b in table["seats"].items() if b is None]
        rules = make_ruleset(table["ruleset"], table["options"])
        kinds = registry.active_kinds(arena().store)
        practice = bool(table.get("practice", False))
        if body.get("seat"):
            check_opposing(rules, {**table["seats"], body["seat"]: g.bot}, kinds, practice)
            wanted = [body["seat"]]
        else:  # the first open seat that keeps the bot on one side
            wanted = [s for s in open_seats if practice or opposing(rules, {**table["seats"], s: g.bot}, kinds) is None]
            if open_seats and not wanted:
                check_opposing(rules, {**table["seats"], open_seats[0]: g.bot}, kinds, practice)
        try:
            taken = any(
                arena().store.claim_seat(tid, s, g.bot, arena().config.table_max_per_bot)
                for s in wanted
                if s in open_seats
            )
        except TableLimit as limit:
            live_table_refusal(limit)
        if not taken:
            abort(409, message="that seat is taken" if body.get("seat") else "every seat is taken")
        start_if_full(tid)
        return view(tid)


@blp.route("/<tid>/record")
class Record(MethodView):
    @blp.response(200, TableRecordSchema)
    @blp.alt_response(409, description="the game is still being played")
    @blp.doc(operationId="get_table_record")
    def get(self, tid):
        """The whole game, every action of every hand, once the game is over."""
        table = table_or_404(tid)
        if table["status"] not in OVER:
            abort(409, message="the record is served once the game is over")
        return {"id": tid, "winner": table["winner"] or None, "hands": arena().store.table_hands(tid)}
