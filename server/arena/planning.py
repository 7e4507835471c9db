"""How many boards will it take? Sample sizes for telling X from Y at a given edge.

From a pilot (a few dozen stored or freshly played board pairs) we know the spread of
X's per-board scores, raw and luck-corrected; for an edge ``delta`` points per board:

* **fixed length** (the classic two-sided z-test at level alpha with power 1 - beta):
  n = ((z_{1-alpha/2} + z_{1-beta}) * sd / delta)^2, once with the raw spread and once
  with the luck-corrected one (score - weight x luck, the weight being the pilot's
  slope of score on luck, which ``server.arena.stats.corrected`` approaches over a long
  match): the corrected mean has the same expectation, so only the spread changes;
* **sequential**: the test ``--sprt`` runs (``server.arena.sequential``, the same delta0 and
  delta1, on corrected scores) when the edge is delta and the scores have the pilot's shape
  (the pilot's corrected scores moved to mean delta). Each bettor's wealth grows by
  g = E log(1 + stake (x - m)) a board, estimated as the mean over those pilot scores with
  the stake the test would use at the pilot's spread; the bettor that wins needs about
  log(1/alpha) / g boards (Wald's argument: the log-wealth needed over its gain per board,
  ignoring the last board's overshoot, so a little low).

The pilot is itself an estimate: g is a mean over the pilot, so its standard error gives
the range ``sequential_low``-``sequential_high`` (g plus or minus two standard errors); the
spread, for the fixed-length counts, is known to about +-13% from 30 boards, so those
counts, which go with its square, to about +-25%.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from statistics import NormalDist, fmean, stdev
from typing import Any

from server.arena import anytime
from server.arena.sequential import Sprt
from server.arena.stats import luck_weight

_Z = NormalDist()


@dataclass(frozen=True)
class Plan:
    """Boards needed for each way of testing; None where the edge is zero."""

    pilot: int
    delta: float
    sd_raw: float
    sd_corrected: float
    fixed_raw: int | None
    fixed_corrected: int | None
    sequential: int | None
    sequential_low: int | None
    sequential_high: int | None
    delta0: float
    delta1: float

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def fixed_boards(delta: float, sd: float, alpha: float, beta: float) -> int | None:
    """Boards for a fixed-length two-sided test at level alpha with power 1 - beta."""
    if delta == 0:
        return None
    z = _Z.inv_cdf(1 - alpha / 2) + _Z.inv_cdf(1 - beta)
    return max(2, math.ceil((z * sd / delta) ** 2))


def sequential_boards(scores: Sequence[float], test: Sprt) -> tuple[int | None, int | None, int | None]:
    """The boards the test takes on scores like ``scores`` (their shape and mean): (estimate,
    low, high), the range from g +- 2 standard errors; None where no bettor gains (an edge
    halfway between the hypotheses, or too little pilot), high None when its range reaches 0."""
    sd = stdev(scores)
    stake = (test.delta1 - test.delta0) / max(sd * sd, 1.0)
    best: tuple[int | None, int | None, int | None] = (None, None, None)
    for m, sign, need in ((test.delta0, 1.0, -math.log(test.alpha)), (test.delta1, -1.0, -math.log(test.beta))):
        lam = min(stake, anytime.CAP / (test.bound + sign * m))
        steps = [math.log1p(lam * sign * (max(-test.bound, min(test.bound, x)) - m)) for x in scores]
        g, se = fmean(steps), stdev(steps) / math.sqrt(len(steps))
        if g <= 0 or (best[0] is not None and math.ceil(need / g) >= best[0]):
            continue
        best = (
            math.ceil(need / g),
            math.ceil(need / (g + 2 * se)),
            math.ceil(need / (g - 2 * se)) if g > 2 * se else None,
        )
    return best


def plan(
    raw: Sequence[float],
    lucks: Sequence[float],
    delta: float | None = None,
    alpha: float = 0.05,
    beta: float = 0.05,
    test: Sprt | None = None,
) -> Plan:
    """The plan from a pilot's per-board scores and lucks. A long match corrects with a
    weight close to the whole pilot's slope (``luck_weight``), so the corrected spread is
    that of score - slope x luck over the pilot; ``delta`` defaults to the mean of those
    (the pilot's edge, with less noise than the raw mean). ``test`` is the sequential test
    planned for (default: the default test at ``alpha`` and ``beta``)."""
    if len(raw) < 2 or len(lucks) != len(raw):
        raise ValueError("a plan needs a pilot of at least two board pairs")
    weight = luck_weight(raw, lucks)
    corrected = [s - weight * k for s, k in zip(raw, lucks)]
    edge = abs(delta if delta is not None else sum(corrected) / len(corrected))
    sd_raw, sd_corrected = stdev(raw), stdev(corrected)
    test = test or Sprt(alpha=alpha, beta=beta)
    mean = fmean(corrected)
    shift = (delta - mean) if delta is not None else 0.0
    seq = sequential_boards([x + shift for x in corrected], test)
    return Plan(
        len(raw),
        round(edge, 3),
        round(sd_raw, 3),
        round(sd_corrected, 3),
        fixed_boards(edge, sd_raw, alpha, beta),
        fixed_boards(edge, sd_corrected, alpha, beta),
        *seq,
        test.delta0,
        test.delta1,
    )
