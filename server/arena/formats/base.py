"""What every format and every kind of match is: the two interfaces the rest of the arena asks.

A **format** (round robin, gauntlet, blind movement, Progressive) owns a tournament's
request (its checks and the error a user sees), the matches it plans, what happens when
one of them is complete and when all are, and its results. A **match kind** (a two-room
pair, a field of k entrants, a blind entrant against the par room, a Progressive table)
owns how one board of such a match is played (rooms and seats), what a board record
holds, how it is scored and what it proves for the ratings. Every surface asks these
objects (``server.arena.formats.format_of``, ``kind_of``) instead of testing a name, so
a format is added as one module and its registry line.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

from server.arena.agent import Agent
from server.arena.duplicate import units_of
from server.arena.registry import reference_kind
from server.arena.stats import MatchStats, summarize
from server.arena.store import Store
from server.engine import Board, Ruleset, make_ruleset, seats_for
from server.errors import InvalidRequest

Spec = dict[str, Any]
"""A checked tournament request with its defaults (``server.arena.tournaments.validate``)."""
Match = dict[str, Any]
"""A planned or stored match: its entrants, boards ``first..last``, kind and shared settings."""
Record = dict[str, Any]
"""One board's record: ``board``, ``rooms`` (each a hand record with its ``units``) and scores."""
Roster = dict[str, dict[str, Any]]
"""Every active bot by name with its ``kind`` and ``trusted`` flag (``server.arena.registry.roster``)."""
Comparison = tuple[dict[str, Any], dict[int, int | float]]
"""Two bots compared (shaped like a match, with an id of its own) and X's margin per board."""


class SpecError(InvalidRequest):
    """A tournament request that cannot be run (422); the message names the field."""


def names(spec: Spec, field: str, roster: Roster) -> list[str]:
    """The bot names of a request's field, each known, enabled and named once."""
    listed = spec.get(field)
    if not isinstance(listed, list) or not all(isinstance(n, str) for n in listed):
        raise SpecError(f"{field} must be a list of bot names")
    active = sorted(n for n, bot in roster.items() if bot.get("active", True))
    unknown = [n for n in listed if n not in roster]
    own = reference_kind(unknown[0]) if unknown else None
    if own is not None:
        raise SpecError(
            f"{field}: {unknown[0]!r} names a {own.name} bot, which plays only in a tournament run on "
            f"the machine that has it (`cinch tournament --bots {own.form} ...`); here, {own.on_a_server}"
        )
    if unknown:
        raise SpecError(f"{field}: unknown bot {unknown[0]!r} (known: {', '.join(active)})")
    disabled = [n for n in listed if n not in active]
    if disabled:
        raise SpecError(
            f"{field}: bot {disabled[0]!r} is disabled; the admin enables it again with "
            f"POST /api/v1/bots/{disabled[0]}/enable"
        )
    if len(set(listed)) != len(listed):
        raise SpecError(f"{field} names a bot twice")
    return listed


def whole(spec: dict[str, Any], field: str, low: int, high: int | None = None) -> int:
    """A request's whole-number field within bounds, or the error that says which bounds."""
    value = spec.get(field)
    if not isinstance(value, int) or isinstance(value, bool) or value < low or (high is not None and value > high):
        bound = f"from {low} to {high}" if high is not None else f"at least {low}"
        raise SpecError(f"{field} must be a whole number {bound}, not {value!r}")
    return value


def entrants_per_match(spec: Spec) -> int:
    """How many entrants a match of the tournament has: the ruleset's units (sides)."""
    return len(units_of(make_ruleset(spec["ruleset"], spec["options"]))[0])


def table_description(spec: Spec) -> str:
    """``"seven_up with 3 players"``: how refusals name a table shape."""
    return f"{spec['ruleset']} with {make_ruleset(spec['ruleset'], spec['options']).players} players"


def common(spec: Spec) -> dict[str, Any]:
    """What every match of a tournament shares."""
    shared = {k: spec[k] for k in ("ruleset", "options", "deals", "seed", "limits")}
    return {**shared, "secret_order": spec.get("secret_order", False)}


class Luck(Protocol):
    """The luck measures a board record carries (``workers.luck``: they need a bot, so the
    runtime provides them to the match kinds that measure luck)."""

    def with_luck(self, rules: Ruleset, board: Board, room: dict[str, Any]) -> dict[str, Any]: ...

    def lucky_pair(self, rules: Ruleset, board: Board, record: Record) -> Record: ...

    def blind_luck(self, room: dict[str, Any], par: dict[str, Any], first_unit: bool) -> float | None: ...


@dataclass(frozen=True)
class PlayContext:
    """What a match kind needs to play boards of one match in a job: the store (for what
    boards share across matches, such as a par room), the rules, the agents by entrant
    name, the stop signal asked between rooms, and the luck measures."""

    store: Store
    rules: Ruleset
    match: Match
    agent: Callable[[str], Agent]
    halted: Callable[[], bool]
    luck: Luck

    def seated(self) -> list[Agent]:
        """One agent per entrant of the match, in its order."""
        return [self.agent(name) for name in players(self.match)]


