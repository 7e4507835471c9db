"""Random legal play (benchmarks, property tests, search rollouts, the random bot) and the
default action for a seat that does not answer.

"Uniform" per decision: each legal bid, suit or main card is equally likely; a discard
takes a random size in its range and then random cards; a rob keeps the forced cards
plus a random choice of the rest.
"""

from __future__ import annotations

from random import Random
from typing import Any

from .cards import cards_of, mask_of
from .state import BIDDING, DISCARD, DONE, PLAY, ROB, TRUMP, HandState


def random_step(state: HandState, rng: Random) -> None:
    """Apply one uniformly random legal move to ``state``."""
    phase = state.phase
    if phase == PLAY:
        legal = state.legal_plays()
        card = legal[rng.randrange(len(legal))] if len(legal) > 1 else legal[0]
        owed = state.extras_owed(state.to_act)
        extras = mask_of(rng.sample(cards_of(state.extras_from(card)), owed)) if owed else 0
        state.do_play(card, extras)
    elif phase == BIDDING:
        state.do_bid(rng.choice(state.legal_bids()))
    elif phase == TRUMP:
        state.do_trump(rng.randrange(4))
    elif phase == DISCARD:
        src, low, high, must = state.discard_rules()
        optional = cards_of(src & ~must)
        count = rng.randint(low, high) - must.bit_count()
        state.do_discard(must | mask_of(rng.sample(optional, count)))
    elif phase == ROB:
        optional = cards_of(state.rob_pool & ~state.rob_must)
        count = state.rob_size - state.rob_must.bit_count()
        state.do_rob(state.rob_must | mask_of(rng.sample(optional, count)))
    else:
        raise ValueError("the hand is over")


def playout(state: HandState, rng: Random) -> HandState:
    """Play ``state`` to the end with random legal moves; returns the same state."""
    while state.phase != DONE:
        random_step(state, rng)
    return state


def random_action(legal: list[dict[str, Any]], rng: Random) -> dict[str, Any]:
    """A uniformly chosen concrete action from a wire-format ``legal`` list.

    Works on what an agent sees (an observation's ``legal``), so the random bot and the
    wire-level benchmarks share it; choice objects (discard, rob, extras) are filled in.
    """
    action = dict(legal[rng.randrange(len(legal))])
    kind = action["type"]
    if kind == "discard":
        must = action.pop("must_include", [])
        optional = [c for c in action.pop("from") if c not in must]
        count = rng.randint(action.pop("min"), action.pop("max", len(optional) + len(must))) - len(must)
        action["cards"] = must + rng.sample(optional, count)
    elif kind == "rob":
        must = action.pop("must_keep")
        optional = [c for c in action.pop("from") if c not in must]
        action["keep"] = must + rng.sample(optional, action.pop("size") - len(must))
    elif kind == "play" and "extras_count" in action:
        action["extras"] = rng.sample(action.pop("extras_from"), action.pop("extras_count"))
    return action


def default_action(legal: list[dict[str, Any]]) -> dict[str, Any]:
    """The action applied for a seat that failed to answer: the first legal choice.

    Deterministic, so a replay of a match with a timed-out or broken bot is exact: the
    first listed action, a discard of the fewest cards allowed (forced ones first, then
    in listed order), a rob keeping the forced cards and then the first listed.
    """
    return random_action(legal[:1], _FirstChoice())


class _FirstChoice(Random):
    """A stand-in generator that always picks the first options, in order."""

    def randrange(self, stop: int, *args: Any) -> int:  # noqa: D102 - see class docstring
        return 0

    def randint(self, a: int, b: int) -> int:
        return a

    def sample(self, population: Any, k: int, **kwargs: Any) -> list:
        return list(population)[:k]
