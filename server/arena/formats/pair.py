"""Formats where every board is played in every room of a seating plan: the round robin and
the gauntlet (docs/rules/duplicate.md), and their two kinds of match.

With two units (partnerships, or two single seats) a match is a **pair**: X and Y, the
same cards in two rooms with the seats swapped; with k > 2 units it is a **field** of k
entrants played in every room of its ``rooms`` plan (``server.arena.duplicate.seatings``),
each scored by its nets against the field. Every entrant holds every board twice or more,
so only trusted bots enter.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Iterator
from itertools import combinations
from typing import Any

from server.arena.duplicate import play_boards, play_pairs, seatings
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
    entrants_per_match,
    names,
    seated_by_unit,
    table_description,
)
from server.arena.formats.standings import standard_results
from server.arena.store import Store
from server.engine import Board, game_spec, make_ruleset


class PairKind(MatchKind):
    """X against Y in two rooms, seats swapped; a record's ``score`` is X's, luck measured."""

    name = "pair"
    against = "the other entrant: X's net over both rooms"

    def play(self, ctx: PlayContext, boards: list[tuple[int, Board]]) -> Iterator[Record]:
        x, y = ctx.seated()
        by_number = dict(boards)
        for record in play_pairs(ctx.rules, boards, x, y, ctx.match["id"], ctx.halted):
            yield ctx.luck.lucky_pair(ctx.rules, by_number[record["board"]], record)

    def seatings(self, match: Match, record: Record) -> list[dict[str, str]]:
        units = list(record["rooms"][0]["result"]["delta"])
        x, y = match["x"], match["y"]
        return [seated_by_unit(match, dict(zip(units, order))) for order in ((x, y), (y, x))]

    def board_scores(self, match: Match, record: Record) -> dict[str, int | float]:
        return {match["x"]: record["score"], match["y"]: -record["score"]}

    def note(self, match: Match) -> str:
        return (
            "Duplicate match: each board was played in two rooms with the seats swapped; a board's score is "
            f"{match['x']}'s net over both rooms (positive: {match['x']} did better)."
        )


def difference(a: float, b: float) -> int | float:
    """``a - b`` of two board scores (multiples of 1/(k-1)), whole numbers kept whole."""
    d = round(a - b, 6)
    return int(d) if d == int(d) else d


class FieldKind(MatchKind):
    """k entrants in every room of a seating plan, each scored against the field
    (docs/rules/duplicate.md). Its comparisons are every two entrants on the same boards:
    per board, the first's board score minus the second's, the same cards, seats and field
    for both; they keep the ratings' one-result-of-two shape."""

    name = "field"
    several = True
    against = "the field: the entrant's nets summed over the rooms"

    def play(self, ctx: PlayContext, boards: list[tuple[int, Board]]) -> Iterator[Record]:
        return play_boards(ctx.rules, boards, ctx.seated(), ctx.match["rooms"], ctx.match["id"], ctx.halted)

    def note(self, match: Match) -> str:
        k = len(match["entrants"])
        rooms = (
            "every seating" if match["rooms"] == "permute" else f"{k} rooms, the entrants rotating through the seats"
        )
        return (
            f"Duplicate match of {k} entrants: each board was played in {rooms}; an entrant's net in a room is its "
            "score change less the others' mean change, and its board score is the sum of its nets over the rooms "
            f"(the board scores of a board sum to zero). The statistics below are {match['x']}'s against the field."
        )

    def seatings(self, match: Match, record: Record) -> list[dict[str, str]]:
        """A field room stores, per entrant, the unit it held (``units``)."""
        return [seated_by_unit(match, dict(zip(room["units"], match["entrants"]))) for room in record["rooms"]]

    def entrant_scores(self, store: Store, match: Match) -> list[tuple[str, list[float]]]:
        scores = store.entrant_scores(match["id"])
        boards = sorted(scores)
        return [(bot, [scores[b][j] for b in boards]) for j, bot in enumerate(match["entrants"])]

    def comparisons(self, store: Store, match: Match) -> list[Comparison]:
        scores = store.entrant_scores(match["id"])
        tid, index = match["id"].split(".m")
        out = []
        for j, (a, b) in enumerate(combinations(range(len(match["entrants"])), 2), 1):
            x, y = match["entrants"][a], match["entrants"][b]
            comparison = {
                "id": f"{match['id']}:{x}~{y}",
                "kind": self.name,
                "x": x,
                "y": y,
                "entrants": match["entrants"],
                "rooms": match["rooms"],
                "ruleset": match["ruleset"],
                "options": match["options"],
                "deals": match["deals"],
                "order": [int(tid[1:]), 0, int(index), j],
            }
            out.append((comparison, {n: difference(s[a], s[b]) for n, s in scores.items()}))
        return out

    def evidence_family(self, comparison: dict[str, Any]) -> str:
        """The seating plan and every entrant: the same two bots in another field prove another thing."""
        return f"{self.name}:{comparison['rooms']}:{','.join(sorted(comparison['entrants']))}|"