def seated_by_unit(match: Match, holder: dict[str, str]) -> dict[str, str]:
    """Seat name -> entrant, from unit name -> entrant (a unit's entrant holds all its seats)."""
    rules = make_ruleset(match["ruleset"], match["options"])
    names, side_of = units_of(rules)
    return {seat: holder[names[side_of[s]]] for s, seat in enumerate(seats_for(rules.players))}


def players(match: Match) -> list[str]:
    """A match's entrants in seat order: every one of a field or table, else X and Y."""
    return list(match.get("entrants") or [match["x"], match["y"]])


class MatchKind(ABC):
    """How the boards of one kind of match are played, stored, scored and rated."""

    name: ClassVar[str]
    rated: ClassVar[bool] = True
    """Whether its comparisons enter the ratings (a Progressive table's do not)."""
    par_room: ClassVar[bool] = False
    """Whether its entrant is scored against a par room (the reference pair's own play)."""
    several: ClassVar[bool] = False
    """Whether it has more than two entrants, each with its own statistics."""
    against: ClassVar[str]
    """What a board score is measured against, in words (``formats.boards.Board``)."""

    @abstractmethod
    def play(self, ctx: PlayContext, boards: list[tuple[int, Board]]) -> Iterator[Record]:
        """The board records of these boards, yielded as each board's last room ends."""

    def comparisons(self, store: Store, match: Match) -> list[Comparison]:
        """What the match proves for the ratings: X against Y on its stored boards."""
        return [(match, store.scores(match["id"]))]

    def evidence_family(self, comparison: dict[str, Any]) -> str:
        """The part of an evidence name that says how the comparison was played."""
        return ""

    def entrant_scores(self, store: Store, match: Match) -> list[tuple[str, list[float]]]:
        """Each entrant with its board scores so far, in board order (a kind of several
        entrants only): what ``entrant_stats`` summarizes and a standings row pools."""
        return []

    def entrant_stats(self, store: Store, match: Match) -> list[tuple[str, MatchStats]]:
        """Each entrant with its statistics so far (a kind of several entrants only)."""
        return [(bot, summarize(scores)) for bot, scores in self.entrant_scores(store, match)]

    @abstractmethod
    def seatings(self, match: Match, record: Record) -> list[dict[str, str]]:
        """Per room of a stored board record: seat name -> the entrant that held it."""

    def room_label(self, record: Record, index: int) -> str:
        return f"room {index + 1}"

    def board_scores(self, match: Match, record: Record) -> dict[str, int | float]:
        """Each scored entrant's score on a stored board record."""
        return dict(zip(players(match), record["entrant_scores"]))

    @abstractmethod
    def note(self, match: Match) -> str:
        """How its boards are played and scored, in a sentence for people (pages, CLI)."""

    def successors(self, store: Store, match: Match) -> list[Match]:
        """Matches this one's completion adds to its tournament (a Progressive round's
        next tables); the job that stored the last board enqueues them."""
        return []


class Format(ABC):
    """A tournament format: its request, its plan, its follow-ups and its results."""

    name: ClassVar[str]
    summary: ClassVar[str]
    """One line for help texts: who plays whom."""
    untrusted: ClassVar[bool] = False
    """Whether an untrusted bot may enter: only where nobody meets a board twice."""
    sprt: ClassVar[bool] = False
    """Whether its matches may be sequential tests that stop early."""
    default_ruleset: ClassVar[str | None] = None
    plays_rounds: ClassVar[bool] = False
    """Whether a request sets ``rounds`` (Progressive) rather than ``boards``."""
    entrant_fields: ClassVar[tuple[str, ...]] = ("bots",)
    """The request fields that name its entrants."""

    def allows(self, spec: Spec) -> str | None:
        """None if the format can play this table shape, else why not (a user's sentence)."""
        return None

    @abstractmethod
    def complete(self, spec: Spec, request: dict[str, Any], roster: Roster) -> None:
        """Check the format's own fields of a request and fill its defaults; SpecError if wrong."""

    def entrants(self, spec: Spec) -> list[str]:
        """Every bot in the tournament, in the order the request named them."""
        return [n for field in self.entrant_fields for n in spec.get(field) or []]

    def competitors(self, spec: Spec) -> list[str]:
        """The entrants ranked in its standings (not the reference bots of a blind movement)."""
        return self.entrants(spec)

    @abstractmethod
    def plan(self, spec: Spec, deal_seed: str | None) -> list[Match]:
        """The matches stored when the tournament is created."""

    def planned_totals(self, spec: Spec) -> tuple[int, int] | None:
        """(matches, board pairs) in all when later matches are added as it runs; else None."""
        return None

    def fit(self, spec: Spec, deal_count: int) -> None:  # noqa: B027 - most formats have no such field
        """Check the format's own fields against the deal set's size."""

    against_par: ClassVar[bool] = False
    """Whether its entrants are scored against a par room rather than against each other."""

    def cross_comparisons(self, store: Store, tid: str) -> list[Comparison]:
        """Entrants compared across matches (a blind movement's, on the boards both played):
        in the cross-table as the tournament runs; not rated (the ratings fit their
        comparisons against the par room, of which these are differences)."""
        return []

    @abstractmethod
    def standings_note(self, spec: Spec) -> str:
        """What a standings row's figures are, for the surfaces that print them."""

    @abstractmethod
    def results(self, store: Store, spec: Spec) -> dict[str, Any]:
        """Standings, cross-table and matches from the stored board records."""
