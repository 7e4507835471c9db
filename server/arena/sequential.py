"""A sequential probability ratio test: is X better than Y, and can we stop playing yet?

A fixed-length match spends as many boards on a lopsided pairing as on a close one. The
SPRT looks at the evidence after every board and stops as soon as it decides, with
error rates fixed in advance.

Model. The data are X's per-board duplicate scores (X's net over both rooms): integers,
independent across boards, roughly symmetric. Two hypotheses on their mean (points per
board, ``delta0 < delta1``):

    H0: mean = delta0        H1: mean = delta1

As fishtest's generalized SPRT does, the scores are taken as normal with the variance
estimated from the boards so far, which makes the log-likelihood ratio after n boards

    LLR = n * (delta1 - delta0) * (2 * mean - delta0 - delta1) / (2 * var)

with ``var`` the sample variance of the scores, floored at ``VAR_FLOOR`` so that a run of
identical early scores cannot make it explode. Wald's bounds give the error rates:
accepting H1 when the mean is delta0 happens at most about ``alpha`` of the time, and
accepting H0 when it is delta1 at most about ``beta``:

    lower = log(beta / (1 - alpha))      upper = log((1 - beta) / alpha)

The LLR is followed board by board and the test stops at the first board where it
leaves (lower, upper): H1 above, H0 below. Nothing is decided before ``MIN_BOARDS``
boards, since a variance from a handful of boards is too unsure to trust: an
underestimate inflates the LLR. In simulation (normal scores, sd 15, delta 0 vs 5,
alpha = beta = 0.05, 3000 runs each) the realized error rates were about 6.9% deciding
from 10 boards, 5.4% from 20 and 4.6% from 30, for 46, 50 and 55 boards on average;
20 keeps the rates near what was asked for at little cost. A test still undecided at
``max_boards`` is inconclusive.

Because the walk is over the scores in board order, the result depends only on the
scores, not on how often the caller looks: a caller may re-run it on a longer prefix at
any time and gets the same answer for the boards it had already seen.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from server.arena.stats import summarize

MIN_BOARDS = 20
"""No decision before this many boards: the variance estimate needs them."""

VAR_FLOOR = 1.0
"""Smallest variance used (points^2). Real per-board scores vary by hundreds of points^2;
the floor matters only when nearly every board so far scored the same."""


@dataclass(frozen=True)
class Sprt:
    """A test's settings; invalid ones raise ValueError with a message meant for users."""

    delta0: float = 0.0
    delta1: float = 5.0
    alpha: float = 0.05
    beta: float = 0.05
    max_boards: int = 1000

    def __post_init__(self) -> None:
        if self.delta0 >= self.delta1:
            raise ValueError(f"delta0 ({self.delta0:g}) must be less than delta1 ({self.delta1:g})")
        for name in ("alpha", "beta"):
            value = getattr(self, name)
            if not 0 < value < 0.5:
                raise ValueError(f"{name} must be between 0 and 0.5 (exclusive), not {value:g}")
        if self.max_boards < 1:
            raise ValueError(f"max_boards must be 1 or more, not {self.max_boards}")


@dataclass(frozen=True)
class SprtResult:
    """Where the test stands: ``decision`` is "H1", "H0", "inconclusive" (``max_boards``
    reached without one) or None (undecided, play on). ``boards`` counts the scores used:
    up to the deciding board when decided. ``llr`` is 0 before ``MIN_BOARDS`` boards."""

    decision: str | None
    boards: int
    llr: float
    lower: float
    upper: float
    mean: float
    ci_low: float | None
    ci_high: float | None


def bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Wald's (lower, upper) LLR bounds for error rates alpha (false H1) and beta (false H0)."""
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def llr(n: int, mean: float, var: float, delta0: float, delta1: float) -> float:
    """The normal-approximation log-likelihood ratio of H1 over H0 after ``n`` boards."""
    return n * (delta1 - delta0) * (2 * mean - delta0 - delta1) / (2 * max(var, VAR_FLOOR))


def run(scores: Sequence[float], test: Sprt) -> SprtResult:
    """The test on ``scores`` in board order (at most ``test.max_boards`` of them),
    stopped at the first board where the LLR leaves the bounds."""
    lower, upper = bounds(test.alpha, test.beta)
    total = squares = 0.0
    ratio = 0.0
    n = 0
    decision = None
    for n, score in enumerate(scores[: test.max_boards], 1):
        total += score
        squares += score * score
        if n < MIN_BOARDS:
            continue
        mean = total / n
        ratio = llr(n, mean, (squares - total * mean) / (n - 1), test.delta0, test.delta1)
        if ratio >= upper or ratio <= lower:
            decision = "H1" if ratio >= upper else "H0"
            break
    if decision is None and n == test.max_boards:
        decision = "inconclusive"
    stats = summarize(scores[:n])
    return SprtResult(decision, n, ratio, lower, upper, stats.mean, stats.ci_low, stats.ci_high)
