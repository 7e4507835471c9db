"""Engine speed on one core: complete random-legal hands per second, and per-call costs.

    python benchmarks/engine.py [--seconds 3] [--ruleset NAME ...]

Prints, per ruleset and table size: hands/s through the fast layer (what search bots use), hands/s
through the wire layer (legal_actions + apply on docs/rules/actions.md#wire-format actions, what the match
runner uses), and microseconds per legal-action generation and per observation.
It uses one process, so one core, and counts that process's CPU time (``process_time``),
so other work on the machine slows the run but not the figures (much: caches and
frequency are shared).
"""

from __future__ import annotations

import argparse
import time
from random import Random

from server.engine import DONE, GAMES, PLAY, generate_board, make_ruleset, new_hand, observation, seats_for
from server.engine.playout import playout, random_action, random_step


def rate(fn, seconds: float) -> float:
    """Calls of ``fn`` per second, over at least ``seconds``."""
    count, start = 0, time.process_time()
    while (elapsed := time.process_time() - start) < seconds:
        count += fn()
    return count / elapsed


def boards_for(players: int, deck: int = 52) -> list:
    """500 boards for a table of ``players`` and a ``deck``-card pack (snoozer's 53)."""
    seats = seats_for(players)
    return [generate_board("bench", n, seats, deck) for n in range(1, 501)]


def fast_hands(rules, boards, rng):
    def run():
        for board in boards[:100]:
            playout(new_hand(rules, board), rng)
        return 100

    return run


def wire_hands(rules, boards, rng):
    def run():
        for board in boards[:50]:
            state = new_hand(rules, board)
            while state.phase != DONE:
                state.apply(random_action(state.legal_actions(), rng))
        return 50

    return run


def play_states(rules, boards, rng, count=2000):
    """A sample of mid-play states to time per-call costs on."""
    states = []
    for board in boards:
        state = new_hand(rules, board)
        stop = rng.randrange(8, 30)
        while state.phase != DONE and len(states) < count and stop:
            random_step(state, rng)
            stop -= 1
        if state.phase == PLAY:
            states.append(state)
    return states


def per_call_us(fn, states, repeat=20) -> float:
    start = time.process_time()
    for _ in range(repeat):
        for s in states:
            fn(s)
    return (time.process_time() - start) / (repeat * len(states)) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    parser.add_argument("--ruleset", action="append", choices=sorted(GAMES), help="only these (default: all)")
    args = parser.parse_args()
    print(
        f"{'ruleset':16} {'fast hands/s':>13} {'wire hands/s':>13} {'legal_plays us':>15} "
        f"{'legal_actions us':>17} {'observation us':>15}"
    )
    for name in args.ruleset or GAMES:
        for players in GAMES[name].players:
            rules = make_ruleset(name, {"players": players} if players != 4 else None)
            boards = boards_for(players, GAMES[name].deck)
            rng = Random(1)
            fast = rate(fast_hands(rules, boards, rng), args.seconds)
            wire = rate(wire_hands(rules, boards, rng), args.seconds)
            states = play_states(rules, boards, rng)
            lp = per_call_us(lambda s: s.legal_plays(), states)
            la = per_call_us(lambda s: s.legal_actions(), states)
            ob = per_call_us(lambda s: observation(s, s.seats[s.to_act]), states, repeat=3)
            label = name if players == 4 else f"{name} k={players}"
            print(f"{label:16} {fast:13,.0f} {wire:13,.0f} {lp:15.2f} {la:17.2f} {ob:15.1f}")


if __name__ == "__main__":
    main()
