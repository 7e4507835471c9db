"""Tournaments: create (admin), list, status, results, matches, and finished board pairs.

A board's cards are shown to no one until that board is finished in every match of its
tournament (all matches play the same boards), so no participant can learn anything of
a board it, or anyone, still has to play. A tournament dealt from a secret set shows the
set's commitment from the start and its seed once the tournament is finished, never before.
"""

from flask import request
from flask.views import MethodView
from flask_smorest import Blueprint, abort

from server import dealsets
from server.field_matches import entrant_stats, is_field
from server.store import Store, StoreError
from server.tournaments import PROGRESSIVE, SpecError, live_stats, match_corrected, results, sprt_of, waiting_for
from workers.driver import TournamentStopped, resume, start
from workers.supervisor import SERVICE, halt

from .auth import SECURITY, require_admin
from .context import arena
from .schemas import (
    BoardPairSchema,
    MatchSchema,
    ResultsSchema,
    TournamentCreatedSchema,
    TournamentCreateSchema,
    TournamentSchema,
)

blp = Blueprint("tournaments", __name__, url_prefix="/api/v1", description="Duplicate tournaments")


@blp.before_request
def admin_for_writes():
    if request.method == "POST":
        require_admin()


def public(t: dict) -> dict:
    """A tournament as served: its commitment always, the deal set's seed only once it is
    finished (before, it would tell every bot every deal of a secret set). The stored spec's
    ``seed`` (the built-in bots' seed) is never served under that name."""
    seed = None
    if t["status"] == "finished":
        meta = arena().store.dealset_meta(t["deals"]) or {}
        seed = meta.get("seed")
    return {**t, "commitment": t.get("commitment"), "deals_seed": seed}


def results_of(store: Store, tid: str) -> dict:
    """A tournament's results: the stored ones once it is finished, else computed from the
    board pairs finished so far (the web pages serve the same)."""
    return store.results(tid) or results(store, tid)


def match_view(store: Store, mid: str, match: dict | None = None) -> dict:
    """A match as served: its statistics so far with the anytime-valid interval
    (``live_stats``), the luck-corrected mean, its sequential test's standing (in a
    tournament with sprt), remote timeouts and faulty bots."""
    m = match or store.match(mid)
    players = m.get("entrants") or [m["x"], m["y"]]
    field = (
        {"entrants": players, "entrant_stats": [{"bot": bot, **st.to_dict()} for bot, st in entrant_stats(store, m)]}
        if is_field(m) or m.get("kind") == PROGRESSIVE
        else {}
    )
    return {
        "id": mid,
        "x": m["x"],
        "y": m["y"],
        "status": m["status"],
        **field,
        "stats": live_stats(store, mid),
        "corrected": match_corrected(store, mid),
        **sprt_of(store, m),
        "timeouts": store.timeouts(mid),
        "faulty": sorted(b for b in players if store.is_faulty(mid, b)),
    }


def matches_of(store: Store, tid: str) -> list[dict]:
    """A tournament's matches, each as ``match_view`` serves it."""
    return [match_view(store, mid) for mid in store.match_ids(tid)]


def visible_pair(store: Store, mid: str, board: int) -> tuple[dict, dict | None]:
    """A match (``StoreError`` if there is none) and its board pair, the pair only once the
    board is finished in every match of the tournament: the one gate for the API and pages."""
    match = store.match(mid)
    done = store.board_done_everywhere(match["tournament"], board)
    return match, store.pair(mid, board) if done else None


def tournament_or_404(tid: str) -> dict:
    try:
        return arena().store.tournament(tid)
    except StoreError:
        abort(404, message=f"no tournament {tid!r}")


