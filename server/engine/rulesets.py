"""Rulesets as validated data.

A ruleset is not a copy of the engine: it is a frozen options object that the single
engine consults at each branch point (how bidding ends, how the draw works, who owns
Low, how a hand is scored). docs/rules/american62.md, docs/rules/foster51.md define the two base rulesets;
foster51's named variations from docs/rules/foster51.md#options are options layered on top with
``make_ruleset("foster51", {...})``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, replace
from functools import cached_property
from typing import TYPE_CHECKING, Any

from server.engine.cards import SIDES, seats_for

if TYPE_CHECKING:  # hand.py imports this module
    from server.engine.hand import Hand

DRAW_AMERICAN = "american"  # automatic non-trump discards, dealer takes every trump
DRAW_FOSTER = "foster"  # free face-up discards, dealer robs the pack

SCORING_AMERICAN = "american"  # each side adds its points; failed bidders lose the bid
SCORING_DIFFERENCE = "difference"  # Foster: the side with more scores the difference
SCORING_SET_BACK = "set_back"  # Foster's "old way": failed bidders are set back
SCORING_EIGHT_POINT = "eight_point_minimum"  # Foster's variation: bidders need 8 to score

SCORINGS = (SCORING_AMERICAN, SCORING_DIFFERENCE, SCORING_SET_BACK, SCORING_EIGHT_POINT)


class RulesetError(ValueError):
    """An unknown ruleset or an option it does not accept."""


@dataclass(frozen=True)
class Ruleset:
    """Every rule the engine varies on, with the source that motivates it."""

    name: str
    target: int  # game score that wins
    min_bid: int
    max_bid: int = 14
    dealer_must_bid: bool = False  # american62: dealer bids the minimum after three passes
    draw: str = DRAW_AMERICAN
    low_to_holder: bool = True  # Low scores for the side that held it
    first_lead_trump: bool = False  # the bidder's first lead must be a trump if he has one
    dealer_draws_blind: bool = False  # foster51 option: no robbing; stock points count for nobody
    trump_discard_over_six_only: bool = False  # Katz: trumps may be discarded only to keep six
    scoring: str = SCORING_AMERICAN
    bidder_goes_out: bool = False  # american62 end-of-game rule
    min_discard: int = 3  # foster51: each non-dealer discards at least three
    players: int = 4  # seats at the table (docs/rules/common.md#seats)
    keep_nine: bool = False  # seven_up, all_fives: no discard after exactly one run
    two_player_bunch: bool = False  # seven_up, all_fives with two players: bunch by agreement
    base: str = ""  # blind_cinch: the Cinch ruleset it varies
    blind_packet: int = 0  # blind_cinch: cards in each face-down packet (no stock)
    raises: bool = False  # sixty_three: the auction goes round until all but one passed
    extra_counts: tuple[tuple[str, int], ...] = ()  # sixty_three: more counting trumps (rank, value)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def options(self) -> dict[str, Any]:
        """The named options that differ from the base ruleset (the replay/API form)."""
        return dict(self._options)

    @cached_property
    def _options(self) -> dict[str, Any]:
        # cached: every observation carries the options, and asdict() is slow
        spec = game_spec(self)
        names = ("players", *spec.options) if len(spec.players) > 1 else tuple(spec.options)
        return {k: getattr(self, k) for k in names if getattr(spec.default, k) != getattr(self, k)}


AMERICAN62 = Ruleset(
    name="american62",
    target=62,
    min_bid=7,
    dealer_must_bid=True,
    draw=DRAW_AMERICAN,
    low_to_holder=True,
    scoring=SCORING_AMERICAN,
    bidder_goes_out=True,
)
FOSTER51 = Ruleset(
    name="foster51",
    target=51,
    min_bid=1,
    dealer_must_bid=False,
    draw=DRAW_FOSTER,
    low_to_holder=False,
    scoring=SCORING_DIFFERENCE,
    bidder_goes_out=False,
)
BASE_RULESETS: dict[str, Ruleset] = {r.name: r for r in (AMERICAN62, FOSTER51)}
DEFAULT_RULESET = AMERICAN62.name

# Options each Cinch ruleset accepts, with their type checks. american62 is the single
# profile chosen by its source, so it takes none.
OPTION_NAMES = (
    "min_bid",
    "trump_discard_over_six_only",
    "low_to_holder",
    "first_lead_trump",
    "dealer_draws_blind",
    "scoring",
)


@dataclass(frozen=True)
class Option:
    """One named setting of a ruleset, declared once by its game: its type, its domain and
    why it exists. The engine checks a value by calling it; the API's option schemas, the
    CLI's ``--options`` help and the rules docs are generated from the same declaration.
    Its default is the game's default ruleset's field of the same name."""

    kind: type
    why: str
    choices: tuple[Any, ...] = ()
    low: int | None = None
    high: int | None = None

    def __call__(self, name: str, value: Any) -> None:
        if isinstance(value, bool) != (self.kind is bool) or not isinstance(value, self.kind):
            raise RulesetError(f"option {name} must be {self.domain()}, not {value!r}")
        if self.choices and value not in self.choices:
            raise RulesetError(f"option {name} must be one of {', '.join(map(str, self.choices))}, not {value!r}")
        number = value if isinstance(value, int) else 0
        if (self.low is not None and number < self.low) or (self.high is not None and number > self.high):
            raise RulesetError(f"option {name} must be {self.domain()}, not {value!r}")

    def domain(self) -> str:
        """The values it takes, in words."""
        if self.kind is bool:
            return "true or false"
        if self.choices:
            return "one of " + ", ".join(map(str, self.choices))
        if self.high is not None:
            return f"a whole number from {self.low} to {self.high}"
        return "a positive whole number" if self.low == 1 else "a whole number"


def flag(why: str) -> Option:
    return Option(bool, why)


def choice(why: str, *allowed: Any) -> Option:
    return Option(type(allowed[0]), why, choices=allowed)


def whole(why: str, low: int = 1, high: int | None = None) -> Option:
    return Option(int, why, low=low, high=high)


TARGET = whole("the game's target: the score that wins a game at a table (no effect on a duplicate board)")

CINCH_OPTIONS = {
    "min_bid": whole("the lowest legal bid (Pagat's rules use 6)", 1, 14),
    "trump_discard_over_six_only": flag(
        "after Katz: a trump may be discarded only by a player holding more than six, and only down to six"
    ),
    "low_to_holder": flag("Low scores for the side that held it, as in american62"),
    "first_lead_trump": flag("the first lead of the hand must be a trump if the leader has one"),
    "dealer_draws_blind": flag(
        "no robbing: the dealer discards and draws from the top like everyone else; stock points count for nobody"
    ),
    "scoring": choice(
        "how a set side is scored: the difference, the old set back, or the eight-point minimum",
        SCORING_DIFFERENCE,
        SCORING_SET_BACK,
        SCORING_EIGHT_POINT,
    ),
}
assert tuple(CINCH_OPTIONS) == OPTION_NAMES  # foster51's named variations, in one place


@dataclass(frozen=True)
class GameSpec:
    """What a game module declares about its ruleset: the registry's one entry per name.

    ``hand`` is the class of one hand's state machine; every class answers the same
    questions (see ``server.engine.hand.Hand``), so nothing outside the game module
    needs to know which game it is playing.
    """

    default: Ruleset
    players: tuple[int, ...]
    options: Mapping[str, Option]
    hand: type[Hand]
    partnerships: bool = False  # with four players, NS v EW (else each seat for itself)
    deck: int = 52  # cards in the pack: 53 with snoozer's joker (docs/rules/common.md#cards)
    # Other fixed partnerships, per table size: (side names, seat index -> side index),
    # e.g. widow_cinch's three sides of two at six. The one place the core learns them.
    fixed_sides: Mapping[int, tuple[tuple[str, ...], tuple[int, ...]]] = field(default_factory=dict)
    swing: int | None = None
    """The largest net one hand can give between two sides (one side's score change less
    the other's), where the game has a shape of two sides: what bounds a board pair's
    score, which the sequential test needs (``server.arena.sequential``). None where no
    bound is worked out; the test is then refused for the game."""

    @property
    def name(self) -> str:
        return self.default.name

    def sides(self, players: int) -> tuple[tuple[str, ...], tuple[int, ...]]:
        """(side names, seat index -> side index) for a table of ``players`` seats."""
        seats = seats_for(players)
        if players in self.fixed_sides:
            return self.fixed_sides[players]
        if players == 4 and self.partnerships:
            return SIDES, (0, 1, 0, 1)
        return seats, tuple(range(players))

    def single_seats(self, players: int) -> bool:
        """Whether each seat is a side of its own (a duplicate unit of one seat)."""
        return len(self.sides(players)[0]) == players


def make_ruleset(name: object = DEFAULT_RULESET, options: Mapping[str, Any] | None = None) -> Ruleset:
    """The ruleset ``name`` with ``options`` applied, or ``RulesetError`` saying why not."""
    from server.engine.games import GAMES  # the game modules import this one

    if not isinstance(name, str) or name not in GAMES:
        raise RulesetError(f"unknown ruleset {name!r} (known: {', '.join(GAMES)})")
    spec = GAMES[name]
    base = spec.default
    if not options:
        return base
    if not isinstance(options, Mapping):
        raise RulesetError("options must be an object of named settings")
    for key, value in options.items():
        if key == "players":
            if value not in spec.players or isinstance(value, bool):
                raise RulesetError(f"{name} is played by {spec.players} players, not {value!r}")
            continue
        if key not in spec.options:
            known = ", ".join(["players", *spec.options]) if len(spec.players) > 1 else ", ".join(spec.options)
            raise RulesetError(f"ruleset {name} has no option {key!r} (options: {known or 'none'})")
        spec.options[key](key, value)
    return replace(base, **dict(options))


def game_spec(rules: Ruleset) -> GameSpec:
    """The registry entry of a ruleset."""
    from server.engine.games import GAMES

    return GAMES[rules.name]
