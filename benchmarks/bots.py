"""Built-in bots: the search bot's decision time, and the strength ladder by duplicate matches.

    python benchmarks/bots.py [--first 1] [--boards 400] [--samples N] [--timing-boards 40] [--timing-only]
                              [--skip-baseline] [--ruleset american62]

Timing: the search bot (default setting, or ``--samples``) plays N/S against the rule
bot on ``--timing-boards`` boards of the ``standard`` deal set from board ``--first``,
and every one of its decisions is timed (forced ones included, as a match would ask
them): median, p90, p99 and max, overall and per phase, the same over the decisions
that offer a real choice (more than one legal action), and the solver nodes of the
largest decision (the deterministic budget the bar is kept by, whatever the load).

Strength: duplicate matches on boards ``--first``..``--first + --boards - 1`` of the
``standard`` deal set (american62 unless ``--ruleset``): rule vs random, then search vs rule. The score of a
board pair is X's net over both rooms (``workers.match``); each line gives the mean
per board pair with its 95% interval (``server.stats.summarize``), and board pairs
won/tied/lost. One process, so one core; run it on a quiet machine for timings.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

from server import dealsets
from server.engine import DONE, SEATS, HandState, make_ruleset, observation
from server.stats import summarize
from workers.bots import RandomBot, RuleBot
from workers.bots.search_bot import DEFAULT_SAMPLES, SearchBot
from workers.match import play_board_pair


class Timed:
    """Wraps an agent and records how long each decision takes, by phase."""

    def __init__(self, agent):
        self.agent = agent
        self.times: list[tuple[str, float]] = []
        self.choices: list[float] = []    # decisions with more than one legal action
        self.most_nodes = 0

    def decide(self, obs):
        start = time.perf_counter()
        action = self.agent.decide(obs)
        phase = obs["phase"]
        if phase == "play":
            done = sum(1 for t in obs["tricks"] if t["winner"] is not None)
            phase = f"play, trick {done + 1}"
        elapsed = time.perf_counter() - start
        self.times.append((phase, elapsed))
        if has_choice(obs["legal"]):
            self.choices.append(elapsed)
        self.most_nodes = max(self.most_nodes, getattr(self.agent, "last_nodes", 0))
        return action


def has_choice(legal: list[dict]) -> bool:
    """Whether a decision has more than one legal action (a choice object counts by its options)."""
    if len(legal) > 1:
        return True
    only = legal[0]
    if only["type"] == "rob":
        return len(only["from"]) > only["size"]
    return only["type"] == "discard"


def percentile(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def timing(rules, boards, first: int, samples: int) -> None:
    load_before = os.getloadavg()[0]
    bot = Timed(SearchBot(seed=1, samples=samples))
    rule = RuleBot(seed=2)
    for board in boards:
        state = HandState(rules, board)
        while state.phase != DONE:
            seat = SEATS[state.to_act]
            agent = bot if seat in "NS" else rule
            state.apply(agent.decide(observation(state, seat)))
    all_ms = [t * 1000 for _p, t in bot.times]
    print(f"search bot (samples={samples}) decision time over {len(all_ms)} decisions on {len(boards)} boards "
          f"from board {first} "
          f"({rules.name}):")
    print(f"  load average before/after the run: {load_before:.2f} / {os.getloadavg()[0]:.2f} (2 cores: above 1-2 "
          f"the times include waiting for a core)")
    print(f"  all: {spread(all_ms)}   mean {statistics.fmean(all_ms):.1f} ms")
    real = [t * 1000 for t in bot.choices]
    print(f"  decisions with a real choice ({len(real)}): {spread(real)}")
    print(f"  most solver nodes in one decision: {bot.most_nodes}")
    phases: dict[str, list[float]] = {}
    for phase, t in bot.times:
        phases.setdefault(phase, []).append(t * 1000)
    for phase in sorted(phases):
        ms = phases[phase]
        print(f"    {phase:16} n={len(ms):4}  {spread(ms)}")
    sys.stdout.flush()


def spread(ms: list[float]) -> str:
    """Median, p90, p99 and max of decision times in ms, as one line."""
    return (f"median {statistics.median(ms):7.1f} ms  p90 {percentile(ms, 0.9):7.1f} ms  "
            f"p99 {percentile(ms, 0.99):7.1f} ms  max {max(ms):7.1f} ms")


def match(label: str, rules, boards, x, y) -> None:
    start = time.perf_counter()
    scores = []
    for number, board in boards:
        scores.append(play_board_pair(rules, board, number, x, y)["score"])
        if len(scores) % 100 == 0:
            s = summarize(scores)
            print(f"    ... {label}: {len(scores)} boards, mean {s.mean:+.3f} [{s.ci_low:+.3f}, {s.ci_high:+.3f}]",
                  file=sys.stderr, flush=True)
    s = summarize(scores)
    elapsed = time.perf_counter() - start
    print(f"  {label:18} boards {s.boards:5}  mean {s.mean:+7.3f} per board pair  95% [{s.ci_low:+.3f}, {s.ci_high:+.3f}]"
          f"  won/tied/lost {s.won}/{s.tied}/{s.lost}  {'significant' if s.significant else 'not significant'}"
          f"  ({elapsed:.0f} s)", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--first", type=int, default=1, help="first board of the standard deal set used")
    parser.add_argument("--boards", type=int, default=400, help="board pairs per match (standard deal set)")
    parser.add_argument("--samples", type=int, default=DEFAULT_SAMPLES, help="the search bot's samples")
    parser.add_argument("--timing-boards", type=int, default=40, help="boards played to time decisions")
    parser.add_argument("--timing-only", action="store_true", help="only time decisions, play no match")
    parser.add_argument("--skip-baseline", action="store_true", help="do not play rule vs random")
    parser.add_argument("--ruleset", default="american62")
    args = parser.parse_args()
    rules = make_ruleset(args.ruleset)
    deals = dealsets.load("standard")
    first = args.first
    count = len(deals.boards)
    if not 1 <= first or first + max(args.timing_boards, 0 if args.timing_only else args.boards) - 1 > count:
        parser.error(f"the standard deal set has boards 1..{count}")
    timing(rules, [deals.board(n) for n in range(first, first + args.timing_boards)], first, args.samples)
    if args.timing_only:
        return
    last = first + args.boards - 1
    boards = [(n, deals.board(n)) for n in range(first, last + 1)]
    print(f"duplicate matches, {rules.name}, standard boards {first}..{last} (X's net per board pair):")
    if not args.skip_baseline:
        match("rule vs random", rules, boards, RuleBot(seed=1), RandomBot(seed=2))
    match(f"search({args.samples}) vs rule", rules, boards, SearchBot(seed=1, samples=args.samples), RuleBot(seed=2))


if __name__ == "__main__":
    main()
