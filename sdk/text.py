"""Ratings as one line of text each: the same on the server's CLI (``cinch ratings``, a
tournament's report) and the SDK's (``cinch remote ratings``), which imports no server module."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any


def ratings_title(ruleset: str) -> str:
    return (
        f"Ratings ({ruleset}: points per board against an average field, 95% interval; "
        "* provisional: interval wider than +-2 or under 20 boards)"
    )


def name_width(names: Iterable[str], least: int = 16) -> int:
    """The column width that holds every name (a local bot's ``stem:Class`` or a command
    bot's ``cmd:...`` may be long), so that the columns after it stay aligned."""
    return max([least, *(len(n) for n in names)])


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """``1 match``, ``2 matches``: the count with its noun."""
    return f"{count} {noun if count == 1 else nouns or noun + 's'}"


def rating_row(row: Mapping[str, Any], width: int = 16) -> str:
    """A leaderboard row (``server.arena.ratings.leaderboard``, or the API's) in one line,
    its name in a column of ``width`` (``name_width`` of the rows printed together)."""
    mark = "*" if row["provisional"] else " "
    return (
        f"{row['bot']:{width}} {row['rating']:+7.2f} [{row['low']:+7.2f}, {row['high']:+7.2f}]{mark} "
        f"({plural(row['matches'], 'match', 'matches')}, {plural(row['boards'], 'board')})"
    )
