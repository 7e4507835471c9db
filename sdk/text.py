"""Ratings and sequential tests as one line of text each: the same on the server's CLI
(``cinch ratings``, ``cinch compare --sprt``, a tournament's report) and the SDK's
(``cinch remote ratings``, ``cinch remote compare --sprt``), which imports no server module."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any


def ratings_title(ruleset: str) -> str:
    return (
        f"Ratings ({ruleset}: points per board against an average field, 95% interval; "
        "* provisional: interval wider than +-2 or under 20 boards)"
    )


def heading(results: Mapping[str, Any]) -> str:
    """A tournament's results headed for people: its id, its name when it has one, its
    format and ruleset (what both CLIs print above the standings)."""
    name = f" {results['name']!r}" if results.get("name") else ""
    return f"Tournament {results['tournament']}{name} ({results['format']}, {results['ruleset']})"


def name_width(names: Iterable[str], least: int = 16) -> int:
    """The column width that holds every name (a local bot's ``stem:Class`` or a command
    bot's ``cmd:...`` may be long), so that the columns after it stay aligned."""
    return max([least, *(len(n) for n in names)])


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """``1 match``, ``2 matches``: the count with its noun."""
    return f"{count} {noun if count == 1 else nouns or noun + 's'}"


def mean_interval(mean: float, low: float | None, high: float | None) -> str:
    """``+1.500 [-0.20, +3.20]``: a mean with its 95% interval, or the mean alone where
    there is none (under two boards)."""
    shown = f"{mean:+8.3f}"
    return shown + ("" if low is None or high is None else f" [{low:+7.2f}, {high:+7.2f}]")


def rating_row(row: Mapping[str, Any], width: int = 16) -> str:
    """A leaderboard row (``server.arena.ratings.leaderboard``, or the API's) in one line,
    its name in a column of ``width`` (``name_width`` of the rows printed together)."""
    mark = "*" if row["provisional"] else " "
    return (
        f"{row['bot']:{width}} {row['rating']:+7.2f} [{row['low']:+7.2f}, {row['high']:+7.2f}]{mark} "
        f"({plural(row['matches'], 'match', 'matches')}, {plural(row['boards'], 'board')})"
    )


def sprt_line(sprt: Mapping[str, Any]) -> str:
    """A sequential test's standing (the API's ``sprt`` of a match, or
    ``server.arena.match_sprt.sprt_summary``) in one line, with the anytime-valid interval:
    the one that holds at the board count the test stopped at."""
    low, high = sprt.get("anytime_low"), sprt.get("anytime_high")
    cs = "" if low is None or high is None else f" anytime 95% [{low:+.2f}, {high:+.2f}]"
    return (
        f"boards {sprt['boards']}, LLR {sprt['llr']:+.2f} (bounds {sprt['lower']:+.2f}, {sprt['upper']:+.2f}), "
        f"luck-corrected mean {sprt['mean']:+.2f}{cs} per board"
    )


def verdict(x: str, y: str, decision: str | None, delta0: float, delta1: float, max_boards: int) -> str:
    """A sequential test's decision in words, from X's side."""
    if decision == "H1":
        return f"H1 accepted: {x} is better than {y} by more than {delta0:g} points per board"
    if decision == "H0":
        return f"H0 accepted: {x} is not better than {y} by {delta1:g} points per board"
    return f"inconclusive: no decision within {max_boards} boards"


def sprt_decision(x: str, y: str, sprt: Mapping[str, Any]) -> str | None:
    """A decided test in one short line, as ``cinch remote tournament watch`` prints it once
    per match: ``random vs rule: H1 accepted after 14 boards, anytime 95% [+2.1, +56.0]``;
    None while the test is undecided."""
    decision = sprt.get("decision")
    if decision is None:
        return None
    what = "inconclusive" if decision == "inconclusive" else f"{decision} accepted"
    low, high = sprt.get("anytime_low"), sprt.get("anytime_high")
    cs = "" if low is None or high is None else f", anytime 95% [{low:+.1f}, {high:+.1f}]"
    return f"{x} vs {y}: {what} after {sprt['boards']} boards{cs}"
