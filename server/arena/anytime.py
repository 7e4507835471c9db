"""An anytime-valid interval for a running match's mean: a confidence sequence.

A match's 95% interval (``server.arena.stats.summarize``, Student's t) is valid at one board
count chosen in advance. Live progress is looked at after every board, and a user who
stops a match by hand the first time that interval leaves zero is wrong far more often
than 5% of the time (about half the time over 400 boards, in simulation).
A confidence sequence is a sequence of intervals that contains the true mean at every
board count at once, with probability 1 - alpha, so it may be looked at as often as one
likes and the match stopped whenever it excludes zero.

The one here is the asymptotic confidence sequence of Waudby-Smith, Arbour, Sinha,
Kennedy and Ramdas, "Time-uniform central limit theory and asymptotic confidence
sequences" (2024), Theorem 2.2: after n scores with mean m and
standard deviation s,

    m +- s * sqrt(2 (n rho^2 + 1) / (n^2 rho^2) * log(sqrt(n rho^2 + 1) / alpha))

(Robbins' two-sided normal mixture boundary on the standardized sum). Written with
the variance inside, as sqrt((n rho'^2 s^2 + 1) / (n^2 rho'^2) * log((n rho'^2 s^2 + 1)
/ alpha^2)), it is the same boundary with rho' = rho / s: taking rho on the standardized
scale tunes it without a guess of the scores' spread. ``rho`` only decides where the
sequence is tightest: ``rho_squared`` puts that at ``TUNED_BOARDS`` (the paper's
closed form), where it is about 1.5 times as wide as the t-interval.

The PyPI package ``confseq`` has this boundary but builds from source only (C++ with
Boost, which fails here), so these few lines are written out.

The guarantee is asymptotic (the variance is estimated), so the first boards, where the
estimate is unsure and a run of equal scores makes it zero, get no interval: from
``MIN_BOARDS`` on, in simulation (1000 matches of 400 boards each, two seeds) it missed
the true mean at some board count in about 4% of matches of normal scores (sd 15) and
4-6% of matches of a skewed score distribution with many ties
(``tests/server/arena/test_anytime.py``); from the second board on it missed in 12-18%.

The mean and standard deviation do not depend on the order of the scores, so the
interval over the boards stored so far is the sequence's interval at that board count
for the boards in the order they were finished, whatever order the jobs store them in.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from statistics import fmean, stdev

ALPHA = 0.05
"""One minus the confidence: the chance that the true mean is outside the interval at
any board count, however often it is looked at."""

TUNED_BOARDS = 150
"""The board count at which the sequence is tightest (a long match's length)."""

MIN_BOARDS = 20
"""No interval before this many boards: the variance estimate needs them (as the
sequential test's, ``server.arena.sequential.MIN_BOARDS``)."""


def rho_squared(boards: int, alpha: float = ALPHA) -> float:
    """The mixture's rho^2 that makes the boundary about the tightest at ``boards``:
    (-2 log alpha + log(-2 log alpha + 1)) / boards, as the paper gives it."""
    two_log = -2 * math.log(alpha)
    return (two_log + math.log(two_log + 1)) / boards


def half_width(n: int, sd: float, alpha: float = ALPHA, tuned_for: int = TUNED_BOARDS) -> float:
    """The sequence's half-width after ``n`` scores of standard deviation ``sd``."""
    r2 = rho_squared(tuned_for, alpha)
    return sd * math.sqrt(2 * (n * r2 + 1) / (n * n * r2) * math.log(math.sqrt(n * r2 + 1) / alpha))


def confidence_sequence(
    scores: Sequence[float], alpha: float = ALPHA, tuned_for: int = TUNED_BOARDS, min_boards: int = MIN_BOARDS
) -> tuple[float, float] | None:
    """The (low, high) interval for the mean of ``scores`` (plain numbers, e.g. X's
    per-board scores so far), valid together with those at every other count; ``None``
    under ``min_boards`` scores. Raises ValueError for an alpha outside (0, 1) or a
    ``tuned_for`` or ``min_boards`` under 2 (a sample variance needs two scores)."""
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be between 0 and 1, not {alpha}")
    if tuned_for < 2 or min_boards < 2:
        raise ValueError("tuned_for and min_boards must be 2 or more")
    n = len(scores)
    if n < min_boards:
        return None
    mean = fmean(scores)
    half = half_width(n, stdev(scores, mean), alpha, tuned_for)
    return round(mean - half, 4), round(mean + half, 4)
