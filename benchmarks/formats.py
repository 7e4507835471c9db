"""Tournament formats: how many boards each needs to tell two bots apart at 95%.

    python benchmarks/formats.py [--boards N] [--seed 1] [--pairs rule:random,search:rule]
                                 [--reference rule] [--ruleset american62] [--workers N] [--json]

For each pair X:Y, boards 1..N of the deal set ``formats/<seed>`` are played in three
formats, and X's score on each board is recorded (``server.arena.duplicate``):

  two-room     the duplicate match: X and Y play the board twice, seats swapped; the
               score is X's net over both rooms (``play_board_pair``).
  blind        the blind movement: X (entrant 0) and Y (entrant 1) each play the board
               once against the reference bot, at ``entrant_side`` for entrants 0
               and 1 (at the dealing side on every other board), each scored against the par room (the reference
               bot at all four seats, played once per board and shared); the score is
               X's blind score minus Y's.
  independent  no duplicate: one hand per board, X at the dealing side on every other
               board (``entrant_side``), every hand a different deal; the score is X's
               side's net.

Per pair and format it prints the mean and standard deviation of the per-board scores,
the boards needed by formula, ceil((1.96 sd / mean)^2) -- the normal-approximation
sample size for a 95% interval to exclude zero at the observed mean and sd, so a fresh
run of that many boards separates the pair about half the time (``server.arena.stats.
boards_to_separate``) -- and the boards needed in this run: the first board count from
which the running 95% interval (``server.arena.stats.summarize``) excludes zero up to the
last board (``server.arena.stats.separation_point``; "> N" if it never settles). The last
column is the CPU time per board of the format (all its rooms, the par room included).

Boards are played in chunks by a process pool (``--workers``, default one per core).
Every bot is made afresh for each board, seeded by the run's seed, the board and its
role, and the built-in bots decide from (seed, observation) alone, so the scores, and
all but the timing column, are the same for a given seed whatever the worker count.
``--boards`` sets the boards for every pair; by default pairs with the search bot
(1-2 s per room on one core) play 50 boards and the others 2000: about 300 CPU
seconds in all, two and a half minutes on two idle cores (5 3/4 on a busy machine).
With 50 boards the search pair's mean is known to about +-1.8 points per board, so
its formula column is a rough guide there; give it more boards for a firmer number.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from statistics import fmean, stdev
from typing import Any

from server.arena.duplicate import entrant_side, net, play_blind_board, play_board_pair, play_par_room, play_sides
from server.arena.stats import boards_to_separate, separation_point, summarize
from server.engine import generate_board, make_ruleset
from workers.bots import make_bot

FORMATS = ("two-room", "blind", "independent")
SLOW_BOTS = {"search"}
DEFAULT_BOARDS, DEFAULT_SLOW_BOARDS = 2000, 50


def deal_set(seed: str) -> str:
    return f"formats/{seed}"


def board_score(rules, fmt: str, x: str, y: str, reference: str, seed: str, number: int) -> int:
    """X's score on board ``number`` in format ``fmt``; every bot seeded by board and role."""
    board = generate_board(deal_set(seed), number)

    def bot(name: str, role: str):
        return make_bot(name, f"{seed}/{number}/{role}")

    if fmt == "two-room":
        return play_board_pair(rules, board, number, bot(x, "x"), bot(y, "y"))["score"]
    if fmt == "blind":
        ref = bot(reference, "ref")
        par = play_par_room(rules, board, number, ref)
        a = play_blind_board(
            rules, board, number, bot(x, "x"), ref, entrant_side(rules, board.dealer, number - 1, 0), par
        )
        b = play_blind_board(
            rules, board, number, bot(y, "y"), ref, entrant_side(rules, board.dealer, number - 1, 1), par
        )
        return a["score"] - b["score"]
    if fmt == "independent":  # X on the dealing side on every other board, as in the blind movement
        side = entrant_side(rules, board.dealer, number - 1, 0)
        ns, ew = (bot(x, "x"), bot(y, "y")) if side == "NS" else (bot(y, "y"), bot(x, "x"))
        return int(net(play_sides(rules, board, ns, ew)["result"]["delta"], side))
    raise ValueError(f"unknown format {fmt!r}")


def play_chunk(
    ruleset: str, fmt: str, x: str, y: str, reference: str, seed: str, first: int, last: int
) -> tuple[dict[int, int], float]:
    """Scores of boards first..last, by number, and the CPU seconds they took."""
    rules = make_ruleset(ruleset, {})
    start = time.process_time()
    scores = {n: board_score(rules, fmt, x, y, reference, seed, n) for n in range(first, last + 1)}
    return scores, time.process_time() - start


