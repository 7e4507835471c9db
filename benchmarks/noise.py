"""How much of a duplicate match's variance is the built-in bots' own randomness, and
whether seeding or a control variate on it takes a useful part out (issue 28).

    python benchmarks/noise.py [--boards 400] [--seed SEED] [--cv-seeds 2] [--cv-boards N]
                               [--ruleset american62] [--workers 1] [--resamples 2000] [--json]

Duplicate cancels the cards; what it leaves on a board is the bots' decisions, and
part of those is chance: the search bot samples the hidden cards of every play
decision from ``decision_rng(seed, observation)``, so on identical cards a second seed
plays a different hand. Search plays rule on ``--boards`` boards of a deal set made
here from ``--seed`` by the canonical generator (``server.arena.dealsets.generate``: a
fresh set, not ``standard``, whose boards the other benchmarks and the fits use), and
every board's two rooms are played twice, with bot seeds A and B, as a match seeds its
bots today (one seed for both bots, both rooms and every board: workers/jobs.py
``agent_for``). Per board pair, X = search's net over the two rooms:

  today            var(s), the duplicate variance per board pair (mean over A and B);
                   the seed's part is W = mean over boards of (s_A - s_B)^2 / 2, the
                   rest (today - W) the floor that no handling of the bots' own
                   randomness can go below;
  seed per room    the rooms seeded apart (a seed keyed by board and room, instead of
                   one shared by both rooms): s = A's room 1 + B's room 2 and B's room 1
                   + A's room 2. Exact, not a model: a room's play is a function of its
                   bots' seeds and its own observations only, so room 1 under A is the
                   same hand whatever seed room 2 had. (A seed per board shared by both
                   rooms is today's way: the match seed is shared by every board.)
  two seeds        each board played twice and the two scores averaged: var((s_A + s_B)/2),
                   at twice the cost;
  control variate  AIVAT's other half, possible because the search bot's policy is
                   known: at each of its play decisions with a choice, k = ``--cv-seeds``
                   more copies of the bot (seeds of their own) decide the same
                   observation; V(card) is the mean of their value estimates per card
                   (``last_values``: the seat's side's expected net), and the term is
                   V(card played) - mean_j V_-j(card copy j chose), V_-j leaving copy j's
                   own values out. Given the observation the card played and every
                   copy's card are independent draws of the same policy, and each is
                   valued by estimates it did not make, so the term has mean zero
                   exactly whatever V's errors: X's score less the sum of its terms
                   over both rooms is unbiased. Measured on run A of the first
                   ``--cv-boards`` boards (default all), with a bias check (mean term and
                   its standard error) and its cost: the copies' search time over the
                   bots' own.

For each way: the variance per board pair, its sd, the boards it needs relative to
today (boards scale with the variance at a fixed edge, since every way estimates the
same edge), a bootstrap standard error of that ratio (``--resamples`` resamplings of
the boards, every way on the same resampled boards), and its cost per board relative
to today (the control variate's variance is today's times its ratio on its own boards).
The decision rule of issue 28: build a way only if it cuts the boards needed
by 15% or more without bias. The rule bot's own randomness (a random pick between
suits of equal value) is left in the scores: it is rare, and never in the play.

Every bot is seeded from ``--seed``, so a run is the same whatever ``--workers`` is.
About 0.3 s of play a board on one core (four rooms), and as much again for the
control variate's copies (k = 2): the default 400 boards take about 3 minutes.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from random import Random
from statistics import fmean, pvariance, variance
from typing import Any

from server.arena.agent import Action, Agent, Observation
from server.arena.duplicate import net, play_sides
from server.engine import PLAY, Board, generate_board, make_ruleset
from workers.bots import make_bot

X, Y = "search", "rule"
DEFAULT_SEED = "noise-study-7f3c91"  # a fresh deal set of this benchmark's own
DEFAULT_BOARDS, DEFAULT_CV_SEEDS = 400, 2
BAR = 0.85  # issue 28: worth building only at 15% fewer boards or better


class Timed:
    """A bot whose decisions are timed (``seconds``), so a way's cost can be compared."""

    def __init__(self, bot: Agent):
        self.bot = bot
        self.seconds = 0.0

    def decide(self, observation: Observation) -> Action:
        start = time.perf_counter()
        try:
            return self.bot.decide(observation)
        finally:
            self.seconds += time.perf_counter() - start


