"""Ratings as one line of text each: the same on the server's CLI (``cinch ratings``, a
tournament's report) and the SDK's (``cinch remote ratings``), which imports no server module."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def ratings_title(ruleset: str) -> str:
    return (
        f"Ratings ({ruleset}: points per board against an average field, 95% interval; "
        "* provisional: interval wider than +-2 or under 20 boards)"
    )


def rating_row(row: Mapping[str, Any]) -> str:
    """A leaderboard row (``server.arena.ratings.leaderboard``, or the API's) in one line."""
    mark = "*" if row["provisional"] else " "
    return (
        f"{row['bot']:16} {row['rating']:+7.2f} [{row['low']:+7.2f}, {row['high']:+7.2f}]{mark} "
        f"({row['matches']} matches, {row['boards']} boards)"
    )
