"""The sequential test's command-line options, shared by ``cinch compare`` and ``cinch tournament``."""

from __future__ import annotations

import argparse
from typing import Any

from server.arena.tournaments import SPRT_SETTINGS


def add_sprt_arguments(p: argparse.ArgumentParser, cap: str) -> argparse._ArgumentGroup:
    """``--sprt`` and its settings, in a group whose description says what caps the test
    (``cap``); returned so a command can add options of its own to it."""
    s = p.add_argument_group("sequential test", f"with --sprt, stop as soon as the evidence decides; {cap}")
    s.add_argument("--sprt", action="store_true", help="run a sequential probability ratio test")
    s.add_argument(
        "--delta0",
        type=float,
        default=SPRT_SETTINGS["delta0"],
        help="H0: X's mean edge in points per board (default %(default)g)",
    )
    s.add_argument(
        "--delta1",
        type=float,
        default=SPRT_SETTINGS["delta1"],
        help="H1: X's mean edge in points per board (default %(default)g)",
    )
    s.add_argument(
        "--alpha",
        type=float,
        default=SPRT_SETTINGS["alpha"],
        help="chance of accepting H1 when H0 holds (default %(default)g)",
    )
    s.add_argument(
        "--beta",
        type=float,
        default=SPRT_SETTINGS["beta"],
        help="chance of accepting H0 when H1 holds (default %(default)g)",
    )
    return s


def sprt_request(args: argparse.Namespace) -> dict[str, Any]:
    """The request's ``sprt`` object from the options: ``{"sprt": {...}}``, or nothing without ``--sprt``."""
    return {"sprt": {name: getattr(args, name) for name in SPRT_SETTINGS}} if args.sprt else {}
