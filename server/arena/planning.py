"""How many boards will it take? Sample sizes for telling X from Y at a given edge.

From a pilot (a few dozen stored or freshly played board pairs) we know the spread of
X's per-board scores, raw and luck-corrected; for an edge ``delta`` points per board:

* **fixed length** (the classic two-sided z-test at level alpha with power 1 - beta):
  n = ((z_{1-alpha/2} + z_{1-beta}) * sd / delta)^2, once with the raw spread and once
  with the luck-corrected one (score - weight x luck, the weight being the pilot's
  slope of score on luck, which ``server.arena.stats.corrected`` approaches over a long
  match): the corrected mean has the same expectation, so only the spread changes;
* **sequential** (``server.arena.sequential``, H0: 0 against H1: delta, on corrected scores):
  Wald's approximation of the average sample number when the edge really is delta:
  E[N] = ((1 - beta) log((1 - beta)/alpha) + beta log(beta/(1 - alpha))) / (delta^2 / (2 sd^2)),
  the expected log-likelihood ratio needed over its expected gain per board, and never
  fewer than the test's ``MIN_BOARDS``. It ignores the overshoot of the last board, so it
  is a little low; ``tests/server/arena/test_planning.py`` checks it against simulation.

The pilot's spread is itself an estimate: with 30 boards it is known to about +-13%,
so the sample sizes, which go with its square, to about +-25%.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from statistics import NormalDist, stdev
from typing import Any

from server.arena.sequential import MIN_BOARDS, bounds
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

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def fixed_boards(delta: float, sd: float, alpha: float, beta: float) -> int | None:
    """Boards for a fixed-length two-sided test at level alpha with power 1 - beta."""
    if delta == 0:
        return None
    z = _Z.inv_cdf(1 - alpha / 2) + _Z.inv_cdf(1 - beta)
    return max(2, math.ceil((z * sd / delta) ** 2))


def sequential_boards(delta: float, sd: float, alpha: float, beta: float) -> int | None:
    """Wald's average sample number of the SPRT of 0 against ``delta`` when the mean is ``delta``."""
    if delta == 0:
        return None
    lower, upper = bounds(alpha, beta)
    needed = (1 - beta) * upper + beta * lower
    gain = delta * delta / (2 * max(sd, 1e-9) ** 2)
    return max(MIN_BOARDS, math.ceil(needed / gain))


def plan(
    raw: Sequence[float], lucks: Sequence[float], delta: float | None = None, alpha: float = 0.05, beta: float = 0.05
) -> Plan:
    """The plan from a pilot's per-board scores and lucks. A long match corrects with a
    weight close to the whole pilot's slope (``luck_weight``), so the corrected spread is
    that of score - slope x luck over the pilot; ``delta`` defaults to the mean of those
    (the pilot's edge, with less noise than the raw mean)."""
    if len(raw) < 2 or len(lucks) != len(raw):
        raise ValueError("a plan needs a pilot of at least two board pairs")
    weight = luck_weight(raw, lucks)
    corrected = [s - weight * k for s, k in zip(raw, lucks)]
    edge = abs(delta if delta is not None else sum(corrected) / len(corrected))
    sd_raw, sd_corrected = stdev(raw), stdev(corrected)
    return Plan(
        len(raw),
        round(edge, 3),
        round(sd_raw, 3),
        round(sd_corrected, 3),
        fixed_boards(edge, sd_raw, alpha, beta),
        fixed_boards(edge, sd_corrected, alpha, beta),
        sequential_boards(edge, sd_corrected, alpha, beta),
    )
