"""``cinch replay``: audit one hand from its board and actions (contract in docs/writing-a-bot.md#cinch-replay-the-hand-auditor)."""

from __future__ import annotations

import argparse
import json
import sys

from server.cli.errors import UsageError
from server.engine import ReplayError, replay


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "replay",
        help="replay one hand and print its state as JSON",
        description="Replay a hand from {ruleset, board, actions}; exit 2 on an illegal action.",
    )
    p.add_argument("file", help="replay input file, or - for standard input")
    p.add_argument("--pretty", action="store_true", help="indent the output")
    p.set_defaults(run=run)


def _read(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror}") from None


def run(args: argparse.Namespace) -> int:
    text = _read(args.file)
    try:
        doc = json.loads(text)
        result = replay(doc)
    except json.JSONDecodeError as exc:
        return _refuse({"error": f"input is not JSON: {exc}", "index": None})
    except ReplayError as exc:
        return _refuse(exc.to_dict())
    print(json.dumps(result, indent=2 if args.pretty else None))
    return 0


def _refuse(error: dict) -> int:
    print(json.dumps(error), file=sys.stderr)
    return 2
