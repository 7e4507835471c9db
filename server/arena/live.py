"""A match's statistics so far, as live progress, results and pages show them.

Read from the stored per-board scores in this one place, so that what counts as a
board's score changes every view at once.
"""

from __future__ import annotations

import functools
from itertools import takewhile
from typing import Any

from server.arena.anytime import MIN_BOARDS, betting_interval
from server.arena.match_sprt import score_bound, sprt_summary
from server.arena.order import play_order
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


STAKE_WIDTH = 0.1
"""The betting interval's stakes are tuned to tell apart means this fraction of the score
bound apart (5.6 points at Cinch's 56): a typical edge between two bots of a game."""


def anytime_interval(store: Store, match: dict[str, Any]) -> tuple[float, float] | None:
    """X's anytime-valid 95% interval on the match's boards stored so far: the betting
    interval (``anytime.betting_interval``), exact for scores within the ruleset's bound
    whatever their shape. The asymptotic normal-mixture sequence it replaced missed the
    true mean at some board count in 9-11% of 400-board matches of the game's skewed
    shapes (rule vs random, an over-bidder) where it promised 5%; the betting one missed
    in 2.7-4.4%, no wider (``benchmarks/anytime_coverage.py``, docs/statistics.md). Read over the boards in the match's play
    order up to the first not stored, so that each interval extends the one before: the
    guarantee is for a sequence, which boards stored out of order would not be. None
    under ``MIN_BOARDS`` boards (it is too wide to say anything) and for a game whose
    board scores have no bound worked out (``match_sprt.score_bound``): no interval is
    shown where none is valid."""
    try:
        bound = score_bound(match["ruleset"], match["options"])
    except ValueError:
        return None
    scores = store.scores(match["id"])
    ordered = tuple(scores[b] for b in takewhile(scores.__contains__, play_order(store.secret(), match)))
    if len(ordered) < MIN_BOARDS:
        return None
    return _betting_interval(ordered, bound)


@functools.lru_cache(maxsize=4096)
def _betting_interval(ordered: tuple[float, ...], bound: float) -> tuple[float, float] | None:
    """``betting_interval`` remembered by its scores: it bisects 80 times over every board
    (5 ms at 100 boards), and a finished match's scores, or a running one's between two
    boards, are asked for again by every view of a page that lists it. A pure function of
    its arguments, so what it remembers is never stale; equal ints and floats give the
    same interval (the arithmetic is in floats either way)."""
    return betting_interval(ordered, bound, STAKE_WIDTH * bound)


def live_stats(store: Store, mid: str, match: dict[str, Any] | None = None) -> dict[str, Any]:
    """A match's statistics so far (``summarize``) with its anytime-valid 95% interval
    beside the mean (``anytime_low``, ``anytime_high``: ``anytime_interval``, null where it
    has none): what live progress shows, in the API, CLI and pages."""
    low, high = anytime_interval(store, match or store.match(mid)) or (None, None)
    return {**summarize(live_scores(store, mid)).to_dict(), "anytime_low": low, "anytime_high": high}


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
