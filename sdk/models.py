"""Typed results of API calls: small dataclasses built from the server's JSON.

Every model keeps the JSON it was built from in ``raw`` (``to_dict()`` returns a copy),
so a field the server adds later is never lost, and unknown fields are ignored rather
than failing. Observations and actions stay in the engine's JSON shape (an
``Observation`` is a dict with helper properties).
"""

from __future__ import annotations

import copy
import time
from dataclasses import dataclass, field, fields
from typing import Any, TypeVar

from sdk.cards import other_side
from sdk.observation import Observation

T = TypeVar("T", bound="Model")


@dataclass
class Model:
    raw: dict[str, Any] = field(default_factory=dict, repr=False, compare=False, kw_only=True)

    @classmethod
    def from_dict(cls: type[T], data: dict[str, Any], **converted: Any) -> T:
        names = {f.name for f in fields(cls) if f.init and f.name != "raw"}
        kwargs = {k: v for k, v in data.items() if k in names}
        kwargs.update(converted)
        return cls(**kwargs, raw=data)

    def to_dict(self) -> dict[str, Any]:
        """The JSON the server sent for this object."""
        return copy.deepcopy(self.raw)


@dataclass
class Health(Model):
    status: str = ""


@dataclass
class Rating(Model):
    rating: float = 0.0  # estimated points per board against an average field: the leaderboard's order
    se: float = 0.0  # its standard error
    low: float = 0.0  # its 95% interval
    high: float = 0.0
    provisional: bool = True  # the interval is still wide, or few boards rate it
    matches: int = 0


@dataclass
class BotInfo(Model):
    name: str = ""
    kind: str = ""  # "builtin" or "remote"
    status: str = ""  # "active" or "disabled"
    trusted: bool = False  # may play two-room matches (built-in, or marked by the admin)
    description: str = ""
    created: float | None = None
    ratings: dict[str, Rating] = field(default_factory=dict)  # per ruleset

    @classmethod
    def parse(cls, data: dict[str, Any]) -> BotInfo:
        ratings = {k: Rating.from_dict(v) for k, v in (data.get("ratings") or {}).items()}
        return cls.from_dict(data, ratings=ratings)

    @property
    def active(self) -> bool:
        return self.status == "active"


@dataclass
class BotToken(Model):
    name: str = ""
    token: str = field(default="", repr=False)  # kept out of logs and tracebacks


@dataclass
class Decision(Model):
    """One open decision for a seat of this bot: answer with ``Client.answer(id, action)``."""

    id: str = ""
    observation: Observation = field(default_factory=Observation, repr=False)
    legal: list[dict[str, Any]] = field(default_factory=list, repr=False)
    # The per-decision limit, the same for every decision: answer by then. The server
    # silently takes a later answer while the bot has time bank left in that match.
    deadline: float = 0.0  # Unix time on the server's clock
    deadline_in_ms: int = 0  # as of when the server answered (0 once past)
    received: float = field(default_factory=time.monotonic, repr=False, compare=False)  # local monotonic clock

    @classmethod
    def parse(cls, data: dict[str, Any]) -> Decision:
        obs = Observation(data.get("observation") or {})
        legal = data.get("legal")
        if legal is None:
            legal = obs.get("legal") or []
        if obs.get("legal") is None:  # always let the bot read the legal list from the observation
            obs["legal"] = legal
        return cls.from_dict(data, observation=obs, legal=legal)

    @property
    def local_deadline(self) -> float:
        """The deadline on this machine's monotonic clock (immune to clock differences)."""
        return self.received + self.deadline_in_ms / 1000

    def seconds_left(self) -> float:
        return self.local_deadline - time.monotonic()

    @property
    def expired(self) -> bool:
        return self.seconds_left() <= 0


