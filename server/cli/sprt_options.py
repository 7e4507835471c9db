"""The sequential test's command-line options, shared by ``cinch compare`` and ``cinch tournament``.

The definitions are the SDK's (``sdk.sprt_options``), which ``cinch remote`` uses too; here
they get the arena's defaults, so a local request always carries every setting.
"""

from __future__ import annotations

import argparse

from sdk.sprt_options import add_sprt_arguments as _add_sprt_arguments
from sdk.sprt_options import sprt_request
from server.arena.tournaments import SPRT_SETTINGS

__all__ = ["add_sprt_arguments", "sprt_request"]


def add_sprt_arguments(p: argparse.ArgumentParser, cap: str) -> argparse._ArgumentGroup:
    """``--sprt`` and its settings with the arena's defaults, in a group whose description
    says what caps the test (``cap``); returned so a command can add options of its own to it."""
    return _add_sprt_arguments(p, cap, SPRT_SETTINGS)
