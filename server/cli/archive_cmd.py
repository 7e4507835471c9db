"""``cinch export`` and ``cinch import``: finished tournaments as a file, and back.

    cinch export T [T ...] > FILE      every named finished tournament, as JSON Lines
    cinch import FILE [--skip-existing] rebuild them here (an empty arena, or one without those ids)

The file holds what the tournaments' API, pages and ratings read (``server.arena.export``;
docs/operations.md#export): no token, no token hash, nothing of a tournament that is not
finished. An import checks the whole file before writing anything and writes it in one
transaction; a tournament id already stored refuses the import (nothing is written)
unless ``--skip-existing`` leaves those as they are and imports the others. A whole
arena is backed up by Redis's own persistence (AOF or RDB), not by this.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from server.arena.export import export_lines, read_file, restore, summary
from server.cli.connect import arena


def register(sub: argparse._SubParsersAction) -> None:
    e = sub.add_parser(
        "export",
        help="write finished tournaments as JSON Lines (to rebuild them elsewhere with cinch import)",
        description="cinch export T [T ...] > FILE writes everything needed to rebuild the named finished "
        "tournaments: specs, deal sets, matches, board records, results and rated comparisons.",
    )
    e.add_argument("ids", nargs="+", metavar="T", help="tournament ids, e.g. t3")
    e.set_defaults(run=run_export)
    i = sub.add_parser(
        "import",
        help="rebuild the tournaments of a cinch export file in this arena",
        description="cinch import FILE rebuilds the tournaments of an export (their results, board records, "
        "pages and ratings as they were). Refused, changing nothing, when one of their ids is stored already.",
    )
    i.add_argument("file", type=Path, help="a file written by cinch export")
    i.add_argument(
        "--skip-existing",
        action="store_true",
        help="import the tournaments whose ids are not stored here and leave the others as they are",
    )
    i.set_defaults(run=run_import)


def run_export(args: argparse.Namespace) -> int:
    with arena(args.config, None, plays=False) as a:
        lines = export_lines(a.store, args.ids, args.config.deals_dir)
    sys.stdout.write("".join(line + "\n" for line in lines))
    return 0


def run_import(args: argparse.Namespace) -> int:
    archive = read_file(args.file)  # the whole file checked before the arena is even opened
    with arena(args.config, None, plays=False) as a:
        written = restore(a.store, archive, args.config.deals_dir, args.skip_existing)
    for line, t in zip(summary(archive), archive.tournaments):
        print(f"imported {line}" if t.id in written else f"skipped {t.id}: already stored here")
    return 0