@dataclass
class Tournament(Model):
    id: str = ""
    name: str | None = None  # a name for people, if it was given one
    leader: dict[str, Any] | None = None  # in a list: the winner (final) or the leader so far: bot, mean, ci_low...
    format: str = ""  # "round_robin", "gauntlet", "blind" or "progressive"
    ruleset: str = ""
    options: dict[str, Any] = field(default_factory=dict)
    deals: str = ""
    first: int = 1
    boards: int = 0
    bots: list[str] = field(default_factory=list)
    candidates: list[str] = field(default_factory=list)
    references: list[str] = field(default_factory=list)
    limits: dict[str, int] = field(default_factory=dict)
    practice: bool = False  # a named (public) deal set with remote bots
    seed: int = 1  # the built-in bots' seed
    status: str = ""  # queued, running, interrupted, cancelled, finished, failed
    driver: str | None = None  # "service", or the CLI command that runs it
    error: str | None = None  # why it failed
    waiting: list[dict[str, Any]] = field(default_factory=list)  # remote entrants: connected, timeouts
    pairs_done: int = 0
    pairs_total: int = 0
    created: float | None = None
    finished: float | None = None
    commitment: dict[str, Any] | None = None  # secret deal set: name, boards, seed_sha256, deals_sha256
    deals_seed: str | None = None  # the secret set's seed, once finished (``cinch deals verify --seed``)
    rounds: int | None = None  # progressive: its rounds of four boards
    sprt: dict[str, float] | None = None  # the sequential test's settings (delta0, delta1, alpha, beta), or None

    @property
    def is_finished(self) -> bool:
        return self.status == "finished"

    @property
    def has_ended(self) -> bool:
        """Finished, cancelled or failed: nothing more happens unless it is resumed.
        (An interrupted one goes on when its driver comes back or it is resumed.)"""
        return self.status in ("finished", "cancelled", "failed")

    @property
    def progress(self) -> float:
        return self.pairs_done / self.pairs_total if self.pairs_total else 0.0

    @property
    def players(self) -> list[str]:
        """Every bot in the tournament, whatever the format."""
        return list(self.bots) or [*self.candidates, *self.references]


@dataclass
class MatchStats(Model):
    """X's per-board-pair scores against Y: positive means X did better."""

    boards: int = 0
    total: int = 0
    mean: float = 0.0
    ci_low: float | None = None  # 95% Student t interval; None under two boards
    ci_high: float | None = None
    won: int = 0
    tied: int = 0
    lost: int = 0
    los: float = 0.5  # likelihood of superiority
    anytime_low: float | None = None  # anytime-valid 95% interval (a running match's, from Client.matches())
    anytime_high: float | None = None

    @property
    def significant(self) -> bool:
        return self.ci_low is not None and self.ci_high is not None and (self.ci_low > 0 or self.ci_high < 0)

    def interval(self) -> str:
        if self.ci_low is None:
            return f"{self.mean:+.2f}"
        return f"{self.mean:+.2f} [{self.ci_low:+.2f}, {self.ci_high:+.2f}]"


@dataclass
class Match(Model):
    id: str = ""
    x: str = ""
    y: str = ""
    status: str = ""  # "running" or "complete"
    stats: MatchStats = field(default_factory=MatchStats)  # raw: the scores as played
    corrected: MatchStats | None = None  # luck-corrected mean and 95% interval (boards, mean, ci_*)
    sprt: dict[str, Any] | None = (
        None  # with the sprt option: decision, boards, llr, lower, upper, mean, ci_*, anytime_*
    )
    timeouts: dict[str, int] = field(default_factory=dict)  # only from Client.matches()
    faulty: list[str] = field(default_factory=list)  # only from Client.matches()
    entrants: list[str] | None = None  # a match of k > 2 entrants: all of them (x and y are the first two)

    @classmethod
    def parse(cls, data: dict[str, Any]) -> Match:
        corrected = data.get("corrected")
        return cls.from_dict(
            data,
            stats=MatchStats.from_dict(data.get("stats") or {}),
            corrected=None if corrected is None else MatchStats.from_dict(corrected),
        )

    @property
    def bots(self) -> tuple[str, str]:
        return self.x, self.y


