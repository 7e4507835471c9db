"""Statistics of duplicate results: how sure are we that X is better than Y?

A match's unit is the board pair: X's score on a board is its net over both rooms, so
the luck of the deal has already cancelled and the per-board scores are independent
samples. From them: the mean with a 95% interval (Student's t), board pairs won, tied
and lost, and the likelihood of superiority (LOS) from wins and losses, as
engine-testing tools report it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from statistics import NormalDist, fmean, stdev
from typing import Any

# Two-sided 95% Student t critical values by degrees of freedom; above 30 the normal
# value is within 2% and is used.
_T95 = (
    12.706,
    4.303,
    3.182,
    2.776,
    2.571,
    2.447,
    2.365,
    2.306,
    2.262,
    2.228,
    2.201,
    2.179,
    2.160,
    2.145,
    2.131,
    2.120,
    2.110,
    2.101,
    2.093,
    2.086,
    2.080,
    2.074,
    2.069,
    2.064,
    2.060,
    2.056,
    2.052,
    2.048,
    2.045,
    2.042,
)
_Z95 = NormalDist().inv_cdf(0.975)


def t95(df: int) -> float:
    """Student's t quantile at 0.975: the table to 30 degrees of freedom, past it the first
    terms of its expansion in 1/df (Abramowitz and Stegun 26.7.5), exact to 1e-4 there."""
    if df <= len(_T95):
        return _T95[df - 1]
    z = _Z95
    return z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df * df)


@dataclass(frozen=True)
class MatchStats:
    """Summary of X's per-board scores against Y (positive: X did better)."""

    boards: int
    total: float  # an int when every score is one
    mean: float
    ci_low: float | None  # None with fewer than two boards
    ci_high: float | None
    won: int
    tied: int
    lost: int
    los: float  # probability that X is the stronger, from won/lost board pairs

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @property
    def significant(self) -> bool:
        """Whether the 95% interval excludes zero."""
        low, high = self.ci_low, self.ci_high
        return low is not None and high is not None and (low > 0 or high < 0)

    def outcome(self) -> int:
        """+1 if X is proven better, -1 if worse, 0 if the interval straddles zero."""
        if not self.significant:
            return 0
        return 1 if self.mean > 0 else -1


def los(won: int, lost: int) -> float:
    """Likelihood of superiority: Phi((W - L) / sqrt(W + L)); 0.5 without decisive pairs."""
    if won + lost == 0:
        return 0.5
    return 0.5 * (1 + math.erf((won - lost) / math.sqrt(2 * (won + lost))))


def summarize(scores: Sequence[float]) -> MatchStats:
    """Statistics of per-board scores; with fewer than two boards there is no interval."""
    n = len(scores)
    won = sum(1 for s in scores if s > 0)
    lost = sum(1 for s in scores if s < 0)
    total = sum(scores)
    total = total if isinstance(total, int) else round(total, 4)
    mean = fmean(scores) if n else 0.0
    low: float | None
    high: float | None
    if n >= 2:
        half = t95(n - 1) * stdev(scores) / math.sqrt(n)
        low, high = round(mean - half, 4), round(mean + half, 4)
    else:
        low = high = None
    return MatchStats(n, total, round(mean, 4), low, high, won, n - won - lost, lost, round(los(won, lost), 4))


def mirrored(stats: MatchStats) -> MatchStats:
    """The same match seen from Y's side."""
    low = None if stats.ci_high is None else -stats.ci_high
    high = None if stats.ci_low is None else -stats.ci_low
    return MatchStats(
        stats.boards, -stats.total, -stats.mean, low, high, stats.lost, stats.tied, stats.won, round(1 - stats.los, 4)
    )