class Corrected(Timed):
    """The search bot, and beside each of its play decisions with a choice the control
    variate's term (the module says how); ``term`` sums them for the room, from the
    bot's side's view, which is X's."""

    def __init__(self, seed: str, copies: int):
        super().__init__(make_bot(X, seed))
        self.copies = [make_bot(X, f"{seed}/cv/{j}") for j in range(copies)]
        self.term = 0.0
        self.decisions = 0  # play decisions with a choice, each one term
        self.differ = 0  # of them, those where some copy chose another card
        self.copy_seconds = 0.0

    def decide(self, observation: Observation) -> Action:
        action = super().decide(observation)
        if observation["phase"] != PLAY or len(observation["legal"]) < 2 or len(self.copies) < 2:
            return action
        start = time.perf_counter()
        chosen, values = [], []
        for copy in self.copies:
            chosen.append(copy.decide(observation)["card"])
            values.append(dict(getattr(copy, "last_values", {})))
        self.copy_seconds += time.perf_counter() - start
        if any(len(v) < 2 for v in values):  # one card only, or no layout solved: no term
            return action

        def value(card: str, leave_out: int | None = None) -> float:
            used = [v[card] for j, v in enumerate(values) if j != leave_out]
            return fmean(used)

        expected = fmean(value(card, j) for j, card in enumerate(chosen))
        self.term += value(action["card"]) - expected
        self.decisions += 1
        self.differ += len({action["card"], *chosen}) > 1
        return action


def play_pair(rules: Any, deal: Board, seed: str, copies: int) -> dict[str, Any]:
    """Both rooms of a board with every bot seeded ``seed``: X's net in each, and with
    ``copies`` the control variate's term of each room."""
    out: dict[str, Any] = {"nets": [], "terms": [], "decisions": 0, "differ": 0, "seconds": 0.0, "cv_seconds": 0.0}
    for room in (1, 2):
        x: Timed = Corrected(seed, copies) if copies else Timed(make_bot(X, seed))
        y = Timed(make_bot(Y, seed))
        record = play_sides(rules, deal, x, y) if room == 1 else play_sides(rules, deal, y, x)
        delta = record["result"]["delta"]
        out["nets"].append(int(net(delta, list(delta)[room - 1])))
        out["seconds"] += x.seconds + y.seconds
        if isinstance(x, Corrected):
            out["terms"].append(x.term)
            out["decisions"] += x.decisions
            out["differ"] += x.differ
            out["cv_seconds"] += x.copy_seconds
    return out


def board(args: tuple[str, str, int, int]) -> dict[str, Any]:
    """Board ``n`` of the set played under bot seeds A and B (A with the control variate
    when ``copies``)."""
    ruleset, seed, n, copies = args
    rules = make_ruleset(ruleset)
    deal = generate_board(seed, n)  # board n of ``server.arena.dealsets.generate(seed, ...)``
    a = play_pair(rules, deal, f"{seed}/bots/A", copies)
    b = play_pair(rules, deal, f"{seed}/bots/B", 0)
    return {"board": n, "A": a, "B": b}


# ---------------------------------------------------------------- the ways
def ways_of(rows: list[dict[str, Any]]) -> dict[str, list[list[float]]]:
    """Each way's score samples per board pair, as lists over the boards: a way with two
    lists has two equally good samples of every board (their variances are averaged)."""
    a1 = [r["A"]["nets"][0] for r in rows]
    a2 = [r["A"]["nets"][1] for r in rows]
    b1 = [r["B"]["nets"][0] for r in rows]
    b2 = [r["B"]["nets"][1] for r in rows]
    sa = [p + q for p, q in zip(a1, a2)]
    sb = [p + q for p, q in zip(b1, b2)]
    return {
        "today": [sa, sb],
        "seed per room": [[p + q for p, q in zip(a1, b2)], [p + q for p, q in zip(b1, a2)]],
        "two seeds, averaged": [[(p + q) / 2 for p, q in zip(sa, sb)]],
    }


