"""``cinch deals``: generate and verify reproducible deal-set files."""

from __future__ import annotations

import argparse
from pathlib import Path

from .. import dealsets
from .errors import UsageError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("deals", help="generate or verify deal sets")
    actions = p.add_subparsers(dest="deals_command", required=True, metavar="ACTION")
    gen = actions.add_parser("generate", help="write a deal set made by the canonical generator")
    gen.add_argument("--seed", required=True, help="the set's seed; anyone can rebuild the set from it")
    gen.add_argument("--boards", type=int, required=True, help="number of boards")
    gen.add_argument("--name", help="the set's name (default: the seed)")
    gen.add_argument("--out", type=Path, help="output file (default: SEED.jsonl in the current folder)")
    gen.set_defaults(run=run_generate)
    ver = actions.add_parser("verify", help="validate a deal-set file and check it against its seed")
    ver.add_argument("deals", help="a deal-set file, or the name of a set in deals/")
    ver.set_defaults(run=run_verify)


def run_generate(args: argparse.Namespace) -> int:
    if args.boards < 1:
        raise UsageError("--boards must be at least 1")
    out = args.out or Path(f"{args.seed}.jsonl")
    try:
        digest = dealsets.write(dealsets.generate(args.seed, args.boards, args.name), out)
    except OSError as exc:
        raise UsageError(f"cannot write {out}: {exc.strerror}") from None
    print(f"wrote {args.boards} boards to {out}\nsha256 {digest}")
    return 0


def run_verify(args: argparse.Namespace) -> int:
    try:
        deals = dealsets.load(args.deals)
    except dealsets.DealSetError as exc:
        raise UsageError(str(exc)) from None
    bad = dealsets.mismatches(deals)
    if bad:
        raise UsageError(f"{len(bad)} boards differ from the generator for seed {deals.seed!r}, first: {bad[0]}")
    print(f"{deals.name}: {len(deals.boards)} valid boards, all rebuilt from seed {deals.seed!r}")
    return 0
