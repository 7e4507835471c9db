"""Tournaments: create (admin), list, status, results, matches, and finished board pairs.

A board's cards are shown to no one until that board is finished in every match of its
tournament (all matches play the same boards), so no participant can learn anything of
a board it, or anyone, still has to play. A tournament dealt from a secret set shows the
set's commitment from the start and its seed once the tournament is finished, never before.
"""

import marshmallow as ma
from flask import request, url_for
from flask.views import MethodView
from flask_smorest import Blueprint, abort

from server.arena import dealsets
from server.arena.tournaments import waiting_for
from server.web.api.auth import SECURITY, require_admin
from server.web.api.schemas import (
    BoardPairSchema,
    MatchSchema,
    ResultsSchema,
    TournamentCreatedSchema,
    TournamentCreateSchema,
    TournamentSchema,
)
from server.web.context import arena
from server.web.listing import ListArgsSchema, filters, listed
from server.web.readmodel import matches_of, public, results_of, tournament_or_404, visible_pair
from workers.driver import resume, start
from workers.supervisor import SERVICE, halt

blp = Blueprint("tournaments", __name__, url_prefix="/api/v1", description="Duplicate tournaments")


@blp.before_request
def admin_for_writes():
    if request.method == "POST":
        require_admin()


@blp.route("/tournaments")
class Tournaments(MethodView):
    @blp.arguments(ListArgsSchema(), location="query", unknown=ma.RAISE)
    @blp.response(
        200,
        TournamentSchema(many=True),
        headers={
            "Link": {
                "description": 'the next (older) and previous (newer) pages: <url>; rel="next", <url>; rel="prev"',
                "schema": {"type": "string"},
            }
        },
    )
    @blp.alt_response(422, description="a filter or page argument is not one the list takes (the problem says which)")
    @blp.doc(operationId="list_tournaments")
    def get(self, args):
        """A page of tournaments, newest first, each with its progress and its leader (the
        winner once finished). Filters (every one given must hold): ruleset, format, bot
        (repeatable: tournaments every one played), status, q (name words). The ``Link``
        header has the next page (``rel="next"``: older, ``before=``) and the previous
        (``rel="prev"``: newer, ``after=``) while there are more."""
        page = listed(arena().store, filters(args))
        links = [
            f'<{url_for("tournaments.Tournaments", _external=True, **edge)}>; rel="{rel}"'
            for rel, edge in (("next", page.older), ("prev", page.newer))
            if edge is not None
        ]
        return page.items, 200, {"Link": ", ".join(links)} if links else {}

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
            tid = start(store, arena().queue, body, SERVICE, deals_dir=arena().config.deals_dir)
        except dealsets.DealSetError as exc:  # the one refusal that names its field
            abort(422, message=str(exc), errors={"json": {"deals": [str(exc)]}})
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
        resume(arena().store, arena().queue, tid, SERVICE)  # TournamentStopped: a 409 (server.errors)
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
        match, record = visible_pair(arena().store, mid, board)  # StoreError: a 404 naming the match
        if record is None:
            abort(
                404,
                message=f"board {board} is not finished in every match of tournament {match['tournament']} "
                f"yet (or is not one of its boards)",
            )
        return record
