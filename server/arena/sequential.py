"""A sequential test: is X better than Y, and can we stop playing yet?

A fixed-length match spends as many boards on a lopsided pairing as on a close one. The
sequential test looks at the evidence after every board and stops as soon as it decides,
with error rates fixed in advance, whatever the shape of the scores.

Model. The data are X's per-board duplicate scores (X's net over both rooms), independent
across boards and bounded: in the default ruleset a board pair's score lies in
[-``BOUND``, ``BOUND``]. Two hypotheses on their mean (points per board, ``delta0 < delta1``):

    H0: mean <= delta0        H1: mean >= delta1

Method: two bettors (``server.arena.anytime``, betting for bounded means, Waudby-Smith and
Ramdas 2024). One stakes on the scores being above delta0 and wins, in expectation, only if
H0 is false; the other stakes on them being below delta1. Their wealths K1 and K0 start at 1
and are nonnegative martingales (supermartingales) under the hypothesis each bets against,
so by Ville's inequality K1 ever reaches 1/alpha with probability at most alpha when H0
holds, and K0 reaches 1/beta with probability at most beta when H1 holds: the test accepts
H1 at the first board where log K1 >= log(1/alpha) (``upper``) and H0 where log K0 >=
log(1/beta) (``-lower``). Those are exact bounds for every distribution on the range, at
any board, with no normal approximation and no minimum number of boards.

Why this and not the normal GSPRT it replaces (fishtest's: LLR = n (d1 - d0)(2 mean - d0 -
d1) / (2 var), decided from board 20). That test treats the mean as normal with a known
variance; on a skewed pair (rule vs random's shape, mostly small gains and rare large losses)
twenty boards often show no large loss yet, the variance looks small, and it stopped with
a false H1 12-15% of the time at alpha 5% (``benchmarks/sprt_errors.py`` measures both).
The bettors cannot be fooled so: a stake is capped so that a score at the bound does not
ruin them, so the rare loss the first boards lack would cost the bettor most of what it
had won. The stakes are the normal test's own, (delta1 - delta0) / var (``anytime.stakes``,
var from the earlier boards): while uncapped, log K1 - log K0 grows as the normal LLR does.
The price is the cap, 1/(BOUND + delta0) of wealth per point: where the normal test would
stake more (sd under about 17), the bettor is slower; with scores of sd 12 and a true edge
of 6 it takes about 37 boards on average where the normal test took about 29, and in
return its error rates stay at or under 1-2% on every shape of the benchmark. Other
options weighed: an empirical-likelihood GLR (fishtest's pentanomial, generalised) is
asymptotic like the GSPRT and fooled the same way early on; a data-driven minimum for the
GSPRT patches one shape at a time.

Scores beyond the bound (a luck-corrected score, ``server.arena.stats.corrected``, may pass
it in principle) count as at the bound; the guarantee is exact for scores within it.

``SprtResult.llr`` is log K1 - log K0, the evidence for H1 over H0 in one number (about the
normal LLR), with ``lower``/``upper`` the bounds above; the decision is by the two wealths.

At the stop, the interval to report is ``anytime_low``/``anytime_high``: the betting
confidence sequence (``anytime.betting_interval``), which covers the true mean with
probability 95% at every board count at once, so also at a board count the data chose.
The t-interval (``ci_low``/``ci_high``) is valid only at a count fixed in advance.

Because the walk is over the scores in board order, the result depends only on the
scores, not on how often the caller looks: a caller may re-run it on a longer prefix at
any time and gets the same answer for the boards it had already seen.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import islice, tee

from server.arena import anytime
from server.arena.stats import summarize

BOUND = 56.0
"""The largest |score| of a board pair in american62 (docs/rules/american62.md#scoring): in a
room a failed bid of 14 costs the bidders 14 and gives the defenders up to 14, a net of 28,
and a pair adds two rooms."""


@dataclass(frozen=True)
class Sprt:
    """A test's settings; invalid ones raise ValueError with a message meant for users.
    ``bound`` is the largest |score| possible (``BOUND`` for the default ruleset)."""

    delta0: float = 0.0
    delta1: float = 5.0
    alpha: float = 0.05
    beta: float = 0.05
    max_boards: int = 1000
    bound: float = BOUND

    def __post_init__(self) -> None:
        if self.delta0 >= self.delta1:
            raise ValueError(f"delta0 ({self.delta0:g}) must be less than delta1 ({self.delta1:g})")
        for name in ("alpha", "beta"):
            value = getattr(self, name)
            if not 0 < value < 0.5:
                raise ValueError(f"{name} must be between 0 and 0.5 (exclusive), not {value:g}")
        if self.max_boards < 1:
            raise ValueError(f"max_boards must be 1 or more, not {self.max_boards}")
        if not -self.bound < self.delta0 < self.delta1 < self.bound:
            raise ValueError(f"delta0 and delta1 must lie inside the scores' range (-{self.bound:g}, {self.bound:g})")


@dataclass(frozen=True)
class SprtResult:
    """Where the test stands: ``decision`` is "H1", "H0", "inconclusive" (``max_boards``
    reached without one) or None (undecided, play on). ``boards`` counts the scores used:
    up to the deciding board when decided. ``anytime_low``/``anytime_high``: the anytime-valid
    95% interval for the mean (None without boards); ``ci_low``/``ci_high``: Student's t."""

    decision: str | None
    boards: int
    llr: float
    lower: float
    upper: float
    mean: float
    ci_low: float | None
    ci_high: float | None
    anytime_low: float | None = None
    anytime_high: float | None = None


def bounds(alpha: float, beta: float) -> tuple[float, float]:
    """(lower, upper): H0 once log K0 >= -lower = log(1/beta), H1 once log K1 >= upper = log(1/alpha)."""
    return -math.log(1 / beta), math.log(1 / alpha)


def wealths(scores: Iterable[float], test: Sprt) -> Iterator[tuple[float, float]]:
    """(log K1, log K0) after each score, lazily: the bettor against H0 and the one against H1."""
    for_stakes, for_k1, for_k0 = tee(scores, 3)
    lams1, lams0 = tee(anytime.stakes(for_stakes, test.delta1 - test.delta0))
    return zip(
        anytime.log_wealth(for_k1, test.delta0, True, test.bound, lams1),
        anytime.log_wealth(for_k0, test.delta1, False, test.bound, lams0),
    )


def stop(scores: Iterable[float], test: Sprt) -> tuple[str | None, int, float]:
    """(decision, boards used, log K1 - log K0) of the walk over ``scores``, reading no
    score past the deciding one or ``test.max_boards`` (so a simulation may draw lazily)."""
    lower, upper = bounds(test.alpha, test.beta)
    n, ratio, decision = 0, 0.0, None
    for n, (e1, e0) in enumerate(wealths(islice(scores, test.max_boards), test), 1):  # noqa: B007 (n is read after)
        ratio = e1 - e0
        if e1 >= upper or e0 >= -lower:
            decision = "H1" if e1 >= upper else "H0"
            break
    if decision is None and n == test.max_boards:
        decision = "inconclusive"
    return decision, n, ratio


def run(scores: Sequence[float], test: Sprt) -> SprtResult:
    """The test on ``scores`` in board order (at most ``test.max_boards`` of them),
    stopped at the first board where a bettor's wealth reaches its bound."""
    lower, upper = bounds(test.alpha, test.beta)
    decision, n, ratio = stop(scores, test)
    used = scores[:n]
    stats = summarize(used)
    cs = anytime.betting_interval(used, test.bound, test.delta1 - test.delta0)
    low, high = cs if cs is not None else (None, None)
    return SprtResult(decision, n, ratio, lower, upper, stats.mean, stats.ci_low, stats.ci_high, low, high)
