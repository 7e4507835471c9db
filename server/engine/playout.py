"""Random legal play (benchmarks, property tests, search rollouts, the random bot) and the
default action for a seat that does not answer.

Every game's hand class plays randomly through its own ``random_step(rng)`` (the fast
layer, no JSON); the functions here drive it, or work on wire-format legal lists.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from random import Random
from typing import Any, TypeVar

from server.engine.hand import Hand

H = TypeVar("H", bound=Hand)
T = TypeVar("T")


def random_step(state: Hand, rng: Random) -> None:
    """Apply one uniformly random legal move to ``state`` (each game's ``random_step``)."""
    state.random_step(rng)


def playout(state: H, rng: Random) -> H:
    """Play ``state`` to the end with random legal moves; returns the same state."""
    step = state.random_step
    while state.phase != "done":
        step(rng)
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

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        return 0

    def randint(self, a: int, b: int) -> int:
        return a

    def sample(self, population: Sequence[T], k: int, *, counts: Iterable[int] | None = None) -> list[T]:
        return list(population)[:k]
