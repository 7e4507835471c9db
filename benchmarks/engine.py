"""Engine speed on one core: complete random-legal hands per second, and per-call costs.

    python benchmarks/engine.py [--seconds 3]

Prints, per ruleset: hands/s through the fast layer (what search bots use), hands/s
through the wire layer (legal_actions + apply on RULES.md 6 actions, what the match
runner uses), and microseconds per legal-action generation and per observation.
Run it on an idle machine; it uses one process, so one core.
"""

from __future__ import annotations

import argparse
import time
from random import Random

from server.engine import DONE, PLAY, HandState, generate_board, make_ruleset, observation
from server.engine.playout import playout, random_action, random_step

BOARDS = [generate_board("bench", n) for n in range(1, 501)]


def rate(fn, seconds: float) -> float:
    """Calls of ``fn`` per second, over at least ``seconds``."""
    count, start = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        count += fn()
    return count / elapsed


def fast_hands(rules, rng):
    def run():
        for board in BOARDS[:100]:
            playout(HandState(rules, board), rng)
        return 100
    return run


def wire_hands(rules, rng):
    def run():
        for board in BOARDS[:50]:
            state = HandState(rules, board)
            while state.phase != DONE:
                state.apply(random_action(state.legal_actions(), rng))
        return 50
    return run


def play_states(rules, rng, count=2000):
    """A sample of mid-play states to time per-call costs on."""
    states = []
    for board in BOARDS:
        state = HandState(rules, board)
        stop = rng.randrange(8, 30)
        while state.phase != DONE and len(states) < count and stop:
            random_step(state, rng)
            stop -= 1
        if state.phase == PLAY:
            states.append(state)
    return states


def per_call_us(fn, states, repeat=20) -> float:
    start = time.perf_counter()
    for _ in range(repeat):
        for s in states:
            fn(s)
    return (time.perf_counter() - start) / (repeat * len(states)) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    args = parser.parse_args()
    print(f"{'ruleset':12} {'fast hands/s':>13} {'wire hands/s':>13} {'legal_plays us':>15} "
          f"{'legal_actions us':>17} {'observation us':>15}")
    for name in ("american62", "foster51"):
        rules = make_ruleset(name)
        rng = Random(1)
        fast = rate(fast_hands(rules, rng), args.seconds)
        wire = rate(wire_hands(rules, rng), args.seconds)
        states = play_states(rules, rng)
        lp = per_call_us(HandState.legal_plays, states)
        la = per_call_us(HandState.legal_actions, states)
        ob = per_call_us(lambda s: observation(s, "NESW"[s.to_act]), states, repeat=3)
        print(f"{name:12} {fast:13,.0f} {wire:13,.0f} {lp:15.2f} {la:17.2f} {ob:15.1f}")


if __name__ == "__main__":
    main()