PAIR, FIELD = PairKind(), FieldKind()


class SeatedFormat(Format):
    """What the round robin and the gauntlet share: matches of every entrant group over all
    the boards, pairs or fields by the table shape, sequential tests for pairs."""

    sprt = True

    def allows(self, spec: Spec) -> str | None:
        if spec["sprt"] is not None and entrants_per_match(spec) > 2:
            return (
                f"sprt: the sequential test compares two entrants; {table_description(spec)} plays matches of "
                f"{entrants_per_match(spec)} entrants, which play all their boards"
            )
        return None

    def complete(self, spec: Spec, request: dict[str, Any], roster: Roster) -> None:
        rules = make_ruleset(spec["ruleset"], spec["options"])
        try:
            seatings(entrants_per_match(spec), spec["rooms"], game_spec(rules).single_seats(rules.players))
        except (ValueError, TypeError) as exc:
            raise SpecError(f"rooms: {exc}") from None
        self.check_entrants(spec, roster, entrants_per_match(spec))
        untrusted = [n for n in self.entrants(spec) if not roster[n]["trusted"]]
        if untrusted:
            raise SpecError(
                f"{untrusted[0]} is not trusted, and a {self.name} plays every board twice for each bot; "
                'untrusted bots play the blind movement (format "blind"), or the admin marks the bot trusted '
                f"(POST /api/v1/bots/{untrusted[0]}/trust)"
            )

    @abstractmethod
    def check_entrants(self, spec: Spec, roster: Roster, m: int) -> None:
        """Check the entrant fields for matches of ``m`` entrants."""

    @abstractmethod
    def groups(self, spec: Spec, m: int) -> list[tuple[str, ...]]:
        """The entrants of each match."""

    def plan(self, spec: Spec, deal_seed: str | None) -> list[Match]:
        m = entrants_per_match(spec)
        last = spec["first"] + spec["boards"] - 1
        shared = {"first": spec["first"], "last": last, **common(spec)}
        if m > 2:
            return [
                {"kind": FIELD.name, "entrants": list(g), "x": g[0], "y": g[1], "rooms": spec["rooms"], **shared}
                for g in self.groups(spec, m)
            ]
        test = {"sprt": spec["sprt"]} if spec.get("sprt") else {}
        return [{"x": x, "y": y, **shared, **test} for x, y in self.groups(spec, 2)]

    def standings_note(self, spec: Spec) -> str:
        if entrants_per_match(spec) > 2:
            return "raw mean board score against the field; W-T-L in boards above, at, below zero"
        return "raw mean net points per board pair; W-T-L in board pairs"

    def results(self, store: Store, spec: Spec) -> dict[str, Any]:
        return standard_results(store, spec, self)


class RoundRobin(SeatedFormat):
    name = "round_robin"
    summary = "every group of bots plays one match (every pair, or every k-subset in a game of k sides)"

    def check_entrants(self, spec: Spec, roster: Roster, m: int) -> None:
        if len(names(spec, "bots", roster)) < m:
            raise SpecError(
                "bots: a round robin needs at least two bots"
                if m == 2
                else f"bots: a round robin of {spec['ruleset']} needs at least {m} bots (its matches have {m} entrants)"
            )

    def groups(self, spec: Spec, m: int) -> list[tuple[str, ...]]:
        return list(combinations(spec["bots"], m))


class Gauntlet(SeatedFormat):
    name = "gauntlet"
    summary = "every candidate meets the same references on the same boards"
    entrant_fields = ("candidates", "references")

    def check_entrants(self, spec: Spec, roster: Roster, m: int) -> None:
        if not spec.get("candidates") or not spec.get("references"):
            raise SpecError("a gauntlet needs at least one candidate and one reference")
        candidates = names(spec, "candidates", roster)
        references = names(spec, "references", roster)
        if len(references) < m - 1:
            raise SpecError(
                f"references: a gauntlet of {spec['ruleset']} needs at least {m - 1} references "
                f"(each candidate meets {m - 1} of them in a match of {m} entrants)"
            )
        if set(candidates) & set(references):
            raise SpecError("a bot cannot be both a candidate and a reference")

    def groups(self, spec: Spec, m: int) -> list[tuple[str, ...]]:
        return [(c, *refs) for c in spec["candidates"] for refs in combinations(spec["references"], m - 1)]


ROUND_ROBIN, GAUNTLET = RoundRobin(), Gauntlet()