@dataclass
class Standing(Model):
    bot: str = ""
    matches: int = 0
    match_wins: int = 0
    match_draws: int = 0
    boards: int = 0
    total: int = 0
    won: int = 0
    tied: int = 0
    lost: int = 0
    mean: float = 0.0  # mean net points per board pair
    ci_low: float | None = None  # its 95% interval, the boards of all its matches pooled; None under two boards
    ci_high: float | None = None
    last_table: int | None = None  # progressive: the table of its latest finished round (a tie-break)

    @property
    def rounds_won(self) -> int:
        """Progressive: the rounds won (``match_wins`` there); its net points are ``total``."""
        return self.match_wins


@dataclass
class ProgressiveTable(Model):
    """One table of a progressive round (docs/rules/progressive.md): entrants by seat, partners at
    N/S and E/W; the pairs' table scores so far; the winning side once its four boards
    are played."""

    table: int = 0  # 1 is the head table
    match: str = ""  # the table's 4-board match (Client.board_pair(match, n))
    seats: dict[str, str] = field(default_factory=dict)  # "N", "E", "S", "W" -> entrant
    ns: int = 0
    ew: int = 0
    boards: int = 0  # boards stored of four
    winner: str | None = None  # "NS" or "EW"; None while it is played

    def pair(self, side: str) -> tuple[str, str]:
        """The two entrants of ``side`` ("NS" or "EW")."""
        return self.seats[side[0]], self.seats[side[1]]

    @property
    def winners(self) -> tuple[str, str] | None:
        return None if self.winner is None else self.pair(self.winner)


@dataclass
class ProgressiveRound(Model):
    round: int = 0
    first: int = 0  # its boards: first..last (4r-3..4r)
    last: int = 0
    tables: list[ProgressiveTable] = field(default_factory=list)  # head first

    @classmethod
    def parse(cls, data: dict[str, Any]) -> ProgressiveRound:
        return cls.from_dict(data, tables=[ProgressiveTable.from_dict(t) for t in data.get("tables") or []])


@dataclass
class Results(Model):
    tournament: str = ""
    name: str | None = None  # the tournament's name, if it was given one
    format: str = ""
    ruleset: str = ""
    standings: list[Standing] = field(default_factory=list)  # best first
    standings_note: str = ""  # what a row's figures are, as the tournament's format reads them
    crosstable: dict[str, dict[str, MatchStats]] = field(default_factory=dict)  # row bot vs column bot
    matches: list[Match] = field(default_factory=list)
    rounds: list[ProgressiveRound] = field(default_factory=list)  # progressive: the rounds seated so far

    @classmethod
    def parse(cls, data: dict[str, Any]) -> Results:
        cross = {
            me: {other: MatchStats.from_dict(s) for other, s in row.items()}
            for me, row in (data.get("crosstable") or {}).items()
        }
        return cls.from_dict(
            data,
            standings=[Standing.from_dict(r) for r in data.get("standings") or []],
            crosstable=cross,
            matches=[Match.parse(m) for m in data.get("matches") or []],
            rounds=[ProgressiveRound.parse(r) for r in data.get("rounds") or []],
        )

    def standing(self, bot: str) -> Standing | None:
        return next((s for s in self.standings if s.bot == bot), None)

    def progressive_text(self) -> str:
        """A progressive tournament's standings and rounds as text (what ``cinch
        tournament`` and ``cinch remote standings`` print)."""
        lines = [
            "Standings (rounds won, then net points, then the lower table in the last round; not rated)",
            f"  {'#':>2} {'entrant':16} {'won':>4} {'of':>4} {'net':>6} {'last table':>11}",
        ]
        for rank, row in enumerate(self.standings, 1):
            last = "-" if row.last_table is None else row.last_table
            lines.append(f"  {rank:>2} {row.bot:16} {row.rounds_won:>4} {row.matches:>4} {row.total:>+6} {last:>11}")
        for rd in self.rounds:
            lines += ["", f"Round {rd.round} (boards {rd.first}-{rd.last})"]
            for tb in rd.tables:
                (n, s), (e, w) = tb.pair("NS"), tb.pair("EW")
                lines.append(
                    f"  table {tb.table}: {n} & {s} {tb.ns:+d}  v  {e} & {w} {tb.ew:+d}  -> {tb.winner or 'playing'}"
                )
        return "\n".join(lines)

    def match_of(self, a: str, b: str) -> Match | None:
        """The match between ``a`` and ``b``, in either order."""
        return next((m for m in self.matches if {m.x, m.y} == {a, b}), None)


