"""How many boards each way of scoring needs to tell two bots apart at 95%.

    python benchmarks/luck.py [--pairs rule:random,search:rule] [--first 601] [--boards N]
                              [--ruleset american62] [--workers N] [--orders 200] [--json]

For each pair X:Y and each board n of the ``standard`` deal set from ``--first`` on, X's
score per board pair is taken four ways:

  (a) independent  two hands on two other deals (boards 2n-1 and 2n of ``independent``),
                   X's side the same in both, N/S for odd n and E/W for even n: no
                   duplicate at all. The dealer rotates with the board number, so X's
                   side deals exactly one of the two hands (it dealt both when X sat
                   N/S in the first and E/W in the second);
  (b) duplicate    the two-room match on board n (``play_board_pair``);
  (c) corrected    (b) less X's luck on the draw (``workers.luck``, weighted as the
                   arena weights it: ``server.arena.stats.corrected``, in board order);
  (d) sequential   the SPRT (``server.arena.sequential``, its default hypotheses 0 vs +5
                   points per board) on the corrected scores: the boards it used,
                   averaged over ``--orders`` random orders of the boards.

Per pair and way it prints the mean, the standard deviation per board pair and the
boards needed by formula, ceil((1.96 sd / mean)^2) (``server.arena.stats.boards_to_separate``),
and for (d) the mean boards used and how often it decided for H1; last, what measuring
the luck cost per room. The ratio column
divides each way's formula boards (unrounded) by (a)'s.

Every bot is made afresh for each board, seeded by the board and its role, so the
scores are the same on every run whatever ``--workers`` is. The search bot plays four
rooms a board: its default is 200 boards; the other pairs play 400.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from random import Random
from statistics import fmean, stdev
from typing import Any

from server.arena.duplicate import net, play_board_pair, play_sides
from server.arena.sequential import Sprt, run
from server.arena.stats import boards_to_separate, corrected
from server.engine import generate_board, make_ruleset
from workers.bots import make_bot
from workers.luck import lucky_pair, with_luck

SLOW_BOTS = {"search"}
DEFAULT_BOARDS, DEFAULT_SLOW_BOARDS = 400, 200


def independent_hands(n: int) -> list[tuple[int, str]]:
    """(board of ``independent``, X's side) of the baseline's two hands for board ``n``: the
    same side in both, alternating with n, so X's side deals one of them (the dealer
    rotates with the board number) and sits N/S and E/W equally often."""
    side = "NS" if n % 2 else "EW"
    return [(2 * n - 1, side), (2 * n, side)]


def board(args: tuple[str, str, str, int]) -> dict[str, float]:
    """X's scores and lucks on board ``n``: duplicate, and a pair of independent hands."""
    ruleset, x, y, n = args
    rules = make_ruleset(ruleset)

    def bot(name: str, role: str):
        return make_bot(name, f"luck-bench/{n}/{role}")

    deal = generate_board("standard", n)
    played = play_board_pair(rules, deal, n, bot(x, "x"), bot(y, "y"))
    start = time.perf_counter()
    pair = lucky_pair(rules, deal, played)
    luck_ms = (time.perf_counter() - start) * 1000 / 2
    hands = []
    for k, side in independent_hands(n):
        other = generate_board("independent", k)
        ns, ew = (bot(x, f"ix{k}"), bot(y, f"iy{k}")) if side == "NS" else (bot(y, f"iy{k}"), bot(x, f"ix{k}"))
        room = with_luck(rules, other, play_sides(rules, other, ns, ew))
        hands.append((int(net(room["result"]["delta"], side)), room["luck"] if side == "NS" else -room["luck"]))
    return {
        "board": n,
        "duplicate": pair["score"],
        "luck": pair["luck"],
        "luck_ms": luck_ms,
        "independent": sum(s for s, _ in hands),
        "independent_luck": sum(lk for _, lk in hands),
    }


def sequential(scores: list[float], orders: int, seed: int = 1) -> tuple[float, float]:
    """Mean boards the SPRT used over ``orders`` random orders of ``scores``, and the
    share of them that accepted H1."""
    rng = Random(seed)
    test = Sprt(max_boards=len(scores))
    used, h1 = [], 0
    for _ in range(orders):
        shuffled = scores[:]
        rng.shuffle(shuffled)
        result = run(shuffled, test)
        used.append(result.boards)
        h1 += result.decision == "H1"
    return fmean(used), h1 / orders


def summary(name: str, scores: list[float]) -> dict[str, Any]:
    """A way's figures; ``need`` is the unrounded (1.96 sd / mean)^2 that the ratios divide."""
    mean, sd = fmean(scores), stdev(scores)
    return {
        "way": name,
        "mean": round(mean, 3),
        "sd": round(sd, 3),
        "boards": boards_to_separate(mean, sd),
        "need": (1.96 * sd / mean) ** 2 if mean else None,
    }


def measure(
    pool: ProcessPoolExecutor, ruleset: str, x: str, y: str, first: int, boards: int, orders: int
) -> dict[str, Any]:
    rows = sorted(
        pool.map(board, [(ruleset, x, y, n) for n in range(first, first + boards)], chunksize=4),
        key=lambda r: r["board"],
    )
    duplicate = [r["duplicate"] for r in rows]
    fixed = corrected(duplicate, [r["luck"] for r in rows])
    ways = [
        summary("(a) independent", [r["independent"] for r in rows]),
        summary("(b) duplicate", duplicate),
        summary("(c) duplicate, luck-corrected", fixed),
    ]
    used, h1 = sequential(fixed, orders)
    return {
        "pair": f"{x}:{y}",
        "ruleset": ruleset,
        "boards": boards,
        "ways": ways,
        "sequential": {"mean_boards": round(used, 1), "h1_share": round(h1, 3)},
        "luck_ms_per_room": round(fmean(r["luck_ms"] for r in rows), 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", default="rule:random,search:rule")
    parser.add_argument("--first", type=int, default=601)
    parser.add_argument("--boards", type=int, help="boards per pair (default 400, 200 with the search bot)")
    parser.add_argument("--ruleset", default="american62")
    parser.add_argument("--workers", type=int, default=os.cpu_count())
    parser.add_argument("--orders", type=int, default=200)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    out = []
    with ProcessPoolExecutor(args.workers) as pool:
        for pair in args.pairs.split(","):
            x, y = pair.split(":")
            slow = bool({x, y} & SLOW_BOTS)
            n = args.boards or (DEFAULT_SLOW_BOARDS if slow else DEFAULT_BOARDS)
            result = measure(pool, args.ruleset, x, y, args.first, n, args.orders)
            out.append(result)
            if not args.json:
                base = result["ways"][0]["need"]
                print(f"\n{x} vs {y}, {args.ruleset}, boards {args.first}-{args.first + n - 1}")
                print(f"  {'way':32} {'mean':>8} {'sd/pair':>8} {'boards':>7} {'vs (a)':>7}")
                for way in result["ways"]:
                    ratio = f"{way['need'] / base:.2f}" if base and way["need"] else "-"
                    print(f"  {way['way']:32} {way['mean']:+8.2f} {way['sd']:8.2f} {way['boards']!s:>7} {ratio:>7}")
                seq = result["sequential"]
                print(
                    f"  {'(d) SPRT on (c), 0 vs +5':32} {'':8} {'':8} {seq['mean_boards']:7} "
                    f"{'':7}  (H1 in {100 * seq['h1_share']:.0f}% of {args.orders} orders)"
                )
                print(f"  measuring the luck: {result['luck_ms_per_room']} ms a room")
                sys.stdout.flush()
    if args.json:
        print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
