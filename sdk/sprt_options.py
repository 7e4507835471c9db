"""The sequential test's command-line options, defined once for every ``cinch`` command
that takes ``--sprt``: the local ones (``cinch compare``, ``cinch tournament``, through
``server.cli.sprt_options``, which hands in the arena's defaults) and ``cinch remote``
(which imports no server module, so its defaults are the server's: a setting left out
of the request is filled in by the server).

Standard library only, like the rest of the SDK.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from typing import Any

SETTINGS = ("delta0", "delta1", "alpha", "beta")
"""The settings of the ``sprt`` object of a tournament request (docs/statistics.md)."""

_HELP = {
    "delta0": "H0: X's mean edge in points per board",
    "delta1": "H1: X's mean edge in points per board",
    "alpha": "chance of accepting H1 when H0 holds",
    "beta": "chance of accepting H0 when H1 holds",
}


def add_sprt_arguments(
    p: argparse.ArgumentParser, cap: str, defaults: Mapping[str, float] | None = None
) -> argparse._ArgumentGroup:
    """``--sprt`` and its settings, in a group whose description says what caps the test
    (``cap``); returned so a command can add options of its own to it. With ``defaults``
    each setting has that default; without, a setting not given is None and left to the
    server."""
    s = p.add_argument_group("sequential test", f"with --sprt, stop as soon as the evidence decides; {cap}")
    s.add_argument("--sprt", action="store_true", help="run a sequential probability ratio test")
    shown = "the server's" if defaults is None else "%(default)g"
    for name in SETTINGS:
        s.add_argument(
            f"--{name}",
            type=float,
            default=None if defaults is None else defaults[name],
            help=f"{_HELP[name]} (default {shown})",
        )
    return s


def sprt_request(args: argparse.Namespace) -> dict[str, Any]:
    """The request's ``sprt`` object from the options: ``{"sprt": {...}}`` with every
    setting that has a value (the server fills in the others), or nothing without ``--sprt``."""
    if not args.sprt:
        return {}
    return {"sprt": {name: getattr(args, name) for name in SETTINGS if getattr(args, name) is not None}}


def settings_without_sprt(args: argparse.Namespace) -> list[str]:
    """The settings given (not None) although ``--sprt`` was not: for commands whose
    settings default to None, so that a forgotten ``--sprt`` is an error, not ignored."""
    return [] if args.sprt else [f"--{name}" for name in SETTINGS if getattr(args, name) is not None]


def add_max_boards(group: argparse._ArgumentGroup, default: str) -> None:
    """``--max-boards``: the most boards the test plays, another name for ``--boards`` with ``--sprt``."""
    group.add_argument(
        "--max-boards", type=int, help=f"the most boards the test plays (default {default}; --boards says the same)"
    )


def board_count(boards: int | None, max_boards: int | None, sprt: bool) -> int | None:
    """How many boards: ``--boards``, or with ``--sprt`` ``--max-boards``, its clear name
    there (both may be given only when they agree); None when neither is given.
    ``ValueError`` with the message for the user otherwise."""
    if max_boards is None:
        return boards
    if not sprt:
        raise ValueError(
            "--max-boards is the most boards the --sprt test plays; without --sprt, "
            "--boards says how many boards are compared"
        )
    if boards is not None and boards != max_boards:
        raise ValueError(
            f"--boards {boards} and --max-boards {max_boards} disagree: with --sprt "
            "both name the most boards played; give one of them"
        )
    return max_boards
