"""How good the search bot's early-trick cards are, against a reference search, per decision.

    python benchmarks/search_quality.py [--first 601] [--boards 40] [--tricks 2] [--reference 48]
                                        [--set NAME=VALUE ...]

A match against ``rule`` measures strength with an interval of more than a point per
board pair on 400 boards, too coarse to choose between budget settings. This looks at
the decisions themselves: the search bot (N/S) plays ``rule`` on the boards, and at
each of its play decisions of the first ``--tricks`` tricks with a real choice a
reference search (``--reference`` layouts, every layout solved exactly, no node budget,
its own sampling seed) values every card; a setting's *regret* on a decision is the
reference's best value minus the value of the card the setting picks (in the seat's
side's net points). The default setting and each ``--set`` (module constants of
``workers.bots.search_bot``, e.g. ``NODES_PER_SAMPLE=1024``; several with commas)
are scored on the same decisions: mean regret, how often they pick the reference's
card, and their median and largest solver nodes.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from server.arena import dealsets  # noqa: E402
from server.arena.tournaments import public_deals  # noqa: E402
from server.engine import DONE, make_ruleset, new_hand, observation  # noqa: E402
from workers.bots import (
    RuleBot,  # noqa: E402
    search_bot,  # noqa: E402
)


def decisions(first: int, boards: int, tricks: int) -> list[dict]:
    """The search bot's early play observations with more than one legal card."""
    rules = make_ruleset("american62")
    deals = dealsets.load(public_deals(4))
    bot, rule = search_bot.SearchPlayBot(seed=1), RuleBot(seed=2)
    found = []
    for n in range(first, first + boards):
        state = new_hand(rules, deals.board(n))
        while state.phase != DONE:
            obs = observation(state, state.seats[state.to_act])
            mine = state.to_act % 2 == 0
            if mine and obs["phase"] == "play" and len(obs["legal"]) > 1 and trick_of(obs)[0] <= tricks:
                found.append(obs)
            state.apply((bot if mine else rule).decide(obs))
    return found


def trick_of(obs: dict) -> tuple[int, str]:
    """(trick number, "lead" or "follow") of a play decision."""
    done = sum(t["winner"] is not None for t in obs["tricks"])
    leading = not obs["tricks"] or obs["tricks"][-1]["winner"] is not None
    return done + 1, "lead" if leading else "follow"


@contextmanager
def with_constants(settings: dict[str, str]) -> Iterator[None]:
    """Module constants of search_bot set for the block, then put back."""
    old = {k: getattr(search_bot, k) for k in settings}
    for k, v in settings.items():
        setattr(search_bot, k, type(old[k])(v))
    try:
        yield
    finally:
        for k, v in old.items():
            setattr(search_bot, k, v)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--first", type=int, default=601)
    parser.add_argument("--boards", type=int, default=40)
    parser.add_argument("--tricks", type=int, default=2, help="decisions of the first N tricks")
    parser.add_argument("--reference", type=int, default=48, help="layouts of the reference search")
    parser.add_argument("--set", action="append", default=[], help="NAME=VALUE[,NAME=VALUE]: a setting to score")
    args = parser.parse_args()
    found = decisions(args.first, args.boards, args.tricks)
    print(
        f"{len(found)} decisions (tricks 1-{args.tricks} with a choice, boards {args.first}.."
        f"{args.first + args.boards - 1}); reference: {args.reference} exact layouts each",
        flush=True,
    )
    key = hashlib.sha256(json.dumps([args.reference, found], sort_keys=True).encode()).hexdigest()[:16]
    cache = Path(tempfile.gettempdir()) / f"search-quality-{key}.json"
    if cache.exists():  # the reference is the slow part: exact values of the same decisions do not change
        reference = json.loads(cache.read_text())
    else:
        reference = []
        with with_constants({"NODES_PER_SAMPLE": str(1 << 40)}):
            ref_bot = search_bot.SearchPlayBot(seed="reference", samples=args.reference)
            for obs in found:
                ref_bot.decide(obs)
                reference.append(dict(ref_bot.last_values))
        cache.write_text(json.dumps(reference))
    settings = [{}] + [dict(pair.split("=", 1) for pair in s.split(",")) for s in args.set]
    for setting in settings:
        regrets: dict[tuple[int, str], list[float]] = {}
        agree, nodes, times = 0, [], []
        with with_constants(setting):
            bot = search_bot.SearchPlayBot(seed=1)
            for obs, values in zip(found, reference):
                start = time.perf_counter()
                card = bot.decide(obs)["card"]
                times.append((time.perf_counter() - start) * 1000)
                nodes.append(bot.last_nodes)
                if not values:
                    continue
                best = max(values.values())
                regrets.setdefault(trick_of(obs), []).append(best - values[card])
                agree += values[card] == best
        label = ",".join(f"{k}={v}" for k, v in setting.items()) or "default"
        every = [r for rs in regrets.values() for r in rs]
        by_trick = ", ".join(
            f"trick {t} {kind}s {statistics.fmean(rs):.3f} (n={len(rs)})" for (t, kind), rs in sorted(regrets.items())
        )
        print(
            f"  {label}: mean regret {statistics.fmean(every):.3f} ({by_trick}); picks the reference's best "
            f"{agree}/{len(every)}; nodes median {statistics.median(nodes):.0f} max {max(nodes)}; "
            f"ms median {statistics.median(times):.0f} max {max(times):.0f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
