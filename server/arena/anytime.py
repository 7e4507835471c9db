"""An anytime-valid interval for a running match's mean: a confidence sequence.

A match's 95% interval (``server.arena.stats.summarize``, Student's t) is valid at one board
count chosen in advance. Live progress is looked at after every board, and a user who
stops a match by hand the first time that interval leaves zero is wrong far more often
than 5% of the time (about a third of the time over 300 boards, in simulation).
A confidence sequence is a sequence of intervals that contains the true mean at every
board count at once, with probability 1 - alpha, so it may be looked at as often as one
likes and the match stopped whenever it excludes zero; it is valid at the sequential
test's data-dependent stop for the same reason.

The one here is exact for scores within a known bound, whatever their shape: the betting
construction below. The asymptotic normal-mixture sequence (Waudby-Smith et al. 2024,
Theorem 2.2) served live matches before it; it leans on a variance estimate and a central
limit, and on the game's skewed score shapes (a few rare large losses: rule against
random, an over-bidder that is set now and then) it missed the true mean at some board
count in 9-11% of 400-board matches where it promised 5%. The betting sequence missed in
2.7-4.4% on every shape of ``benchmarks/sprt_errors.py``'s battery, at about the same
width (``benchmarks/anytime_coverage.py``, ``tests/server/arena/test_anytime.py``).
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from statistics import fmean

ALPHA = 0.05
"""One minus the confidence: the chance that the true mean is outside the interval at
any board count, however often it is looked at."""

MIN_BOARDS = 20
"""No interval is shown before this many boards: it is valid from the first, but too wide
to say anything (about the whole range of scores) before them."""


# Betting: exact for bounded scores, whatever their shape.
#
# The sequence above leans on a variance estimate and a central limit, which a skewed score
# distribution can fool for a long while (a few rare large losses). For scores known to lie
# in [-bound, bound] there is an exact construction (Waudby-Smith and Ramdas, "Estimating
# means of bounded random variables by betting", JRSS B 2024): a gambler who starts with 1
# and stakes a fraction lambda_i of his wealth on each score being above m, with lambda_i
# fixed before the score is seen, holds after n scores
#
#     K_n(m) = prod (1 + lambda_i (x_i - m)),
#
# which is a nonnegative martingale when the true mean is m (a supermartingale when it is at
# most m); Ville's inequality then makes P(K_n(m) >= 1/alpha at any n) <= alpha, at any
# stopping time and with no approximation. Staking on the scores being below m is the mirror.
# Nonnegativity needs lambda_i * (bound + m) < 1 (resp. (bound - m)): that cap, ``CAP`` of the
# way to ruin, is where the bound enters, and what any test valid for every shape in the
# range must pay.

CAP = 0.95
"""The largest stake, as a fraction of the one that a score at the bound would ruin."""

PRIOR_SD = 15.0
"""The spread the stakes assume before any score is seen (one pseudo-board of it): a
typical per-board sd, so the first stakes are neither reckless nor idle."""


def stakes(scores: Iterable[float], width: float) -> Iterator[float]:
    """The uncapped stake before each score: ``width / var``, with ``var`` the variance of the
    scores before it (with ``PRIOR_SD`` as one pseudo-score). ``width`` is the distance the
    bet is tuned to tell apart: staking width / var per point is the normal likelihood
    ratio's own stake, so that log K_n grows like the normal log-likelihood ratio of m
    against m + width. Lazy, so that a test may stop early."""
    total = squares = 0.0
    for n, x in enumerate(scores):
        spread = squares - (total * total / n if n else 0.0)
        yield width * (n + 1) / (PRIOR_SD * PRIOR_SD + spread)
        total += x
        squares += x * x


def log_wealth(scores: Iterable[float], m: float, up: bool, bound: float, lams: Iterable[float]) -> Iterator[float]:
    """log K_i(m) after each score: staking on the scores being above ``m`` (``up``) or below
    it, with the uncapped stakes ``lams`` (``stakes``) capped for ``bound``. A score beyond
    the bound counts as at the bound. Lazy, as ``stakes``."""
    sign = 1.0 if up else -1.0
    cap = CAP / max(bound + sign * m, 1e-9)
    total = 0.0
    for x, lam in zip(scores, lams):
        x = max(-bound, min(bound, x))
        total += math.log1p(min(lam, cap) * sign * (x - m))
        yield total


def betting_interval(
    scores: Sequence[float], bound: float, width: float, alpha: float = ALPHA
) -> tuple[float, float] | None:
    """The (low, high) interval for the mean of ``scores`` in [-bound, bound]: the means m not
    rejected at level alpha by either one-sided bettor (alpha/2 each) after the last score.
    It covers the true mean with probability 1 - alpha at every board count at once, so
    also at a stopping time chosen from the data (the sequential test's stop). None without
    scores. Found by bisection on each side of the mean (the wealth falls as m moves
    toward the mean); ``width`` tunes the stakes (``stakes``)."""
    if not scores:
        return None
    lams = list(stakes(scores, width))
    threshold = math.log(2 / alpha)
    mean = fmean(max(-bound, min(bound, x)) for x in scores)

    def rejected(m: float, up: bool) -> bool:
        return deque(log_wealth(scores, m, up, bound, lams), maxlen=1)[0] >= threshold

    def edge(outer: float, up: bool) -> float:
        inner = mean
        if not rejected(outer, up):
            return outer
        for _ in range(40):
            mid = (inner + outer) / 2
            inner, outer = (inner, mid) if rejected(mid, up) else (mid, outer)
        return inner

    return round(edge(-bound, True), 4), round(edge(bound, False), 4)
