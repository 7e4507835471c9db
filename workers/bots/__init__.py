"""Built-in bots, by name. Each takes a seed and implements ``decide(observation)``."""

from __future__ import annotations

from collections.abc import Callable

from workers.bots.base import Agent, decision_rng
from workers.bots.deal_search import SearchBot
from workers.bots.random_bot import RandomBot
from workers.bots.rule_bot import RuleBot
from workers.bots.search_bot import SearchPlayBot

BUILTIN: dict[str, Callable[..., Agent]] = {
    "random": RandomBot,
    "rule": RuleBot,
    "search-play": SearchPlayBot,
    "search": SearchBot,
}

DEFAULT_FIELD = ("random", "rule", "search")
"""Who plays when a command names no bots (the quick start): one of each kind of player.
``search-play`` is the rung below ``search`` that the ladder measures, not a new player."""

# Levels of a built-in bot, ``name:level``: ten times the search budget (samples, and the
# node caps that scale with them). Not in ``BUILTIN``, so a default tournament of every
# built-in bot does not pay for them; benchmarks and comparisons ask for them by name.
LEVELS: dict[str, Callable[..., Agent]] = {"search:strong": lambda seed=0: SearchBot(seed, strength=10)}
PLAYABLE = (*BUILTIN, *LEVELS)
"""Every built-in name a tournament run by the CLI may seat: the bots and their levels."""


def make_bot(name: str, seed: int | str = 0) -> Agent:
    """A built-in bot (or level, ``LEVELS``) by name; ``KeyError`` names the known ones."""
    factory = BUILTIN.get(name) or LEVELS.get(name)
    if factory is None:
        known = ", ".join(sorted(PLAYABLE))
        raise KeyError(f"no built-in bot {name!r} (built-in: {known})")
    return factory(seed)


__all__ = [
    "Agent",
    "BUILTIN",
    "DEFAULT_FIELD",
    "RandomBot",
    "RuleBot",
    "SearchBot",
    "SearchPlayBot",
    "LEVELS",
    "PLAYABLE",
    "decision_rng",
    "make_bot",
]
