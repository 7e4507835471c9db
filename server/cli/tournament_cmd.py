"""``cinch tournament``: the main job, a duplicate tournament of bots through RQ workers."""

from __future__ import annotations

import argparse
import json

from tqdm import tqdm

from server import dealsets
from server.tournaments import DEFAULTS, FORMATS, SpecError, validate
from workers.bots import BUILTIN
from workers.driver import start, watch

from .connect import arena
from .errors import UsageError
from .report import print_results


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("tournament", help="run a duplicate round robin or gauntlet and print the results",
                       description="Run a duplicate tournament through RQ workers. Without REDIS_URL an "
                                   "embedded Redis and local workers are started and stopped.")
    p.add_argument("--bots", nargs="+", default=sorted(BUILTIN), help="round robin bots (default: all built-in)")
    p.add_argument("--format", choices=FORMATS, default="round_robin")
    p.add_argument("--candidates", nargs="+", help="gauntlet: the bots being tested")
    p.add_argument("--references", nargs="+", help="gauntlet: the bots every candidate plays")
    p.add_argument("--deals", default=DEFAULTS["deals"], help="deal set name or file (default: standard)")
    p.add_argument("--boards", type=int, default=24,
                   help="board pairs per match (default 24: the search bot takes about 1 s a pair)")
    p.add_argument("--first", type=int, default=DEFAULTS["first"], help="first board number (default 1)")
    p.add_argument("--ruleset", default=DEFAULTS["ruleset"])
    p.add_argument("--options", type=json.loads, default={}, help="ruleset options as JSON")
    p.add_argument("--chunk", type=int, default=5, help="boards per job (default 5)")
    p.add_argument("--seed", type=int, default=DEFAULTS["seed"], help="seed of the built-in bots")
    p.add_argument("--workers", type=int, help="local worker processes (default 2 embedded, 0 with REDIS_URL)")
    p.add_argument("--json", action="store_true", help="print the results as JSON")
    p.set_defaults(run=run)


def request_from(args: argparse.Namespace, deals_count: int) -> dict:
    request = {"format": args.format, "ruleset": args.ruleset, "options": args.options, "first": args.first,
               "boards": args.boards, "chunk": args.chunk, "seed": args.seed}
    if args.format == "round_robin":
        request["bots"] = args.bots
    else:
        request.update(candidates=args.candidates or [], references=args.references or [])
    return request


def run(args: argparse.Namespace) -> int:
    try:
        deals = dealsets.load(args.deals)
    except dealsets.DealSetError as exc:
        raise UsageError(str(exc)) from None
    request = request_from(args, len(deals.boards))
    try:
        validate({**request, "deals": deals.name}, BUILTIN, len(deals.boards))   # before starting anything
    except SpecError as exc:
        raise UsageError(str(exc)) from None
    with arena(args.workers) as a:
        try:
            tid = start(a.store, a.queue, request, deals)
        except ValueError as exc:     # e.g. a different deal set of the same name is stored
            raise UsageError(str(exc)) from None
        with tqdm(total=a.store.tournament(tid)["pairs_total"], unit="pair", desc=f"tournament {tid}",
                  disable=args.json) as bar:
            try:
                results = watch(a.store, a.queue, tid, a.workers,
                                on_progress=lambda done, total: bar.update(done - bar.n))
            except RuntimeError as exc:
                raise UsageError(f"{exc} (the tournament is stored: its finished board pairs are kept)") from None
        if args.json:
            print(json.dumps(results, indent=2))
        else:
            print_results(results, a.store.ratings(args.ruleset))
    return 0
