"""The blind movement (docs/rules/duplicate.md): every entrant plays every board once, at
one unit among built-in reference bots, and is scored against the references' own result
on the same cards (the par room). No entrant ever holds a board twice, so it is open to
untrusted bots, at every table shape: partnerships, k single seats, or a widow game's
sides of two (the entrant holds its whole unit, as a partnership entrant does).

Entrants are compared with each other on the boards they share (``cross_comparisons``).
With several ``references``, each plays a block of the boards, the same block for every
entrant.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations
from typing import Any

from server.arena.agent import Agent
from server.arena.duplicate import entrant_side, play_blind_board, play_par_room, units_of
from server.arena.formats.base import (
    Comparison,
    Format,
    Match,
    MatchKind,
    PlayContext,
    Record,
    Roster,
    Spec,
    SpecError,
    common,
    names,
    seated_by_unit,
    whole,
)
from server.arena.formats.standings import standard_results
from server.arena.order import play_order
from server.arena.registry import entrant_kind
from server.arena.store import Store
from server.engine import Board

REFERENCE = "rule"
"""The blind movement's default reference bot."""


class BlindKind(MatchKind):
    """An entrant's one room a board against the shared par room. Every job plays the
    par rooms of its boards; the first stored is the one every entrant is scored against."""

    name = "blind"
    par_room = True
    against = "the par room: the references' own net at the entrant's unit on the same cards"

    def play(self, ctx: PlayContext, boards: list[tuple[int, Board]]) -> Iterator[Record]:
        """The par rooms of the job's boards are played first, all of them and whether or
        not another job stored them already (``_par``): the entrant's first decision then
        waits the same whatever its place in each board's schedule."""
        rules, match = ctx.rules, ctx.match
        entrant, reference = ctx.seated()
        pars = {number: self._par(ctx, reference, number, board) for number, board in boards if not ctx.halted()}
        position = {number: p for p, number in enumerate(play_order(ctx.store.secret(), match))}
        for number, board in boards:
            if ctx.halted() or number not in pars:
                return
            par = pars[number]
            side = entrant_side(rules, board.dealer, position[number], match["index"])
            record = play_blind_board(rules, board, number, entrant, reference, side, par, match["id"])
            room = ctx.luck.with_luck(rules, board, record["rooms"][0])
            first = side == units_of(rules)[0][0]
            yield {**record, "rooms": [room, par], "luck": ctx.luck.blind_luck(room, par, first)}

    @staticmethod
    def _par(ctx: PlayContext, reference: Agent, number: int, board: Board) -> Record:
        """Board ``number``'s par room: every job plays it, and the first stored is kept.
        A job that skipped the par rooms already stored would reach the entrant's first
        decision sooner exactly when other entrants had met its boards before, so the
        delay would say whether the entrant is the first to meet them; playing them
        always costs the reference bots' play once more per entrant and board, and
        leaves nothing to time (docs/fair-play.md#no-order-to-read)."""
        store, rules, tid = ctx.store, ctx.rules, ctx.match["tournament"]
        played = ctx.luck.with_luck(rules, board, play_par_room(rules, board, number, reference, ctx.match["id"]))
        par = store.put_par_room(tid, number, played)
        if "luck" not in par:  # stored before the luck was measured
            par = ctx.luck.with_luck(rules, board, par)
        return par

    def seatings(self, match: Match, record: Record) -> list[dict[str, str]]:
        units = list(record["rooms"][1]["result"]["delta"])
        mine: dict[str, str] = {u: match["x"] if u == record["side"] else match["y"] for u in units}
        theirs: dict[str, str] = {u: match["y"] for u in units}  # dict.fromkeys types as str | None
        return [seated_by_unit(match, mine), seated_by_unit(match, theirs)]

    def room_label(self, record: Record, index: int) -> str:
        return "the entrant's room" if index == 0 else "par room"

    def board_scores(self, match: Match, record: Record) -> dict[str, int | float]:
        return {match["x"]: record["score"]}

    def evidence_family(self, comparison: dict[str, Any]) -> str:
        return f"{self.name}|"

    def note(self, match: Match) -> str:
        return (
            f"Blind movement: {match['x']} played each board once among the reference bots {match['y']}; a board's "
            f"score is {match['x']}'s net minus the references' own net at the same seat on the same cards."
        )


BLIND_KIND = BlindKind()


class Blind(Format):
    name = "blind"
    summary = "every entrant plays each board once among reference bots, scored against their par room"
    untrusted = True
    against_par = True
    entrant_fields = ("bots", "references")

    def complete(self, spec: Spec, request: dict[str, Any], roster: Roster) -> None:
        if "rooms" in request and request["rooms"] != "rotate":
            raise SpecError("rooms: the blind movement plays one room a board for each entrant; leave rooms out")
        spec.setdefault("references", [REFERENCE])
        if not names(spec, "bots", roster):
            raise SpecError("bots: the blind movement needs at least one entrant")
        references = names(spec, "references", roster)
        if not references:
            raise SpecError("references: the blind movement needs a reference bot")
        remote = [n for n in references if not entrant_kind(roster[n]).reference]
        if remote:
            raise SpecError(
                f"references: {remote[0]} is not a built-in bot; the reference bots sit at "
                "every board of the movement, so they must be built in"
            )
        if spec["sprt"] is not None:
            raise SpecError(
                "sprt: the sequential test stops a two-room match (round_robin or gauntlet); the blind "
                "movement compares its entrants on the boards they all play, so none of its matches "
                "may stop early"
            )
        whole(spec, "boards", len(spec["references"]))

    def competitors(self, spec: Spec) -> list[str]:
        return list(spec["bots"])

    def plan(self, spec: Spec, deal_seed: str | None) -> list[Match]:
        refs = spec["references"]
        bounds = [spec["first"] + spec["boards"] * j // len(refs) for j in range(len(refs) + 1)]
        return [
            {
                "kind": BLIND_KIND.name,
                "x": entrant,
                "y": ref,
                "index": i,
                "first": bounds[j],
                "last": bounds[j + 1] - 1,
                **common(spec),
            }
            for i, entrant in enumerate(spec["bots"])
            for j, ref in enumerate(refs)
        ]

    def cross_comparisons(self, store: Store, tid: str) -> list[Comparison]:
        """Every two entrants on the boards both played: per board, X's score against the
        par minus Y's; each shaped like a match, with an id of its own."""
        spec = store.tournament(tid)
        by_bot: dict[str, dict[int, int | float]] = {}
        for mid in store.match_ids(tid):
            by_bot.setdefault(store.match(mid)["x"], {}).update(store.scores(mid))
        out: list[Comparison] = []
        for index, (x, y) in enumerate(combinations(spec["bots"], 2), 1):
            shared = sorted(set(by_bot.get(x, {})) & set(by_bot.get(y, {})))
            comparison = {
                "id": f"{tid}:{x}~{y}",
                "kind": BLIND_KIND.name,
                "x": x,
                "y": y,
                "ruleset": spec["ruleset"],
                "options": spec["options"],
                "deals": spec["deals"],
                "order": [int(tid[1:]), 1, index],
            }
            out.append((comparison, {b: by_bot[x][b] - by_bot[y][b] for b in shared}))
        return out

    def standings_note(self, spec: Spec) -> str:
        return "raw mean score against the reference bots' par room per board; W-T-L in boards"

    def results(self, store: Store, spec: Spec) -> dict[str, Any]:
        return standard_results(store, spec, self)


BLIND = Blind()
