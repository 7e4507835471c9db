"""Built-in bots, by name. Each takes a seed and implements ``decide(observation)``."""

from __future__ import annotations

from collections.abc import Callable

from workers.bots.base import Agent, decision_rng
from workers.bots.random_bot import RandomBot
from workers.bots.rule_bot import RuleBot
from workers.bots.search_bot import SearchBot

BUILTIN: dict[str, Callable[..., Agent]] = {"random": RandomBot, "rule": RuleBot, "search": SearchBot}


def make_bot(name: str, seed: int | str = 0) -> Agent:
    """A built-in bot by name; ``KeyError`` names the known ones."""
    try:
        return BUILTIN[name](seed)
    except KeyError:
        raise KeyError(f"no built-in bot {name!r} (built-in: {', '.join(sorted(BUILTIN))})") from None


__all__ = ["Agent", "BUILTIN", "RandomBot", "RuleBot", "SearchBot", "decision_rng", "make_bot"]
