"""The blind movement's timing tell: does a job reach the entrant's first decision sooner
when other entrants met its boards before?

    python benchmarks/timing_tell.py [--jobs 30] [--boards 10] [--reference rule]

For each of ``--jobs`` fresh blind tournaments on a fresh deal set, two jobs play the
same ``--boards`` boards one after the other, as two entrants' jobs do: the first to
meet the boards, then the second. Each measures the time from the job's start to its
entrant's first decision. Prints both positions' median and spread, and the time the
par rooms took (``skipped``), which is what a job that is not first would save if it
skipped the par rooms already stored: the size of the tell before it was removed
(``server.arena.formats.blind.BlindKind._par``). Uses ``REDIS_URL`` if set, else an
embedded Redis; its keys are removed afterwards.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.append(str(ROOT / "tests"))  # for support.backend

from support.backend import fresh_store  # noqa: E402

from server.arena import dealsets, registry  # noqa: E402
from server.arena.duplicate import play_par_room  # noqa: E402
from server.arena.formats import blind, kind_of  # noqa: E402
from server.arena.formats.base import PlayContext  # noqa: E402
from server.arena.tournaments import plan_matches, validate  # noqa: E402
from server.engine import make_ruleset  # noqa: E402
from workers import luck  # noqa: E402
from workers.bots import make_bot  # noqa: E402
from workers.embedded import EmbeddedRedis  # noqa: E402


class FirstDecision:
    """The entrant: a random bot that notes when it is first asked."""

    def __init__(self) -> None:
        self.bot, self.at = make_bot("random", 1), None

    def decide(self, view):
        if self.at is None:
            self.at = time.perf_counter()
        return self.bot.decide(view)


def one(store, args, n: int, par_seconds: list[float]) -> tuple[float, float]:
    deals = dealsets.generate(f"tell-{n}", args.boards)
    store.put_dealset(deals)
    roster = registry.builtin_roster(["random", args.reference])
    spec = validate(
        {
            "bots": ["random"],
            "format": "blind",
            "boards": args.boards,
            "deals": deals.name,
            "references": [args.reference],
        },
        roster,
    )
    tid = store.create_tournament(spec, plan_matches(spec), "bench", 60_000)
    match = store.match(store.match_ids(tid)[0])
    boards = [(b, deals.board(b)) for b in range(1, args.boards + 1)]
    delays = []
    for _ in ("first", "second"):
        entrant = FirstDecision()
        agents = {"random": entrant, args.reference: make_bot(args.reference, 1)}
        ctx = PlayContext(store, make_ruleset("american62"), match, agents.__getitem__, lambda: False, luck)
        started = time.perf_counter()
        jobs = kind_of(match).play(ctx, boards)
        next(jobs)  # the first board's record: the first decision was asked on the way
        delays.append(entrant.at - started)
        list(jobs)
    return delays[0], delays[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--jobs", type=int, default=30)
    parser.add_argument("--boards", type=int, default=10, help="boards a job (default 10)")
    parser.add_argument("--reference", default="rule")
    args = parser.parse_args()
    par_seconds: list[float] = []

    def timed_par(*a):
        started = time.perf_counter()
        played = play_par_room(*a)
        par_seconds.append(time.perf_counter() - started)
        return played

    blind.play_par_room = timed_par
    url = os.environ.get("REDIS_URL")
    embedded = None if url else EmbeddedRedis(Path(tempfile.mkdtemp()))
    try:
        with fresh_store(url or embedded.acquire()) as store:
            pairs = [one(store, args, n, par_seconds) for n in range(args.jobs)]
    finally:
        if embedded is not None:
            embedded.release()
    ms = lambda xs: f"median {statistics.median(xs) * 1000:.1f} ms (min {min(xs) * 1000:.1f}, max {max(xs) * 1000:.1f})"
    first, second = [p[0] for p in pairs], [p[1] for p in pairs]
    print(f"{args.jobs} pairs of jobs of {args.boards} boards, reference {args.reference}:")
    print(f"  job start to first decision, first to meet the boards:  {ms(first)}")
    print(f"  job start to first decision, second to meet the boards: {ms(second)}")
    later = sum(s > f for f, s in pairs)
    print(f"  the second job waited longer in {later} of {args.jobs} pairs (no tell: about half)")
    per_job = [sum(par_seconds[i : i + args.boards]) for i in range(0, len(par_seconds), args.boards)]
    print(f"  par rooms a job plays (what skipping stored ones would save, the old tell): {ms(per_job)}")


if __name__ == "__main__":
    main()