@dataclass
class Room(Model):
    """One room of a board pair: the hand's record, the same shape as a table hand's and
    itself a ``cinch replay`` input (``replay``); what it came to is in ``result``."""

    ruleset: str = ""
    options: dict[str, Any] = field(default_factory=dict)
    board: dict[str, Any] = field(default_factory=dict, repr=False)
    scores: dict[str, int] | None = None  # None: a duplicate board (from zeros, no target)
    actions: list[dict[str, Any]] = field(default_factory=list, repr=False)
    faults: list[dict[str, Any]] = field(default_factory=list)
    result: dict[str, Any] = field(default_factory=dict)  # contract, trump, tricks, points, delta
    luck: float | None = None  # N/S's luck on the draw (README, "Luck correction")

    @property
    def replay(self) -> dict[str, Any]:
        """The ``cinch replay`` input of this hand (the record itself)."""
        return self.to_dict()

    @property
    def contract(self) -> dict[str, Any] | None:
        """``{"seat", "amount"}``, or None when every seat passed."""
        return self.result.get("contract")

    @property
    def trump(self) -> str | None:
        return self.result.get("trump")

    @property
    def tricks(self) -> dict[str, int]:
        """Tricks taken per side."""
        return dict(self.result.get("tricks") or {})

    @property
    def points(self) -> dict[str, int]:
        return dict(self.result.get("points") or {})

    @property
    def delta(self) -> dict[str, int]:
        """The score change per side."""
        return dict(self.result.get("delta") or {})

    def net(self, side: str) -> int:
        """A side's net on the hand: its score change minus the other side's."""
        other = other_side(side)
        return self.delta.get(side, 0) - (self.delta.get(other, 0) if other else 0)


@dataclass
class BoardPair(Model):
    """A board played in both rooms: match X at N/S in room 1 and at E/W in room 2."""

    board: int = 0
    score: float = 0  # X's score: its net over both rooms, or a blind entrant's net less the par room's
    # (a fraction with k > 2 units); a match of k entrants serves entrant_scores instead
    rooms: list[Room] = field(default_factory=list)
    luck: float | None = None  # X's luck on the draw over both rooms
    side: str | None = None  # a blind movement: the side X held in the first room; the second is the par room
    entrant_scores: list[float] | None = None  # a match of k > 2 entrants: each one's board score, in entrant order

    @classmethod
    def parse(cls, data: dict[str, Any]) -> BoardPair:
        return cls.from_dict(data, rooms=[Room.from_dict(r) for r in data.get("rooms") or []])


@dataclass
class LeaderboardEntry(Model):
    bot: str = ""
    rating: float = 0.0  # points per board against an average field
    se: float = 0.0
    low: float = 0.0  # 95% interval
    high: float = 0.0
    provisional: bool = True
    matches: int = 0
    boards: int = 0


@dataclass
class Leaderboard(Model):
    ruleset: str = ""
    bots: list[LeaderboardEntry] = field(default_factory=list)  # best first

    @classmethod
    def parse(cls, data: dict[str, Any]) -> Leaderboard:
        return cls.from_dict(data, bots=[LeaderboardEntry.from_dict(r) for r in data.get("bots") or []])