@blp.route("/tournaments")
class Tournaments(MethodView):
    @blp.response(200, TournamentSchema(many=True))
    @blp.doc(operationId="list_tournaments")
    def get(self):
        """Every tournament, newest last, with its progress."""
        store = arena().store
        return [public(store.tournament(tid)) for tid in store.tournament_ids()]

    @blp.doc(security=SECURITY)
    @blp.arguments(TournamentCreateSchema())
    @blp.response(201, TournamentCreatedSchema)
    @blp.alt_response(422, description="the request names unknown bots, too many boards, a bad ruleset...")
    @blp.alt_response(409, description="a different deal set of the same name is stored")
    @blp.doc(operationId="create_tournament")
    def post(self, body):
        """Create a tournament and queue its matches (admin).

        With a remote entrant the format defaults to the blind movement (unless every
        entrant is trusted) and the deals to a fresh secret set: the answer then carries
        the set's commitment, and the seed is published on the tournament once it is
        finished (check it with ``cinch deals verify``)."""
        body = {k: v for k, v in body.items() if v is not None}
        store = arena().store
        try:
            tid = start(store, arena().queue, body, SERVICE)
        except dealsets.DealSetError as exc:
            abort(422, message=str(exc), errors={"json": {"deals": [str(exc)]}})
        except SpecError as exc:
            abort(422, message=str(exc))
        except ValueError as exc:
            abort(409, message=str(exc))
        return {"id": tid, "commitment": store.tournament(tid).get("commitment")}


@blp.route("/tournaments/<tid>")
class Tournament(MethodView):
    @blp.response(200, TournamentSchema)
    @blp.doc(operationId="get_tournament")
    def get(self, tid):
        """A tournament's settings, status and progress (board pairs done of total), and
        while it is live, which remote entrants it may be waiting for."""
        t = tournament_or_404(tid)
        return {**public(t), "waiting": waiting_for(arena().store, t)}


@blp.route("/tournaments/<tid>/cancel")
class Cancel(MethodView):
    @blp.doc(security=SECURITY)
    @blp.response(200, TournamentSchema)
    @blp.alt_response(404, description="no such tournament")
    @blp.alt_response(409, description="the tournament is finished")
    @blp.doc(operationId="cancel_tournament")
    def post(self, tid):
        """Cancel a tournament (admin): its queued jobs are removed and its running jobs
        stop at their next board. Finished board pairs are kept; ``resume`` continues it."""
        if tournament_or_404(tid)["status"] == "finished":
            abort(409, message=f"tournament {tid} is finished; there is nothing to cancel")
        halt(arena().store, arena().queue, tid, "cancelled")
        return public(tournament_or_404(tid))


@blp.route("/tournaments/<tid>/resume")
class Resume(MethodView):
    @blp.doc(security=SECURITY)
    @blp.response(200, TournamentSchema)
    @blp.alt_response(404, description="no such tournament")
    @blp.alt_response(409, description="the tournament is finished, or another live driver runs it")
    @blp.doc(operationId="resume_tournament")
    def post(self, tid):
        """Resume an interrupted, cancelled or failed tournament (admin) as the service's:
        only the board pairs not stored yet are played."""
        tournament_or_404(tid)
        try:
            resume(arena().store, arena().queue, tid, SERVICE)
        except TournamentStopped as exc:
            abort(409, message=str(exc))
        return public(tournament_or_404(tid))


@blp.route("/tournaments/<tid>/results")
class Results(MethodView):
    @blp.response(200, ResultsSchema)
    @blp.doc(operationId="get_results")
    def get(self, tid):
        """Standings, cross-table and per-match statistics, over the board pairs finished so far."""
        tournament_or_404(tid)
        return results_of(arena().store, tid)


@blp.route("/tournaments/<tid>/matches")
class Matches(MethodView):
    @blp.response(200, MatchSchema(many=True))
    @blp.doc(operationId="list_matches")
    def get(self, tid):
        """The matches, with statistics so far, remote timeouts and faulty bots."""
        tournament_or_404(tid)
        return matches_of(arena().store, tid)


@blp.route("/matches/<mid>/boards/<int:board>")
class BoardPair(MethodView):
    @blp.response(200, BoardPairSchema)
    @blp.alt_response(
        404,
        description="no such match, or the board is not finished in every match of "
        "its tournament yet (or not in the match)",
    )
    @blp.doc(operationId="get_board_pair")
    def get(self, mid, board):
        """Both rooms of a board side by side, once the board is finished in every match of
        the tournament: until then no one sees its cards."""
        try:
            match, record = visible_pair(arena().store, mid, board)
        except StoreError:
            abort(404, message=f"no match {mid!r}")
        if record is None:
            abort(
                404,
                message=f"board {board} is not finished in every match of tournament {match['tournament']} "
                f"yet (or is not one of its boards)",
            )
        return record