def way_variance(samples: list[list[float]], index: list[int]) -> float:
    return fmean(variance([s[i] for i in index]) for s in samples)


def within(rows: list[dict[str, Any]], index: list[int]) -> float:
    """W: the variance of a board's score over bot seeds, mean (s_A - s_B)^2 / 2."""
    d = [sum(rows[i]["A"]["nets"]) - sum(rows[i]["B"]["nets"]) for i in index]
    return fmean(x * x for x in d) / 2


def bootstrap(
    rows: list[dict[str, Any]], ways: dict[str, list[list[float]]], resamples: int, seed: int = 1
) -> dict[str, float]:
    """The standard error of each way's variance ratio to today's (and of W's share),
    resampling the boards."""
    rng = Random(seed)
    n = len(rows)
    ratios: dict[str, list[float]] = {name: [] for name in [*ways, "W share"]}
    for _ in range(resamples):
        index = [rng.randrange(n) for _ in range(n)]
        base = way_variance(ways["today"], index)
        if not base:
            continue  # every board the same score: no ratio (only with a handful of boards)
        for name, samples in ways.items():
            ratios[name].append(way_variance(samples, index) / base)
        ratios["W share"].append(within(rows, index) / base)
    return {name: (variance(r) ** 0.5 if len(r) > 1 else 0.0) for name, r in ratios.items()}


def control_variate(rows: list[dict[str, Any]], resamples: int, seed: int = 2) -> dict[str, Any] | None:
    """The control variate on run A of the boards that have it: variance of s and of
    s - term on the same boards, the term's mean (bias check) and the cost."""
    have = [r for r in rows if r["A"]["terms"]]
    if len(have) < 3:
        return None
    s = [float(sum(r["A"]["nets"])) for r in have]
    c = [sum(r["A"]["terms"]) for r in have]
    fixed = [x - t for x, t in zip(s, c)]
    n = len(have)
    rng = Random(seed)
    boot = []
    for _ in range(resamples):
        index = [rng.randrange(n) for _ in range(n)]
        spread = variance([s[i] for i in index])
        if spread:
            boot.append(variance([fixed[i] for i in index]) / spread)
    play = sum(r["A"]["seconds"] for r in have)
    extra = sum(r["A"]["cv_seconds"] for r in have)
    mean_c = fmean(c)
    cov = fmean((x - fmean(s)) * (t - mean_c) for x, t in zip(s, c))
    return {
        "boards": n,
        "var_score": variance(s),
        "var_corrected": variance(fixed),
        "ratio": variance(fixed) / variance(s),
        "ratio_se": variance(boot) ** 0.5 if len(boot) > 1 else 0.0,
        "best_beta": cov / pvariance(c) if pvariance(c) else 0.0,
        "term_mean": mean_c,
        "term_se": (variance(c) / n) ** 0.5,
        "term_sd": variance(c) ** 0.5,
        "decisions": sum(r["A"]["decisions"] for r in have),
        "differ": sum(r["A"]["differ"] for r in have),
        "cost": (play + extra) / play,
        "ms_per_decision": 1000 * play / max(1, sum(r["A"]["decisions"] for r in have)),
        "cv_ms_per_decision": 1000 * extra / max(1, sum(r["A"]["decisions"] for r in have)),
    }


def analyse(rows: list[dict[str, Any]], resamples: int) -> dict[str, Any]:
    ways = ways_of(rows)
    index = list(range(len(rows)))
    base = way_variance(ways["today"], index)
    w = within(rows, index)
    se = bootstrap(rows, ways, resamples)
    cost = {"today": 1.0, "seed per room": 1.0, "two seeds, averaged": 2.0}
    table: list[dict[str, Any]] = [
        {
            "way": name,
            "variance": way_variance(samples, index),
            "ratio": way_variance(samples, index) / base,
            "ratio_se": se[name],
            "cost": cost[name],
        }
        for name, samples in ways.items()
    ]
    table.append(
        {"way": "floor: no seed noise", "variance": base - w, "ratio": 1 - w / base, "ratio_se": se["W share"]}
    )
    cv = control_variate(rows, resamples)
    if cv is not None:
        table.append(
            {
                "way": f"control variate ({cv['boards']} boards)",
                "variance": base * cv["ratio"],  # measured on run A of its boards, as a ratio
                "ratio": cv["ratio"],
                "ratio_se": cv["ratio_se"],
                "cost": cv["cost"],
            }
        )
    for row in table:
        row["sd"] = row["variance"] ** 0.5
    mean = fmean(fmean(s) for s in ways["today"])
    return {
        "pair": f"{X}:{Y}",
        "boards": len(rows),
        "mean": mean,
        "today": base,
        "within": w,
        "within_share": w / base,
        "within_share_se": se["W share"],
        "ways": table,
        "control_variate": cv,
        "seconds_per_board": fmean(r["A"]["seconds"] + r["B"]["seconds"] for r in rows),
    }