def chunks(boards: int, workers: int) -> list[tuple[int, int]]:
    """Board ranges, about eight per worker, so that a slow chunk does not hold up the end."""
    size = max(1, boards // (workers * 8))
    return [(first, min(boards, first + size - 1)) for first in range(1, boards + 1, size)]


def parse_pairs(text: str) -> list[tuple[str, str]]:
    pairs = []
    for item in text.split(","):
        x, sep, y = item.strip().partition(":")
        if not sep or not x or not y:
            raise SystemExit(f"--pairs: {item!r} is not X:Y")
        make_bot(x), make_bot(y)  # KeyError names the built-in bots
        pairs.append((x, y))
    return pairs


def result_row(x: str, y: str, fmt: str, scores: list[int], cpu: float) -> dict[str, Any]:
    mean = fmean(scores)
    sd = stdev(scores) if len(scores) > 1 else 0.0
    return {
        "pair": f"{x}:{y}",
        "format": fmt,
        "boards": len(scores),
        "mean": round(mean, 4),
        "sd": round(sd, 4),
        "needed_formula": boards_to_separate(mean, sd),
        "needed_empirical": separation_point(scores),
        "cpu_s_per_board": round(cpu / len(scores), 5),
        "summary": summarize(scores).to_dict(),
    }


def print_table(header: str, rows: list[dict[str, Any]]) -> None:
    print(header)
    print(
        f"{'pair':15} {'format':12} {'boards':>6} {'mean':>9} {'sd':>8} {'needed (formula)':>17} "
        f"{'needed (this run)':>18} {'s/board':>8}"
    )
    for r in rows:
        formula = "-" if r["needed_formula"] is None else str(r["needed_formula"])
        empirical = f"> {r['boards']}" if r["needed_empirical"] is None else str(r["needed_empirical"])
        x, _, y = r["pair"].partition(":")
        print(
            f"{x + ' vs ' + y:15} {r['format']:12} {r['boards']:6} {r['mean']:+9.3f} {r['sd']:8.3f} "
            f"{formula:>17} {empirical:>18} {r['cpu_s_per_board']:8.3f}"
        )
    print(
        "needed (formula): ceil((1.96 sd / mean)^2), the normal-approximation sample size for a 95% interval "
        "to exclude zero at the observed mean and sd (a fresh run that long separates the pair about half "
        "the time).\nneeded (this run): the first board count from which the running 95% interval "
        "(server.arena.stats.summarize) excludes zero up to the last board.\ns/board: CPU seconds per board "
        "(two-room: 2 rooms; blind: par room + 2 entrant rooms; independent: 1 room)."
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--boards",
        type=int,
        default=None,
        help=f"boards per format and pair (default {DEFAULT_BOARDS}, "
        f"{DEFAULT_SLOW_BOARDS} for pairs with the search bot)",
    )
    parser.add_argument("--seed", default="1", help="names the deal set and seeds the bots")
    parser.add_argument("--pairs", default="rule:random,search:rule", help="X:Y pairs, comma separated")
    parser.add_argument("--reference", default="rule", help="the blind movement's reference bot")
    parser.add_argument("--ruleset", default="american62")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--json", action="store_true", help="print the results as JSON instead of a table")
    args = parser.parse_args()
    if args.boards is not None and args.boards < 2:
        parser.error("--boards must be at least 2")
    pairs = parse_pairs(args.pairs)
    make_ruleset(args.ruleset, {})

    def boards_for(x: str, y: str) -> int:
        if args.boards is not None:
            return args.boards
        return DEFAULT_SLOW_BOARDS if {x, y, args.reference} & SLOW_BOTS else DEFAULT_BOARDS

    started = time.perf_counter()
    tasks = [
        ((x, y), fmt, first, last)
        for x, y in pairs
        for fmt in FORMATS
        for first, last in chunks(boards_for(x, y), args.workers)
    ]
    tasks.sort(key=lambda t: not (set(t[0]) | {args.reference}) & SLOW_BOTS)  # slow chunks first
    scores: dict[tuple[str, str, str], dict[int, int]] = {}
    cpu: dict[tuple[str, str, str], float] = {}
    with ProcessPoolExecutor(args.workers) as pool:
        futures = {
            pool.submit(play_chunk, args.ruleset, fmt, x, y, args.reference, args.seed, first, last): (x, y, fmt)
            for (x, y), fmt, first, last in tasks
        }
        for future in as_completed(futures):
            key = futures[future]
            got, seconds = future.result()
            scores.setdefault(key, {}).update(got)
            cpu[key] = cpu.get(key, 0.0) + seconds
            if len(scores[key]) == boards_for(key[0], key[1]):
                print(
                    f"    ... {key[0]} vs {key[1]}, {key[2]}: {len(scores[key])} boards "
                    f"({time.perf_counter() - started:.0f} s)",
                    file=sys.stderr,
                    flush=True,
                )
    rows = [
        result_row(x, y, fmt, [scores[x, y, fmt][n] for n in sorted(scores[x, y, fmt])], cpu[x, y, fmt])
        for x, y in pairs
        for fmt in FORMATS
    ]
    wall = time.perf_counter() - started
    header = (
        f"formats, {args.ruleset}, deal set {deal_set(args.seed)}, blind reference {args.reference}, "
        f"{args.workers} workers, {wall:.0f} s"
    )
    if args.json:
        print(
            json.dumps(
                {
                    "ruleset": args.ruleset,
                    "deal_set": deal_set(args.seed),
                    "seed": args.seed,
                    "reference": args.reference,
                    "workers": args.workers,
                    "wall_s": round(wall, 1),
                    "results": rows,
                },
                indent=2,
            )
        )
    else:
        print_table(header, rows)


if __name__ == "__main__":
    main()