def boards_to_separate(mean: float, sd: float, z: float = 1.96) -> int | None:
    """Boards needed for a 95% interval to exclude zero, by the normal approximation:
    ceil((z * sd / mean)^2), the n at which ``mean`` is ``z`` standard errors from
    zero. It takes the observed mean and sd as the truth, so a fresh run of that many
    boards separates the two about half the time (more boards, more often: four times
    as many put the expected mean two half-widths out). ``None`` when ``mean`` is zero
    (no number of boards separates them)."""
    if mean == 0:
        return None
    return math.ceil((z * sd / mean) ** 2)


def separation_point(scores: Sequence[int]) -> int | None:
    """The first board count n at which the running 95% interval (``summarize`` of the
    first n scores) excludes zero and goes on excluding it up to the last score;
    ``None`` if the interval over all of them does not exclude zero.

    Walks back from the end with running sums; a count whose interval ends within
    0.001 of zero is decided by ``summarize`` itself, so the answer is ``summarize``'s."""
    total = sum(scores)
    squares = sum(s * s for s in scores)
    n = len(scores)
    while n >= 2:
        mean = total / n
        half = t95(n - 1) * math.sqrt(max(0.0, (squares - total * mean) / (n - 1)) / n)
        margin = abs(mean) - half
        clear = summarize(scores[:n]).significant if abs(margin) < 1e-3 else margin > 0
        if not clear:
            break
        last = scores[n - 1]
        total -= last
        squares -= last * last
        n -= 1
    return None if n == len(scores) else n + 1


BETA_FROM = 10
"""Boards of a match that must come before the first luck correction: the correction's
weight is fitted on them (``corrected``)."""


def corrected(scores: Sequence[float], lucks: Sequence[float]) -> list[float]:
    """X's luck-corrected scores, in the order given (board order): ``score - beta * luck``.

    ``luck`` (``workers.luck``) has mean zero on every board whatever the bots do, so any
    weight ``beta`` fixed before the board is seen keeps the corrected score unbiased;
    the best weight is the regression slope of score on luck, which is about 1 between
    two sound bots (the luck is what the draw did to them) and near 0 when a bot plays
    so badly that the draw hardly matters (random). So each board's weight is the slope
    fitted on the boards before it (``luck_weight``): it depends only on earlier boards,
    which are independent of this one's draw, so the mean stays exactly unbiased. The
    first ``BETA_FROM`` boards are left uncorrected (weight 0), as a slope from fewer is
    mostly noise."""
    out: list[float] = []
    sums = [0.0] * 5  # n, sum of scores, of lucks, of score x luck, of luck^2
    for score, luck in zip(scores, lucks):
        out.append(score - (_slope(*sums) if sums[0] >= BETA_FROM else 0.0) * luck)
        for i, term in enumerate((1.0, score, luck, score * luck, luck * luck)):
            sums[i] += term
    return out


def luck_weight(scores: Sequence[float], lucks: Sequence[float]) -> float:
    """The least-squares slope of score on luck over a whole sample, clipped to [0, 1]:
    the weight that takes the most variance out (what ``corrected``'s weight tends to)."""
    return _slope(
        len(scores), sum(scores), sum(lucks), sum(s * k for s, k in zip(scores, lucks)), sum(k * k for k in lucks)
    )


def _slope(n: float, sum_s: float, sum_l: float, sum_sl: float, sum_ll: float) -> float:
    """Slope of score on luck from running sums, clipped to [0, 1]; 0 without spread."""
    if n < 2:
        return 0.0
    var = sum_ll - sum_l * sum_l / n
    if var <= 1e-12:
        return 0.0
    return min(1.0, max(0.0, (sum_sl - sum_s * sum_l / n) / var))


def corrected_summary(scores: Sequence[float], lucks: Sequence[float]) -> dict[str, Any]:
    """The luck-corrected mean of a match (``corrected``) with its 95% interval, as every
    place that shows it shows it, beside the raw ``summarize``."""
    stats = summarize(corrected(scores, lucks))
    return {"boards": stats.boards, "mean": stats.mean, "ci_low": stats.ci_low, "ci_high": stats.ci_high}
