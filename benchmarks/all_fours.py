"""All Fours engine speed on one core: random complete hands per second, per ruleset and k.

    python benchmarks/all_fours.py [--seconds 2]

Every decision (beg, give or run, bunch, discard, play) is taken uniformly at random
through the fast layer, ``random_step``, as search bots' rollouts do; boards come from
the canonical generator for each table size.
"""

from __future__ import annotations

import argparse
import time
from random import Random

from server.engine import generate_board, make_ruleset, new_hand, seats_for


def hands_per_second(name: str, k: int, seconds: float, rng: Random) -> float:
    rules = make_ruleset(name, {"players": k})
    boards = [generate_board("bench", n, seats_for(k)) for n in range(1, 201)]
    count, start = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        for board in boards:
            state = new_hand(rules, board)
            while state.phase != "done":
                state.random_step(rng)
        count += len(boards)
    return count / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    args = parser.parse_args()
    rng = Random(1)
    for name in ("seven_up", "pitch", "all_fives"):
        for k in (2, 3, 4):
            print(f"{name:10s} k={k}  {hands_per_second(name, k, args.seconds, rng):9,.0f} hands/s")


if __name__ == "__main__":
    main()