@dataclass
class RatingPoint(Model):
    t: float = 0.0  # when the rating changed (Unix time)
    rating: float = 0.0
    se: float = 0.0
    low: float = 0.0  # 95% interval
    high: float = 0.0
    provisional: bool = True
    tournament: int = 0  # the finished tournament that changed it (3: "t3")


@dataclass
class RatingHistory(Model):
    ruleset: str = ""
    bot: str = ""
    points: list[RatingPoint] = field(default_factory=list)  # oldest first

    @classmethod
    def parse(cls, data: dict[str, Any]) -> RatingHistory:
        return cls.from_dict(data, points=[RatingPoint.from_dict(p) for p in data.get("points") or []])


@dataclass
class OpenedTable(Model):
    """A table just created: its id, and each human seat's private link (absolute, the
    seat's capability token in its fragment). The links are shown this once: the server
    keeps only the tokens' hashes."""

    id: str = ""
    seat_links: dict[str, str] = field(default_factory=dict)


@dataclass
class HumanSeat(Model):
    """The seat a human seat's token holds (``Client.human_seat``): the person's name at
    the table and their time per decision."""

    table: str = ""
    seat: str = ""
    name: str = ""
    decision_ms: int = 0


@dataclass
class Table(Model):
    """A whole game of any ruleset at any of its table sizes: ``seats`` lists the table's
    seats (N E S W at four, P1..Pk else) and ``scores`` is keyed by its sides (NS and EW,
    or each seat for itself). While it runs only public information is shown:
    ``hands`` holds the finished hands' public summaries and ``live`` the hand in
    progress as a spectator sees it; the full record comes from ``Client.table_record``."""

    id: str = ""
    ruleset: str = ""
    options: dict[str, Any] = field(default_factory=dict)
    seats: dict[str, str | None] = field(default_factory=dict)  # seat -> bot name, None while open
    humans: dict[str, dict[str, Any]] = field(default_factory=dict)  # a person's seat -> {human, decision_ms}
    status: str = ""  # "open", "running", "finished" or "failed"
    error: str | None = None  # a failed table's kind of error
    winner: str | None = None  # a side: "NS" or "EW", or a seat ("P2") where each plays for himself
    limits: dict[str, int] = field(default_factory=dict)
    practice: bool = False  # may one remote bot hold opposing seats (it then sees both their hands)
    hands_played: int = 0
    scores: dict[str, int] = field(default_factory=dict)
    hands: list[dict[str, Any]] = field(default_factory=list, repr=False)  # summaries: scores before, delta
    live: dict[str, Any] | None = field(default=None, repr=False)
    commitment: str = ""  # sha256 of the deal seed, from the start
    deal_seed: str | None = None  # revealed once the game is over

    @property
    def is_finished(self) -> bool:
        return self.status == "finished"

    @property
    def has_ended(self) -> bool:
        """Finished or failed: nothing more happens (``wait_for_table`` stops at either)."""
        return self.status in ("finished", "failed")

    @property
    def open_seats(self) -> list[str]:
        return [seat for seat, bot in self.seats.items() if bot is None]

    @property
    def live_view(self) -> Observation | None:
        """The hand in progress as a spectator sees it (no hand, no legal actions)."""
        view = (self.live or {}).get("view")
        return None if view is None else Observation(view)


@dataclass
class TableRecord(Model):
    """A finished table's every hand: each the same record as a room's (ruleset, options,
    board, scores before it, actions, faults, result: a ``cinch replay`` input) with its
    ``number``, ``public`` view and ``luck``; the scores after a hand are scores + delta."""

    id: str = ""
    winner: str | None = None
    hands: list[dict[str, Any]] = field(default_factory=list, repr=False)
