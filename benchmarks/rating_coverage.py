"""How often a rating's 95% interval covers the bot's true strength, by how the boards were played.

A rating's interval is a claim: 95 times in 100 it holds the bot's true points per board
against the field. Each design below is simulated many times with known strengths (0, +2,
+4, ... less their mean), the records are fitted by ``server.arena.ratings.fit`` exactly as
stored records are, and each bot's interval is checked against the truth. ``model`` is the
interval from the fit's own covariance alone (which takes every board difference as
independent); ``shown`` is the one the arena shows, the larger of that and the
cluster-robust one.

Designs (american62-like scales; the noise of a bot's own score on a board is drawn from the
skewed rule-vs-random shape of ``benchmarks/sprt_errors.py``, centred, and halved):

* ``field k``: one match of k entrants on G boards, each entrant scored on every board
  (snoozer, auction_cinch); every two entrants' differences are rated, k(k-1)/2 a board.
* ``round robin k``: every two of k bots play a two-room match on the same G boards; a bot's
  knack on a board (the skewed part) is the same in each of its matches, plus a match's own
  normal noise (sd 8).
* ``separate boards k``: the same, each match on boards of its own: the differences are
  independent and the model's interval is right.

    python benchmarks/rating_coverage.py [--runs 1000] [--seed 1] [--json]

1000 runs of k bots give k correlated checks each; a coverage near 95% is known to about
+-1 point.
"""

from __future__ import annotations

import argparse
import bisect
import json
import random
import sys
from collections.abc import Callable
from itertools import combinations
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from sprt_errors import SHAPES, SUPPORT, pmf  # noqa: E402 (a sibling script)

from server.arena.ratings import Z95, Evidence, fit, record, solve  # noqa: E402

Design = Callable[[random.Random, list[float], int], list[dict[str, Any]]]

_SHAPE = pmf(SHAPES["rule-vs-random"], 0.0)
_CUM = [sum(_SHAPE[: i + 1]) for i in range(len(_SHAPE))]


def knack(rng: random.Random) -> float:
    """A bot's own skewed luck on a board: mostly a little up, now and then far down."""
    return SUPPORT[min(bisect.bisect(_CUM, rng.random()), len(SUPPORT) - 1)] / 2


def field(rng: random.Random, strengths: list[float], boards: int) -> list[dict[str, Any]]:
    k = len(strengths)
    scores = [[s + knack(rng) for s in strengths] for _ in range(boards)]
    return [
        record(
            f"t1.m1:b{i}~b{j}",
            [1, 0, 1, n],
            f"b{i}",
            f"b{j}",
            f"field|d|{{}}|b{i}|b{j}",
            {b + 1: scores[b][i] - scores[b][j] for b in range(boards)},
            0.0,
            "d|{}",
        )
        for n, (i, j) in enumerate(combinations(range(k), 2), 1)
    ]


def pairs(shared: bool) -> Design:
    def design(rng: random.Random, strengths: list[float], boards: int) -> list[dict[str, Any]]:
        k = len(strengths)
        knacks = [[knack(rng) for _ in range(k)] for _ in range(boards)]
        out = []
        for n, (i, j) in enumerate(combinations(range(k), 2), 1):
            cards = "d|{}" if shared else f"d{n}|{{}}"
            diffs = {
                b + 1: strengths[i] - strengths[j] + knacks[b][i] - knacks[b][j] + rng.gauss(0, 8)
                for b in range(boards)
            }
            if not shared:
                knacks = [[knack(rng) for _ in range(k)] for _ in range(boards)]
            out.append(record(f"t1.m{n}", [1, 0, n], f"b{i}", f"b{j}", f"{cards}|b{i}|b{j}", diffs, 0.0, cards))
        return out

    return design


DESIGNS: dict[str, tuple[Design, int, int]] = {
    # name: (design, bots, boards)
    "field 4": (field, 4, 30),
    "field 5": (field, 5, 30),
    "field 4, 100 boards": (field, 4, 100),
    "round robin 3 (quick start)": (pairs(True), 3, 24),
    "round robin 6": (pairs(True), 6, 40),
    "separate boards 4": (pairs(False), 4, 30),
}


def coverage(name: str, runs: int, seed: int) -> dict[str, Any]:
    design, k, boards = DESIGNS[name]
    rng = random.Random(f"{seed}/{name}")
    truth = [2.0 * i for i in range(k)]
    centre = sum(truth) / k
    hits = {"model": 0, "shown": 0}
    width = {"model": 0.0, "shown": 0.0}
    for _ in range(runs):
        records = design(rng, truth, boards)
        shown = fit(records).ratings
        model = solve(_pairs_of(records))
        for i in range(k):
            target = truth[i] - centre
            estimate, se, _ = model[f"b{i}"]
            hits["model"] += abs(estimate - target) <= Z95 * se
            hits["shown"] += shown[f"b{i}"]["low"] <= target <= shown[f"b{i}"]["high"]
            width["model"] += Z95 * se
            width["shown"] += (shown[f"b{i}"]["high"] - shown[f"b{i}"]["low"]) / 2
    checks = runs * k
    return {
        "design": name,
        "bots": k,
        "boards": boards,
        "model": hits["model"] / checks,
        "shown": hits["shown"] / checks,
        "model_half_width": round(width["model"] / checks, 2),
        "shown_half_width": round(width["shown"] / checks, 2),
    }


def _pairs_of(records: list[dict[str, Any]]) -> Any:
    """The fit's per-pair sums, without the clusters: the model's own standard errors."""
    evidence = Evidence()
    for r in records:
        evidence.add(r)
    return evidence.pairs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=1000, help="runs per design (default 1000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="one JSON object per design")
    args = parser.parse_args()
    if args.runs < 1:
        parser.error("--runs must be 1 or more")
    if not args.json:
        print(f"95% intervals, {args.runs} runs per design; coverage (half-width, points per board)")
        print(f"{'design':<30} {'bots':>4} {'boards':>6} {'model':>15} {'shown':>15}")
    for name in DESIGNS:
        r = coverage(name, args.runs, args.seed)
        if args.json:
            print(json.dumps(r), flush=True)
            continue
        print(
            f"{name:<30} {r['bots']:4d} {r['boards']:6d} {r['model']:6.1%} ({r['model_half_width']:5.2f}) "
            f"{r['shown']:6.1%} ({r['shown_half_width']:5.2f})",
            flush=True,
        )


if __name__ == "__main__":
    main()
