"""Rulesets as validated data.

A ruleset is not a copy of the engine: it is a frozen options object that the single
engine consults at each branch point (how bidding ends, how the draw works, who owns
Low, how a hand is scored). RULES.md sections 3 and 4 define the two base rulesets;
foster51's named variations from section 4 are options layered on top with
``make_ruleset("foster51", {...})``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from functools import cached_property
from typing import Any, Mapping

DRAW_AMERICAN = "american"   # automatic non-trump discards, dealer takes every trump
DRAW_FOSTER = "foster"       # free face-up discards, dealer robs the pack

SCORING_AMERICAN = "american"            # each side adds its points; failed bidders lose the bid
SCORING_DIFFERENCE = "difference"        # Foster: the side with more scores the difference
SCORING_SET_BACK = "set_back"            # Foster's "old way": failed bidders are set back
SCORING_EIGHT_POINT = "eight_point_minimum"  # Foster's variation: bidders need 8 to score

SCORINGS = (SCORING_AMERICAN, SCORING_DIFFERENCE, SCORING_SET_BACK, SCORING_EIGHT_POINT)


class RulesetError(ValueError):
    """An unknown ruleset or an option it does not accept."""


@dataclass(frozen=True)
class Ruleset:
    """Every rule the engine varies on, with the source that motivates it."""

    name: str
    target: int                 # game score that wins
    min_bid: int
    max_bid: int = 14
    dealer_must_bid: bool = False   # american62: dealer bids the minimum after three passes
    draw: str = DRAW_AMERICAN
    low_to_holder: bool = True      # Low scores for the side that held it
    first_lead_trump: bool = False  # the bidder's first lead must be a trump if he has one
    dealer_draws_blind: bool = False  # foster51 option: no robbing; stock points count for nobody
    trump_discard_over_six_only: bool = False  # Katz: trumps may be discarded only to keep six
    scoring: str = SCORING_AMERICAN
    bidder_goes_out: bool = False   # american62 end-of-game rule
    min_discard: int = 3            # foster51: each non-dealer discards at least three

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def options(self) -> dict[str, Any]:
        """The named options that differ from the base ruleset (the replay/API form)."""
        return dict(self._options)

    @cached_property
    def _options(self) -> dict[str, Any]:
        # cached: every observation carries the options, and asdict() is slow
        base = BASE_RULESETS[self.name]
        return {k: getattr(self, k) for k in OPTION_NAMES if getattr(base, k) != getattr(self, k)}


AMERICAN62 = Ruleset(
    name="american62", target=62, min_bid=7, dealer_must_bid=True, draw=DRAW_AMERICAN,
    low_to_holder=True, scoring=SCORING_AMERICAN, bidder_goes_out=True,
)
FOSTER51 = Ruleset(
    name="foster51", target=51, min_bid=1, dealer_must_bid=False, draw=DRAW_FOSTER,
    low_to_holder=False, scoring=SCORING_DIFFERENCE, bidder_goes_out=False,
)
BASE_RULESETS: dict[str, Ruleset] = {r.name: r for r in (AMERICAN62, FOSTER51)}
DEFAULT_RULESET = AMERICAN62.name

# Options each ruleset accepts, with their type checks. american62 is the single
# profile chosen by its source, so it takes none.
OPTION_NAMES = ("min_bid", "trump_discard_over_six_only", "low_to_holder", "first_lead_trump",
                "dealer_draws_blind", "scoring")
_ACCEPTED = {"american62": (), "foster51": OPTION_NAMES}


def _check_option(name: str, value: Any) -> None:
    if name == "min_bid":
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 14:
            raise RulesetError(f"option min_bid must be a whole number from 1 to 14, not {value!r}")
    elif name == "scoring":
        allowed = (SCORING_DIFFERENCE, SCORING_SET_BACK, SCORING_EIGHT_POINT)
        if value not in allowed:
            raise RulesetError(f"option scoring must be one of {', '.join(allowed)}, not {value!r}")
    elif not isinstance(value, bool):
        raise RulesetError(f"option {name} must be true or false, not {value!r}")


def make_ruleset(name: object = DEFAULT_RULESET, options: Mapping[str, Any] | None = None) -> Ruleset:
    """The ruleset ``name`` with ``options`` applied, or ``RulesetError`` saying why not."""
    if not isinstance(name, str) or name not in BASE_RULESETS:
        raise RulesetError(f"unknown ruleset {name!r} (known: {', '.join(BASE_RULESETS)})")
    base = BASE_RULESETS[name]
    if not options:
        return base
    if not isinstance(options, Mapping):
        raise RulesetError("options must be an object of named settings")
    accepted = _ACCEPTED[name]
    for key, value in options.items():
        if key not in accepted:
            known = ", ".join(accepted) if accepted else "none"
            raise RulesetError(f"ruleset {name} has no option {key!r} (options: {known})")
        _check_option(key, value)
    return replace(base, **dict(options))
