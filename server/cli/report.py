"""Plain-text tables for tournament results, as the CLI prints them."""

from __future__ import annotations

from typing import Any

from sdk.models import Results
from sdk.text import heading, mean_interval, name_width, rating_row, ratings_title, sprt_line
from server.arena.ratings import leaderboard

__all__ = ["interval", "live_match", "print_results", "sprt_line", "vs"]


def interval(stats: dict[str, Any]) -> str:
    if stats["ci_low"] is None:
        return f"{stats['mean']:+.2f}"
    return f"{stats['mean']:+.2f} [{stats['ci_low']:+.2f}, {stats['ci_high']:+.2f}]"


def vs(match: dict[str, Any]) -> str:
    """Who plays a match: "X vs Y", or every entrant of a match of k (X's score first)."""
    return " vs ".join(match.get("entrants") or (match["x"], match["y"]))


def live_match(match: dict[str, Any]) -> str:
    """A running match for the progress line, short: X vs Y, the mean so far and its
    anytime-valid 95% interval (``live_stats``), which stays valid however often the
    line is read; before that interval exists, the boards so far."""
    s, who = match["stats"], vs(match)
    if s["anytime_low"] is None:
        return f"{who} {s['mean']:+.1f} ({s['boards']} boards)"
    return f"{who} {s['mean']:+.1f} anytime 95% [{s['anytime_low']:+.1f}, {s['anytime_high']:+.1f}]"


def print_results(results: dict[str, Any], ratings: dict[str, dict[str, Any]]) -> None:
    print(f"\n{heading(results)}\n")
    if results.get("rounds"):
        print(Results.parse(results).progressive_text())  # the SDK's text, so both CLIs print the same
        return
    field = any(m.get("entrants") for m in results["matches"])
    bots = [row["bot"] for row in results["standings"]]
    rated = leaderboard(ratings)
    name = name_width([*bots, *(row["bot"] for row in rated)])
    print(f"Standings ({results.get('standings_note') or 'raw mean per board'})")
    print(f"  {'#':>2} {'bot':{name}} {'mean [95% interval]':>28} {'boards':>7} {'W-T-L':>15} {'matches won':>12}")
    for rank, row in enumerate(results["standings"], 1):
        wtl = f"{row['won']}-{row['tied']}-{row['lost']}"
        shown = mean_interval(row["mean"], row.get("ci_low"), row.get("ci_high"))
        print(
            f"  {rank:>2} {row['bot']:{name}} {shown:>28} {row['boards']:7} {wtl:>15} "
            f"{row['match_wins']:>5} of {row['matches']}"
        )
    print("\nCross-table (row bot's raw mean per board against column bot, 95% interval)")
    width = name_width(bots, 26) + 2
    print("  " + " " * name + "".join(f"{b:>{width}}" for b in bots))
    for me in bots:
        cells = [
            interval(results["crosstable"][me][other]) if other in results["crosstable"][me] else "-" for other in bots
        ]
        print(f"  {me:{name}}" + "".join(f"{c:>{width}}" for c in cells))
    print(
        "\nMatches (each entrant's mean board score against the field, 95% interval)"
        if field
        else "\nMatches (X's mean per board pair, 95% interval: raw as played, and luck-corrected)"
    )
    for m in results["matches"]:
        if m.get("entrant_stats"):
            print(f"  {m['id']:10} {vs(m)}: {m['stats']['boards']} boards")
            for e in m["entrant_stats"]:
                print(f"  {'':10}   {e['bot']:{name}} {interval(e)}, W-T-L {e['won']}-{e['tied']}-{e['lost']}")
            continue
        s, c = m["stats"], m.get("corrected")
        corrected = f", corrected {interval(c)}" if c else ""
        print(
            f"  {m['id']:10} {vs(m)}: {s['boards']} boards, raw {interval(s)}{corrected}, "
            f"W-T-L {s['won']}-{s['tied']}-{s['lost']}, LOS {s['los']:.3f}"
        )
        if m.get("sprt"):
            print(f"  {'':10} sequential test: {m['sprt']['decision'] or 'undecided'}, {sprt_line(m['sprt'])}")
    print(f"\n{ratings_title(results['ruleset'])}")
    for row in rated:
        print(f"  {rating_row(row, name)}")
