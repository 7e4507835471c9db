"""Error rates of the sequential test on score shapes that are not normal, beside the old test.

For each score shape and true edge (delta0 = 0, delta1 = 5 points per board pair, and 6 on
the search-vs-rule shape for the boards it takes), many seeded runs of the test, each up
to ``MAX_BOARDS`` boards; per row the fraction that accepted H1 while the mean was delta0
(false H1), that accepted H0 while it was delta1 (false H0), that ran out of boards
(inconclusive), and the average boards used. ``new`` is ``server.arena.sequential``; ``old`` is
the normal-approximation GSPRT it replaced (fishtest style, decided from board 20), kept
here only so that the two can be compared.

``least`` is the fewest boards on average that *any* test can take to decide rightly there
(H1 at an edge of delta1 or more, H0 at delta0 or less) while keeping its error rates for
every distribution on the range: Wald's bound, ((1 - beta) log((1 - beta) / alpha) + beta
log(beta / (1 - alpha))) / KL_inf, where KL_inf is the least Kullback-Leibler divergence
from the shape to a distribution on the range with a mean on the other side, computed by
its dual (Honda and Takemura 2010): the growth per board of the best constant bet. A test
faster than that on some shape must break its error rates on another.

A shape is a distribution on the integers in [-BOUND, BOUND] (american62's board-pair range),
built at each edge by moving a mixture's components there and truncating to the range; a
last, tiny exponential tilt makes the mean exact. The skew printed is the one at that edge.

    python benchmarks/sprt_errors.py [--runs 2000] [--seed 1] [--json]

2000 runs give a rate near 5% to about +-1 point (two standard errors).
"""

from __future__ import annotations

import argparse
import json
import math
import random
from collections.abc import Callable, Iterator

from server.arena.sequential import BOUND, Sprt, stop

MAX_BOARDS = 1000
TEST = Sprt(0.0, 5.0, 0.05, 0.05, MAX_BOARDS)
SUPPORT = range(-int(BOUND), int(BOUND) + 1)

Parts = list[tuple[float, float, float]]  # (weight, centre at mean 0, sd) of normal components


def normals(parts: Parts) -> Callable[[float, int], float]:
    return lambda e, x: sum(w * math.exp(-0.5 * ((x - m - e) / s) ** 2) / s for w, m, s in parts)


def mirror(parts: Parts) -> Parts:
    return [(w, -m, s) for w, m, s in parts]


OVER_BIDDER = [(0.85, 3.5, 3.0), (0.15, -20.0, 5.0)]
RULE_VS_RANDOM = [(0.94, 2.5, 6.5), (0.06, -39.0, 9.0)]

SHAPES: dict[str, Callable[[float, int], float]] = {
    "normal sd 15": normals([(1.0, 0.0, 15.0)]),
    "search-vs-rule": normals([(0.85, -1.0, 10.0), (0.15, 5.7, 17.0)]),
    "rule-vs-random": normals(RULE_VS_RANDOM),
    "rule-vs-random mirrored": normals(mirror(RULE_VS_RANDOM)),
    "over-bidder (bimodal)": normals(OVER_BIDDER),
    "t3 scale 8": lambda e, x: (1 + ((x - e) / 8) ** 2 / 3) ** -2,
}
EDGES = {name: (0.0, 5.0) for name in SHAPES} | {"search-vs-rule": (0.0, 5.0, 6.0)}


def pmf(shape: Callable[[float, int], float], edge: float) -> list[float]:
    """The shape at ``edge`` on ``SUPPORT``, tilted to a mean of exactly ``edge``."""
    base = [shape(edge, x) for x in SUPPORT]
    lo, hi = -5.0, 5.0
    for _ in range(100):
        t = (lo + hi) / 2
        w = [p * math.exp(t * x / BOUND) for p, x in zip(base, SUPPORT)]
        lo, hi = (t, hi) if sum(p * x for p, x in zip(w, SUPPORT)) < edge * sum(w) else (lo, t)
    total = sum(w)
    return [p / total for p in w]


def skew(p: list[float]) -> float:
    m = sum(q * x for q, x in zip(p, SUPPORT))
    var = sum(q * (x - m) ** 2 for q, x in zip(p, SUPPORT))
    return sum(q * (x - m) ** 3 for q, x in zip(p, SUPPORT)) / var**1.5


