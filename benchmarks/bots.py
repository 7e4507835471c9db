"""Built-in bots: the search bot's decision time, and the strength ladder by duplicate matches.

    python benchmarks/bots.py [--first 1] [--boards 400] [--samples N] [--timing-boards 40] [--timing-only]
                              [--skip-baseline] [--ruleset american62] [--options JSON] [--deals-seed SEED]
                              [--one-seed]
    python benchmarks/bots.py --family [--first 601] [--boards 400] [--only RULESET ...] [--strong]
                              [--deals-seed SEED]
    python benchmarks/bots.py --family --timing-only [--timing-boards 40] [--only RULESET ...]
                              [--deals-seed SEED]

Timing: the search bot (default setting, or ``--samples``) plays N/S (the first unit) against the rule
bot on ``--timing-boards`` boards of the ``standard`` deal set from board ``--first``,
and every one of its decisions is timed (forced ones included, as a match would ask
them): median, p90, p99 and max, overall and per phase, the same over the decisions
that offer a real choice (more than one legal action), and the solver nodes of the
largest decision (the deterministic budget the bar is kept by, whatever the load).

Strength: duplicate matches on boards ``--first``..``--first + --boards - 1`` of the
published deal set of the ruleset's table size (``standard``, ``standard-2p``, ...;
american62 unless ``--ruleset``, with ``--options`` such as ``{"players": 3}``): rule vs
random, then search vs rule. With two units (partnerships, or two single seats) the
score of a board is X's net over both rooms; with more, X plays one unit against the
other bot at every other unit, in every room of the rotation, and its score is the sum
of its nets against the field (docs/rules/duplicate.md#net, ``server.arena.duplicate.play_boards``).
``--family`` prints the ladder of every ruleset and table size instead: random < rule <
search-play < search (< search:strong with ``--strong``), each bot against the rung
below on the same boards; with ``--timing-only``, the timing table of every ruleset and
table size instead: the default search's CPU time per decision, by decision type. Each
line gives the mean per board with its 95% interval (``server.arena.stats.summarize``), and
boards won/tied/lost. ``--one-seed`` adds search vs search-play on one seed: a board on
which they decide alike before the play ties exactly, so it is scored 0 without being
played (``agree_before_play``). One process, so one core; run it on a quiet machine for timings.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time

from server.arena import dealsets
from server.arena.duplicate import play_board_pair, play_boards, seat_agents, units_of
from server.arena.stats import summarize
from server.arena.tournaments import public_deals
from server.engine import DONE, game_spec, make_ruleset, new_hand, observation
from workers.bots import RandomBot, RuleBot, SearchBot, SearchPlayBot, make_bot
from workers.bots.search_bot import DEFAULT_SAMPLES


class Timed:
    """Wraps an agent and records how long each decision takes, by phase."""

    def __init__(self, agent):
        self.agent = agent
        self.times: list[tuple[str, float]] = []
        self.choices: list[float] = []  # decisions with more than one legal action
        self.cpu: list[float] = []  # the same decisions in this process's CPU time
        self.kinds: dict[str, list[float]] = {}  # CPU times by decision type (obs["phase"])
        self.most_nodes = 0

    def decide(self, obs):
        start, cpu = time.perf_counter(), time.process_time()
        action = self.agent.decide(obs)
        used = time.process_time() - cpu
        self.cpu.append(used)
        self.kinds.setdefault(obs["phase"], []).append(used)
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


def timed_play(rules, boards, samples: int) -> Timed:
    """``search`` (default level unless ``samples``) timed at every decision of ``boards``,
    holding the first unit against the rule bot."""
    bot = Timed(SearchBot(seed=1, samples=samples))
    rule = RuleBot(seed=2)
    units = len(units_of(rules)[0])
    agents = seat_agents(rules, [bot, *[rule] * (units - 1)])  # search holds the first unit
    for board in boards:
        state = new_hand(rules, board)
        while state.phase != DONE:
            seat = state.seats[state.to_act]
            state.apply(agents[state.to_act].decide(observation(state, seat)))
    return bot


def timing(rules, boards, first: int, samples: int) -> None:
    load_before = os.getloadavg()[0]
    bot = timed_play(rules, boards, samples)
    all_ms = [t * 1000 for _p, t in bot.times]
    print(
        f"search bot (samples={samples}) decision time over {len(all_ms)} decisions on {len(boards)} boards "
        f"from board {first} "
        f"({rules.name}):"
    )
    print(
        f"  load average before/after the run: {load_before:.2f} / {os.getloadavg()[0]:.2f} (2 cores: above 1-2 "
        f"the times include waiting for a core)"
    )
    print(f"  all: {spread(all_ms)}   mean {statistics.fmean(all_ms):.1f} ms")
    print(f"  all, CPU time (what the load does not change): {spread([t * 1000 for t in bot.cpu])}")
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
    return (
        f"median {statistics.median(ms):7.1f} ms  p90 {percentile(ms, 0.9):7.1f} ms  "
        f"p99 {percentile(ms, 0.99):7.1f} ms  max {max(ms):7.1f} ms"
    )


def board_score(rules, number, board, x, y) -> float:
    """X's score on a board against Y: the two-room match's with two units, else X's
    board score against Y at every other unit (every room of the rotation)."""
    units = len(units_of(rules)[0])
    if units == 2:
        return play_board_pair(rules, board, number, x, y)["score"]
    return next(play_boards(rules, [(number, board)], [x, *[y] * (units - 1)]))["entrant_scores"][0]


def same_choice(action: dict) -> dict:
    """An action with its card lists as sets: a keep or a discard is a choice of cards, not an order."""
    return {k: frozenset(v) if isinstance(v, list) else v for k, v in action.items()}


def agree_before_play(rules, board, x, y) -> bool:
    """Whether X, in each of its seats of both rooms, decides every action before the
    play as Y would: then, for two bots that play alike on one seed (``--one-seed``), the
    board pair ties exactly and need not be played (two units only)."""
    for x_unit in (0, 1):
        agents = seat_agents(rules, [x, y] if x_unit == 0 else [y, x])
        state = new_hand(rules, board)
        while state.phase not in (DONE, "play"):
            index = state.to_act
            obs = observation(state, state.seats[index])
            action = agents[index].decide(obs)
            if agents[index] is x and same_choice(action) != same_choice(y.decide(obs)):
                return False
            state.apply(action)
    return True


def match(label: str, rules, boards, x, y, quiet: bool = False, skip_agreeing: bool = False):
    """X's scores against Y on ``boards``, summarized (printed unless ``quiet``).
    ``skip_agreeing``: X and Y play alike (one seed), so a board on which they decide
    alike before the play scores 0 without being played (``agree_before_play``)."""
    start = time.perf_counter()
    scores = []
    played = 0
    for number, board in boards:
        if skip_agreeing and agree_before_play(rules, board, x, y):
            scores.append(0)
            continue
        played += 1
        scores.append(board_score(rules, number, board, x, y))
        if len(scores) % 100 == 0:
            s = summarize(scores)
            print(
                f"    ... {label}: {len(scores)} boards, mean {s.mean:+.3f} [{s.ci_low:+.3f}, {s.ci_high:+.3f}]",
                file=sys.stderr,
                flush=True,
            )
    s = summarize(scores)
    elapsed = time.perf_counter() - start
    if not quiet:
        print(
            f"  {label:18} boards {s.boards:5}  mean {s.mean:+7.3f} per board  95% [{s.ci_low:+.3f}, "
            f"{s.ci_high:+.3f}]  won/tied/lost {s.won}/{s.tied}/{s.lost}  "
            f"{'significant' if s.significant else 'not significant'}  ({elapsed:.0f} s"
            + (f", {played} boards played, the rest agreed before the play)" if skip_agreeing else ")"),
            flush=True,
        )
    return s


def ladder_steps(strong: bool) -> list[tuple[str, object, object]]:
    """The ladder's steps, each bot against the rung below: random < rule < search-play <
    search (< search:strong)."""
    steps = [
        ("rule vs random", RuleBot(seed=1), RandomBot(seed=2)),
        ("search-play vs rule", SearchPlayBot(seed=1), RuleBot(seed=2)),
        ("search vs search-play", SearchBot(seed=1), SearchPlayBot(seed=2)),
    ]
    if strong:
        steps.append(("search:strong vs search", make_bot("search:strong", 1), SearchBot(seed=2)))
    return steps


def deal_set(players: int, deck: int, seed: str | None, count: int):
    """The published deal set of the table shape, or (``seed``) one made for this run, so
    that a bot is not tuned on the boards it is measured on."""
    if seed is None:
        return dealsets.load(public_deals(players, deck))
    return dealsets.generate(f"{seed}-{players}p-{deck}", count, players=players, deck=deck)


def every_table(first: int, count: int, only: list[str] | None, seed: str | None):
    """(ruleset name, players, rules, boards ``first``..``first + count - 1``) of every ruleset
    (or those ``only`` names) and table size, each on its deal set (``deal_set``)."""
    from server.engine import GAMES

    for name, spec in GAMES.items():
        if only and name not in only:
            continue
        for players in spec.players:
            rules = make_ruleset(name, {"players": players} if players != 4 else None)
            deals = deal_set(players, spec.deck, seed, first + count - 1)
            yield name, players, rules, [(n, deals.board(n)) for n in range(first, first + count)]


def family_timing(first: int, count: int, only: list[str] | None, seed: str | None) -> None:
    """The timing table of every ruleset (or those ``only`` names) and table size: the
    default ``search``'s CPU time per decision, by decision type, one markdown row each."""
    print("| ruleset | players | decision | n | CPU median | CPU p99 | CPU max |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for name, players, rules, boards in every_table(first, count, only, seed):
        bot = timed_play(rules, [board for _n, board in boards], DEFAULT_SAMPLES)
        for kind, seconds in sorted(bot.kinds.items()):
            ms = [t * 1000 for t in seconds]
            print(
                f"| `{name}` | {players} | {kind} | {len(ms)} | {statistics.median(ms):.1f} ms "
                f"| {percentile(ms, 0.99):.1f} ms | {max(ms):.1f} ms |",
                flush=True,
            )


def family_table(first: int, count: int, only: list[str] | None, strong: bool, seed: str | None) -> None:
    """The ladder of every ruleset (or those ``only`` names) and table size, one markdown
    row each: every step's mean per board with its 95% interval, from one run."""
    steps = ladder_steps(strong)
    print("| ruleset | players | " + " | ".join(label for label, _x, _y in steps) + " |")
    print("| --- | --- |" + " --- |" * len(steps))
    for name, players, rules, boards in every_table(first, count, only, seed):
        cells = []
        for _label, x, y in steps:
            s = match("", rules, boards, x, y, quiet=True)
            cells.append(f"{s.mean:+.2f} [{s.ci_low:+.2f}, {s.ci_high:+.2f}]")
        print(f"| `{name}` | {players} | " + " | ".join(cells) + " |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--first", type=int, default=1, help="first board of the standard deal set used")
    parser.add_argument("--boards", type=int, default=400, help="board pairs per match (standard deal set)")
    parser.add_argument("--samples", type=int, default=DEFAULT_SAMPLES, help="the search bot's samples")
    parser.add_argument("--timing-boards", type=int, default=40, help="boards played to time decisions (0: none)")
    parser.add_argument("--timing-only", action="store_true", help="only time decisions, play no match")
    parser.add_argument("--skip-baseline", action="store_true", help="do not play rule vs random")
    parser.add_argument("--ruleset", default="american62")
    parser.add_argument("--options", type=json.loads, default=None, help="ruleset options as JSON")
    parser.add_argument(
        "--family", action="store_true", help="the strength table of every ruleset and table size, on --first/--boards"
    )
    parser.add_argument("--only", action="append", help="with --family: only this ruleset (repeatable)")
    parser.add_argument("--strong", action="store_true", help="with --family: add search:strong vs search")
    parser.add_argument("--deals-seed", help="boards of a deal set made from this seed, not the published one")
    parser.add_argument(
        "--one-seed",
        action="store_true",
        help="also search vs search-play on one seed: their play then differs only after different decisions "
        "before it, so every other board ties and the interval is about those decisions (such boards are "
        "scored 0 without being played)",
    )
    args = parser.parse_args()
    if args.family and args.timing_only:
        family_timing(args.first, args.timing_boards, args.only, args.deals_seed)
        return
    if args.family:
        family_table(args.first, args.boards, args.only, args.strong, args.deals_seed)
        return
    rules = make_ruleset(args.ruleset, args.options)
    first = args.first
    deals = deal_set(
        rules.players, game_spec(rules).deck, args.deals_seed, first + max(args.boards, args.timing_boards) - 1
    )
    count = len(deals.boards)
    if not 1 <= first or first + max(args.timing_boards, 0 if args.timing_only else args.boards) - 1 > count:
        parser.error(f"the {deals.name} deal set has boards 1..{count}")
    if args.timing_boards > 0:
        timing(rules, [deals.board(n) for n in range(first, first + args.timing_boards)], first, args.samples)
    if args.timing_only:
        return
    last = first + args.boards - 1
    boards = [(n, deals.board(n)) for n in range(first, last + 1)]
    print(
        f"duplicate matches, {rules.name} {rules.options() or ''}, {deals.name} boards {first}..{last} "
        f"(X's score per board):"
    )
    if not args.skip_baseline:
        match("rule vs random", rules, boards, RuleBot(seed=1), RandomBot(seed=2))
    match(f"search({args.samples}) vs rule", rules, boards, SearchBot(seed=1, samples=args.samples), RuleBot(seed=2))
    if args.one_seed:
        x, y = SearchBot(seed=1, samples=args.samples), SearchPlayBot(seed=1, samples=args.samples)
        match("search vs search-play, one seed", rules, boards, x, y, skip_agreeing=True)


if __name__ == "__main__":
    main()
