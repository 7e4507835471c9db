"""A match's statistics so far, as live progress, results and pages show them.

Read from the stored per-board scores in this one place, so that what counts as a
board's score changes every view at once.
"""

from __future__ import annotations

from typing import Any

from server.arena.anytime import confidence_sequence
from server.arena.match_sprt import sprt_summary
from server.arena.stats import MatchStats, corrected_summary, mirrored, summarize
from server.arena.store import Store


def live_scores(store: Store, mid: str) -> list[float]:
    """X's per-board scores of a match stored so far, in board order: the numbers a
    match's statistics and its live anytime interval are computed from, read in this
    one place so that a different score (e.g. corrected for luck) changes them all."""
    scores = store.scores(mid)
    return [scores[b] for b in sorted(scores)]


def match_stats(store: Store, mid: str) -> MatchStats:
    return summarize(live_scores(store, mid))


def live_stats(store: Store, mid: str) -> dict[str, Any]:
    """A match's statistics so far (``summarize``) with its anytime-valid 95% interval
    beside the mean (``anytime_low``, ``anytime_high``: ``server.arena.anytime``; null under
    ``anytime.MIN_BOARDS`` boards): what live progress shows, in the API, CLI and pages."""
    scores = live_scores(store, mid)
    low, high = confidence_sequence(scores) or (None, None)
    return {**summarize(scores).to_dict(), "anytime_low": low, "anytime_high": high}


def mirrored_live(stats: dict[str, Any]) -> dict[str, Any]:
    """``live_stats`` seen from Y's side (``mirrored``, the anytime interval negated too)."""
    low, high = stats["anytime_low"], stats["anytime_high"]
    fixed = MatchStats(**{k: v for k, v in stats.items() if k not in ("anytime_low", "anytime_high")})
    return {
        **mirrored(fixed).to_dict(),
        "anytime_low": None if high is None else -high,
        "anytime_high": None if low is None else -low,
    }


def match_corrected(store: Store, mid: str) -> dict[str, Any] | None:
    """A match's luck-corrected mean and interval (``server.arena.stats.corrected_summary``), in
    board order; None when no stored board has its luck measured (stored before it was)."""
    scores, lucks = store.scores(mid), store.lucks(mid)
    if not lucks:
        return None
    boards = sorted(scores)
    return corrected_summary([scores[b] for b in boards], [lucks.get(b, 0.0) for b in boards])


def sprt_of(store: Store, match: dict[str, Any]) -> dict[str, Any]:
    """``{"sprt": standing}`` for a match of an SPRT tournament (``match_sprt.sprt_summary``),
    nothing for another: what a served match carries besides its statistics."""
    summary = sprt_summary(store, match)
    return {} if summary is None else {"sprt": summary}