def kl_inf(p: list[float], m: float, above: bool) -> float:
    """The least KL divergence from ``p`` to a distribution on ``SUPPORT`` with a mean of at
    most ``m`` (``above``: ``p``'s mean is above it) or at least ``m``: max over stakes
    0 <= lam < 1/(room to the bound) of E log(1 + lam (x - m)) (or 1 - lam (x - m)), concave
    in lam, found by ternary search."""
    sign = 1.0 if above else -1.0
    lo, hi = 0.0, (1 - 1e-9) / (BOUND + sign * m)

    def growth(lam: float) -> float:
        return sum(q * math.log1p(sign * lam * (x - m)) for q, x in zip(p, SUPPORT))

    for _ in range(100):
        a, b = lo + (hi - lo) / 3, hi - (hi - lo) / 3
        lo, hi = (a, hi) if growth(a) < growth(b) else (lo, b)
    return growth(lo)


def least_boards(p: list[float], edge: float, test: Sprt) -> float | None:
    """Wald's lower bound on the average boards of any test valid on the whole range, for
    the right decision at ``edge`` (None between the hypotheses, where neither is right)."""
    a, b = test.alpha, test.beta
    if edge >= test.delta1:
        need, kl = (1 - b) * math.log((1 - b) / a) + b * math.log(b / (1 - a)), kl_inf(p, test.delta0, True)
    elif edge <= test.delta0:
        need, kl = (1 - a) * math.log((1 - a) / b) + a * math.log(a / (1 - b)), kl_inf(p, test.delta1, False)
    else:
        return None
    return need / kl


def old_stop(scores: Iterator[float], test: Sprt) -> tuple[str | None, int]:
    """The replaced test: normal GSPRT, LLR = n d (2 mean - d0 - d1) / (2 var), Wald's bounds,
    no decision before 20 boards."""
    lower, upper = math.log(test.beta / (1 - test.alpha)), math.log((1 - test.beta) / test.alpha)
    total = squares = 0.0
    n = 0
    for n, x in enumerate(scores, 1):
        total += x
        squares += x * x
        if n < 20:
            continue
        mean = total / n
        var = max((squares - total * mean) / (n - 1), 1.0)
        llr = n * (test.delta1 - test.delta0) * (2 * mean - test.delta0 - test.delta1) / (2 * var)
        if llr >= upper or llr <= lower:
            return ("H1" if llr >= upper else "H0"), n
        if n == test.max_boards:
            break
    return "inconclusive", n


def draws(rng: random.Random, cum: list[float]) -> Iterator[float]:
    while True:
        yield from rng.choices(SUPPORT, cum_weights=cum, k=16)


def row(name: str, edge: float, kind: str, runs: int, seed: int) -> dict[str, object]:
    p = pmf(SHAPES[name], edge)
    cum = [sum(p[: i + 1]) for i in range(len(p))]
    rng = random.Random(f"{seed}/{name}/{edge}")
    counts = {"H1": 0, "H0": 0, "inconclusive": 0}
    boards = 0
    for _ in range(runs):
        if kind == "new":
            decision, n, _ = stop(draws(rng, cum), TEST)
        else:
            decision, n = old_stop(draws(rng, cum), TEST)
        counts[decision or "inconclusive"] += 1
        boards += n
    return {
        "shape": name,
        "skew": round(skew(p), 2),
        "edge": edge,
        "test": kind,
        "false_h1": counts["H1"] / runs if edge <= TEST.delta0 else 0.0,
        "false_h0": counts["H0"] / runs if edge >= TEST.delta1 else 0.0,
        "inconclusive": counts["inconclusive"] / runs,
        "avg_boards": round(boards / runs, 1),
        "least_boards": None if (least := least_boards(p, edge, TEST)) is None else round(least, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=2000, help="runs per shape, edge and test (default 2000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="one JSON object per row")
    args = parser.parse_args()
    if args.runs < 1:
        parser.error("--runs must be 1 or more")
    if not args.json:
        print(f"H0 {TEST.delta0:g} vs H1 {TEST.delta1:g}, alpha = beta = {TEST.alpha:g}, {args.runs} runs per row")
        print(
            f"{'shape':<25} {'skew':>5} {'edge':>4} {'test':<4} {'false H1':>8} {'false H0':>8} {'inconcl':>7} "
            f"{'boards':>6} {'least':>6}"
        )
    for name in SHAPES:
        for edge in EDGES[name]:
            for kind in ("new", "old"):
                r = row(name, edge, kind, args.runs, args.seed)
                if args.json:
                    print(json.dumps(r), flush=True)
                    continue
                print(
                    f"{name:<25} {r['skew']:+5.2f} {edge:4g} {kind:<4} {r['false_h1']:8.1%} {r['false_h0']:8.1%} "
                    f"{r['inconclusive']:7.1%} {r['avg_boards']:6.1f} {r['least_boards'] or 0:6.1f}",
                    flush=True,
                )


if __name__ == "__main__":
    main()
