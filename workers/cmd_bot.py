"""Cmd entrants: a program in any language, played in this machine's workers by the line protocol.

An entrant named ``cmd:COMMAND`` (``server.arena.registry.CMD``) is a child process
speaking ``sdk.line``'s protocol (docs/line-protocol.md). ``resolve`` checks the command at
once (not empty, its quotes balanced, its program found) so that a typo is a usage error
and not a tournament of faults; its *source* is the command with the absolute directory
it was given in, stored with the tournament, so that every worker and a later ``resume``
run the same command in the same place.

In a worker the program takes its seat as a ``CmdAgent``, a ``JudgedSeat`` like a local
bot: it sees each room through the remote seat's view, gets the decision object a remote
bot is served (a fresh opaque id, the observation, the legal actions and the deadline of
the match's per-decision limit, ``limits.decision_ms``), and its answer is judged as the
API judges a remote one. One program per seat, kept for the job's decisions (starting an
interpreter per decision would eat the time limit), stopped when the job ends
(``close``) and dying with its worker (PR_SET_PDEATHSIG, ``workers.local``).

Faults are a remote bot's: a program that crashes, writes garbage or stays silent past
the limit raises to the match runner (the default action, and a fault recorded) and is
started again for the next decision. Silence is a timeout of the match, and past
``max_timeouts`` the seat is faulty and no longer asked, so a hung program cannot hold a
match for the whole limit at every decision.
"""

from __future__ import annotations

import os
import secrets
import time
from typing import Any

from sdk.line import LineError, LineProgram, LineTimeout, parse_command
from server.arena.registry import CMD, CMD_REFERENCE
from server.arena.settings import DEFAULT_LIMITS
from server.arena.store import Store
from workers.local import die_with_parent
from workers.local_bot import JudgedSeat, LocalBotError, Source
from workers.remote import DecisionTimeout


class CmdBotError(LocalBotError):
    """A cmd entrant that cannot be run; the message says why."""


def resolve(reference: str, cwd: str | None = None) -> tuple[str, Source]:
    """The display name (the reference, its command trimmed) and source of a cmd entrant,
    after checking that its program exists; raises CmdBotError saying what is wrong."""
    found = CMD_REFERENCE.match(reference)
    if found is None:
        raise CmdBotError(f"bot {reference!r}: a command bot is named cmd:COMMAND")
    command = found["command"].strip()
    if "#" in command:  # an entrant's id ends at its "#" (a progressive entry's number)
        raise CmdBotError(f"bot {reference!r}: a command may not hold '#'; put it in a script and run that")
    root = os.path.abspath(cwd or os.getcwd())
    try:
        parse_command(command, root)
    except LineError as exc:
        raise CmdBotError(f"bot {reference!r}: {exc}") from None
    return f"cmd:{command}", {"kind": CMD.name, "command": command, "cwd": root}


class CmdAgent(JudgedSeat):
    """A line program in one seat of a match (see the module docstring)."""

    def __init__(self, store: Store, source: Source, name: str, match: dict[str, Any]):
        super().__init__(store)
        self.name, self.match_id = name, match["id"]
        self.limits = {**DEFAULT_LIMITS, **(match.get("limits") or {})}
        argv = parse_command(source["command"], source["cwd"])
        self.program = LineProgram(argv, source["cwd"], preexec_fn=die_with_parent())
        self.faulty = store.is_faulty(self.match_id, name)

    def _answer(self, observation: dict[str, Any]) -> Any:
        if self.faulty:
            raise DecisionTimeout(f"{self.name} is faulty in this match: default action", faulty=True)
        limit = self.limits["decision_ms"]
        decision = {
            "id": secrets.token_hex(16),
            "observation": observation,
            "legal": observation["legal"],
            "deadline": time.time() + limit / 1000,
            "deadline_in_ms": limit,
        }
        try:
            return self.program.ask(decision, limit / 1000)
        except LineTimeout as exc:
            if self.store.add_timeout(self.match_id, self.name) > self.limits["max_timeouts"]:
                self.store.mark_faulty(self.match_id, self.name)
                self.faulty = True
            raise DecisionTimeout(str(exc)) from None

    def close(self) -> None:
        self.program.close()
