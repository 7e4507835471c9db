"""Standings, cross-table and match rows: the results of every format whose matches are
pairs, fields or blind entrants (a Progressive tournament has its own, section 11.8)."""

from __future__ import annotations

from typing import Any

from server.arena import formats
from server.arena.formats.base import Format, Spec
from server.arena.live import live_scores, match_corrected, sprt_of
from server.arena.stats import MatchStats, mirrored, summarize
from server.arena.store import Store


def standard_results(store: Store, spec: Spec, fmt: Format) -> dict[str, Any]:
    """Standings, cross-table and per-match statistics from the stored board pairs.

    A standings row sums a bot's board scores over its matches (a match decided by its
    sequential test: the boards it played). In a format scored against the par (the
    blind movement) those are scores against the par (the reference pair's result on the same cards),
    the reference bots have no row of their own, and the cross-table also compares every
    two entrants on the boards they share (cells only: an entrant's matches, and the
    matches it won, are its matches against the par). A match of k entrants gives each entrant its
    board scores against the field (won, tied, lost: boards above, at, below zero; a match
    won when its 95% interval is above zero) and lists each entrant's statistics
    (``entrant_stats``); its cross-table cells sum the entrants' per-board differences
    over every match that holds both (``FieldKind.comparisons``).

    A row's ``ci_low``/``ci_high`` is the 95% interval (Student's t) of its mean, its
    board scores over all its matches pooled as one sample (so against a mix of
    opponents); none under two boards.
    """
    tid = spec["id"]
    blind = fmt.against_par
    competitors = fmt.competitors(spec)
    matches = []
    cross: dict[str, dict[str, Any]] = {}
    table: dict[str, dict[str, Any]] = {}
    pooled: dict[str, list[float]] = {}  # a row's board scores, for its interval

    def row(bot: str) -> dict[str, Any]:
        return table.setdefault(
            bot,
            {
                "bot": bot,
                "matches": 0,
                "match_wins": 0,
                "match_draws": 0,
                "boards": 0,
                "total": 0,
                "won": 0,
                "tied": 0,
                "lost": 0,
            },
        )

    def compared(
        me: str, other: str, st: MatchStats, scores: list[float], boards_count: bool = True, played: bool = True
    ) -> None:
        """A cross-table cell, and for a competitor's match (``played``) its standings row."""
        if me == other:  # a built-in entrant met itself as the reference
            return
        cross.setdefault(me, {})[other] = st.to_dict()
        if me not in competitors or not played:
            return
        r = row(me)
        count_match(r, st)
        if boards_count:
            add_boards(r, st, scores)

    def count_match(r: dict[str, Any], st: MatchStats) -> None:
        r["matches"] += 1
        r["match_wins"] += st.outcome() == 1
        r["match_draws"] += st.outcome() == 0

    def add_boards(r: dict[str, Any], st: MatchStats, scores: list[float]) -> None:
        for field in ("boards", "total", "won", "tied", "lost"):
            r[field] += getattr(st, field)
        pooled.setdefault(r["bot"], []).extend(scores)

    field_diffs: dict[tuple[str, str], list[float]] = {}
    for mid in store.match_ids(tid):
        match = store.match(mid)
        kind = formats.kind_of(match)
        if kind.several:
            entries = []
            for bot, scores in kind.entrant_scores(store, match):
                st = summarize(scores)
                entries.append((bot, st))
                r = row(bot)
                count_match(r, st)
                add_boards(r, st, scores)
            matches.append(seated_summary(match, entries))
            for comparison, diffs in kind.comparisons(store, match):
                field_diffs.setdefault((comparison["x"], comparison["y"]), []).extend(diffs[b] for b in sorted(diffs))
            continue
        scores = live_scores(store, mid)
        stats = summarize(scores)
        matches.append(
            {
                "id": mid,
                "x": match["x"],
                "y": match["y"],
                "status": match["status"],
                "stats": stats.to_dict(),
                "corrected": match_corrected(store, mid),
                **sprt_of(store, match),
            }
        )
        if blind and match["y"] in competitors:  # a built-in entrant is also the reference:
            r = row(match["x"])  # its match against the par, with no cross-table cell of itself
            count_match(r, stats)
            add_boards(r, stats, scores)
            continue
        compared(match["x"], match["y"], stats, scores)
        compared(
            match["y"], match["x"], mirrored(stats), [-s for s in scores], boards_count=not blind, played=not blind
        )
    for comparison, diffs in fmt.cross_comparisons(store, tid):  # entrants on shared boards: cells only
        stats = summarize([diffs[b] for b in sorted(diffs)])
        compared(comparison["x"], comparison["y"], stats, [], played=False)
        compared(comparison["y"], comparison["x"], mirrored(stats), [], played=False)
    for (x, y), margins in field_diffs.items():
        stats = summarize(margins)
        cross.setdefault(x, {})[y] = stats.to_dict()
        cross.setdefault(y, {})[x] = mirrored(stats).to_dict()
    for r in table.values():
        r["total"] = r["total"] if isinstance(r["total"], int) else round(r["total"], 4)
        r["mean"] = round(r["total"] / r["boards"], 4) if r["boards"] else 0.0
        interval = summarize(pooled.get(r["bot"], []))
        r["ci_low"], r["ci_high"] = interval.ci_low, interval.ci_high
    standings = sorted(table.values(), key=lambda r: (-r["mean"], r["bot"]))
    return {
        "tournament": tid,
        "format": spec["format"],
        "ruleset": spec["ruleset"],
        "standings": standings,
        "standings_note": fmt.standings_note(spec),
        "crosstable": cross,
        "matches": matches,
    }


def seated_summary(match: dict[str, Any], entries: list[tuple[str, MatchStats]]) -> dict[str, Any]:
    """A match of several entrants in the results: X's statistics and every entrant's."""
    return {
        "id": match["id"],
        "x": match["x"],
        "y": match["y"],
        "entrants": match["entrants"],
        "status": match["status"],
        "stats": entries[0][1].to_dict(),
        "corrected": None,
        "entrant_stats": [{"bot": bot, **st.to_dict()} for bot, st in entries],
    }