def report(result: dict[str, Any], args: argparse.Namespace) -> None:
    print(
        f"\n{X} vs {Y}, {args.ruleset}, {result['boards']} boards of a fresh set (seed {args.seed}); "
        f"mean {result['mean']:+.2f} per board pair"
    )
    print(
        f"  variance per board pair {result['today']:.1f}; of it the bots' seed W = {result['within']:.1f}, "
        f"a share of {result['within_share']:.2f} +- {result['within_share_se']:.2f}"
    )
    print(f"  {'way':30} {'var/pair':>9} {'sd':>6} {'boards vs today':>16} {'cost':>6}")
    for row in result["ways"]:
        ratio = f"{row['ratio']:.2f} +- {row['ratio_se']:.2f}"
        cost = f"{row['cost']:.2f}" if "cost" in row else "-"
        print(f"  {row['way']:30} {row['variance']:9.1f} {row['sd']:6.2f} {ratio:>16} {cost:>6}")
    cv = result["control_variate"]
    if cv is not None:
        print(
            f"  control variate: {cv['decisions']} play decisions with a choice, the copies differed on "
            f"{cv['differ']}; term per board mean {cv['term_mean']:+.2f} +- {cv['term_se']:.2f} (sd "
            f"{cv['term_sd']:.2f}), best in-sample weight {cv['best_beta']:.2f}; "
            f"{cv['ms_per_decision']:.0f} ms of play a decision, {cv['cv_ms_per_decision']:.0f} ms more for "
            f"the copies"
        )
    cuts = [
        f"{r['way']} {100 * (1 - r['ratio']):+.1f}% at {r['cost']:.2f}x the cost"
        for r in result["ways"]
        if "cost" in r and r["way"] != "today"
    ]
    passed = [r["way"] for r in result["ways"] if "cost" in r and r["way"] != "today" and r["ratio"] <= BAR]
    print(f"  boards cut: {'; '.join(cuts)}")
    print(f"  cut by {100 * (1 - BAR):.0f}% or more (issue 28's bar): {', '.join(passed) or 'none'}")
    print(f"  {result['seconds_per_board']:.1f} s of play a board (both runs)")
    sys.stdout.flush()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--boards", type=int, default=DEFAULT_BOARDS)
    parser.add_argument("--seed", default=DEFAULT_SEED, help="the deal set's seed; the bots' seeds derive from it")
    parser.add_argument("--cv-seeds", type=int, default=DEFAULT_CV_SEEDS, help="copies per decision (0: none)")
    parser.add_argument("--cv-boards", type=int, help="boards with the control variate (default: all)")
    parser.add_argument("--ruleset", default="american62")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--resamples", type=int, default=2000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.cv_seeds == 1:
        parser.error("--cv-seeds needs 2 or more (each copy is valued by the others), or 0")
    cv_boards = args.boards if args.cv_boards is None else args.cv_boards
    jobs = [(args.ruleset, args.seed, n, args.cv_seeds if n <= cv_boards else 0) for n in range(1, args.boards + 1)]
    with ProcessPoolExecutor(args.workers) as pool:
        rows = sorted(pool.map(board, jobs), key=lambda r: r["board"])
    result = analyse(rows, args.resamples)
    if args.json:
        print(json.dumps({**result, "rows": rows}, indent=1))
    else:
        report(result, args)


if __name__ == "__main__":
    main()
