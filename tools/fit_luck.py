"""Fit the luck evaluator's weights (``workers.luck.WEIGHTS`` and ``SPREAD``).

    python tools/fit_luck.py [--hands 6000] [--ruleset american62 --ruleset foster51]

The rule bot plays every seat of ``--hands`` boards of the deal set ``luck-fit`` (never
a set that matches are played on); at each hand's first lead the evaluator's features
are taken (``workers.luck.features``), and the point difference N/S minus E/W that the
hand ended with is fitted to them by least squares (numpy). Prints the constants to
paste into workers/luck.py: the weights, the residual standard deviation as the
spread, and the dealing side's mean ``deal_value`` over the boards of ``luck-deals``
(computed with the weights already in workers/luck.py: paste the weights first, then
rerun for it). The fit is a fixed function of the deal sets, so rerunning it prints
the same.
"""

from __future__ import annotations

import argparse
from concurrent.futures import ProcessPoolExecutor

import numpy as np

from server.engine import DONE, PLAY, ROB, SEATS, HandState, generate_board, make_ruleset, observation
from workers.bots.rule_bot import RuleBot
from workers.luck import deal_value, features, to_play

PLAYER = RuleBot("luck-fit")


def sample(args: tuple[str, int]) -> tuple[list[float], float]:
    """One self-play hand: its features at the first lead and its final point difference."""
    name, number = args
    state = HandState(make_ruleset(name), generate_board("luck-fit", number))
    while state.phase not in (ROB, PLAY):
        play(state)
    feats = features(to_play(state))
    while state.phase != DONE:
        play(state)
    ns, ew = state.points()
    return feats, float(ns - ew)


def dealer_side_value(args: tuple[str, int]) -> float:
    """What board ``n`` of ``luck-deals`` is worth to its dealing side (``deal_value``)."""
    name, number = args
    board = generate_board("luck-deals", number)
    value = deal_value(make_ruleset(name), board)
    return value if board.dealer in "NS" else -value


def play(state: HandState) -> None:
    state.apply(PLAYER.decide(observation(state, SEATS[state.to_act])))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=6000)
    parser.add_argument("--ruleset", action="append")
    args = parser.parse_args()
    with ProcessPoolExecutor() as pool:
        for name in args.ruleset or ["american62", "foster51"]:
            rows = list(pool.map(sample, [(name, n) for n in range(1, args.hands + 1)], chunksize=50))
            x = np.array([f for f, _ in rows])
            y = np.array([t for _, t in rows])
            weights, *_ = np.linalg.lstsq(x, y, rcond=None)
            residual = y - x @ weights
            r2 = 1 - residual.var() / y.var()
            print(f"# {name}: {len(rows)} hands, R^2 {r2:.3f}")
            print(f'    "{name}": [{", ".join(f"{w:.4f}" for w in weights)}],')
            print(f'    SPREAD "{name}": {residual.std():.4f}')
            edges = pool.map(dealer_side_value, [(name, n) for n in range(1, args.hands + 1)], chunksize=50)
            print(f'    DEALER_EDGE "{name}": {float(np.mean(list(edges))):.4f}  (with the weights in workers/luck.py)')


if __name__ == "__main__":
    main()
