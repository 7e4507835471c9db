"""The user's own entrants (``server.arena.registry.OWN``) in the runtime: for each kind,
how a command line's reference is checked and how a worker seats it.

One table, so that the CLI's loading (``workers.driver.local_roster``) and the jobs'
seating (``workers.jobs.agent_for``) ask the kind's entry and never test its name.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from server.arena.registry import CMD, LOCAL
from server.arena.store import Store
from workers import cmd_bot, local_bot
from workers.local_bot import Source
from workers.remote import ViewedSeat


@dataclass(frozen=True)
class OwnKind:
    resolve: Callable[[str, str | None], tuple[str, Source]]
    """(display name, source) of a reference, or LocalBotError saying what is wrong."""
    seat: Callable[[Store, Source, str, dict[str, Any]], ViewedSeat]
    """The entrant's seat in a match (store, source, entrant name, match)."""


OWN_KINDS = {
    LOCAL.name: OwnKind(local_bot.resolve, lambda store, source, name, match: local_bot.LocalAgent(store, source)),
    CMD.name: OwnKind(cmd_bot.resolve, cmd_bot.CmdAgent),
}
