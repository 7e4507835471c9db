"""The live anytime interval's coverage on the game's score shapes, new against old.

    python benchmarks/anytime_coverage.py [--runs 1000] [--boards 400] [--seed 1]

For each shape of ``benchmarks/sprt_errors.py``'s battery at a true mean of 0, simulates
``--runs`` matches of ``--boards`` boards and counts the matches in which the interval
leaves out the true mean at some board count from ``anytime.MIN_BOARDS`` on (what a user
watching every board would act on): for the betting interval live matches show
(``server.arena.anytime``, Cinch's bound 56, stakes tuned to ``live.STAKE_WIDTH`` of it)
and for the asymptotic normal-mixture sequence it replaced (Waudby-Smith et al. 2024,
Theorem 2.2, tuned to 150 boards; written out here, as the old test is in
``sprt_errors.py``). Also prints the betting interval's half-width over the normal
mixture's at 50, 150 and 400 boards (the mean over the first 40 runs). Both at 95%.
"""

from __future__ import annotations

import argparse
import bisect
import math
import random
import sys
from pathlib import Path
from statistics import stdev

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from sprt_errors import SHAPES, SUPPORT, pmf  # noqa: E402

from server.arena.anytime import ALPHA, MIN_BOARDS, betting_interval, log_wealth, stakes  # noqa: E402
from server.arena.live import STAKE_WIDTH  # noqa: E402

BOUND = 56.0


def mixture_half_width(n: int, sd: float, tuned_for: int = 150) -> float:
    """The old interval's half-width: Robbins' normal mixture on the standardized sum."""
    two_log = -2 * math.log(ALPHA)
    r2 = (two_log + math.log(two_log + 1)) / tuned_for
    return sd * math.sqrt(2 * (n * r2 + 1) / (n * n * r2) * math.log(math.sqrt(n * r2 + 1) / ALPHA))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=1000)
    parser.add_argument("--boards", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    width, threshold = STAKE_WIDTH * BOUND, math.log(2 / ALPHA)
    print(f"{args.runs} matches of {args.boards} boards per shape, true mean 0; share missing it at some count")
    print(f"{'shape':28s} {'betting':>8s} {'mixture':>8s}   betting width / mixture width at 50, 150, 400")
    for name, shape in SHAPES.items():
        p = pmf(shape, 0.0)
        cum, total = [], 0.0
        for q in p:
            total += q
            cum.append(total)
        mean = sum(q * x for q, x in zip(p, SUPPORT))
        rng = random.Random(args.seed)
        bet = mix = 0
        ratios: dict[int, list[float]] = {50: [], 150: [], 400: []}
        for run in range(args.runs):
            xs = [SUPPORT[min(bisect.bisect(cum, rng.random()), len(SUPPORT) - 1)] for _ in range(args.boards)]
            lams = list(stakes(xs, width))
            wealths = (log_wealth(xs, mean, up, BOUND, lams) for up in (True, False))
            bet += any(w >= threshold for side in wealths for n, w in enumerate(side, 1) if n >= MIN_BOARDS)
            s = ss = 0.0
            missed = False
            for n, x in enumerate(xs, 1):
                s, ss = s + x, ss + x * x
                if n >= MIN_BOARDS and not missed:
                    sd = math.sqrt(max(0.0, (ss - s * s / n) / (n - 1)))
                    missed = abs(s / n - mean) > mixture_half_width(n, sd)
            mix += missed
            if run < 40:
                for n in ratios:
                    if n <= args.boards:
                        low, high = betting_interval(xs[:n], BOUND, width) or (0.0, 0.0)
                        ratios[n].append((high - low) / 2 / mixture_half_width(n, stdev(xs[:n])))
        shown = " ".join(f"{sum(v) / len(v):.2f}" for v in ratios.values() if v)
        print(f"{name:28s} {bet / args.runs:8.3f} {mix / args.runs:8.3f}   {shown}")


if __name__ == "__main__":
    main()
