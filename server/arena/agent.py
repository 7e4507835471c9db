"""The one agent protocol: every player, built-in or remote, is ``decide(observation) -> action``.

Both are in the engine's wire format. It lives in the domain layer so that the duplicate
logic (``server.arena.duplicate``) can seat any player without knowing the runtime that
provides it (a built-in bot, a local bot, a remote seat behind the API).
"""

from __future__ import annotations

from typing import Any, Protocol

Observation = dict[str, Any]
Action = dict[str, Any]


class Agent(Protocol):
    """Anything that can take a seat: built-in bots, local bots, remote bots behind the API."""

    def decide(self, observation: Observation) -> Action: ...
