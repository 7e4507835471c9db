"""Human seats: a person at a table, playing through the decision protocol of remote bots.

A human seat is held by a *principal*, a name no bot can have (bot names have no dot:
``registry.NAME``), made fresh for one seat of one table. The seat's capability token
authenticates as that principal and nothing else: the decisions it can read and answer
are that seat's only (the decision store is keyed by principal), every other bot
endpoint refuses it (``server.web.api.auth``), and it is deleted when the game ends. So
the worker plays the seat as it plays any remote bot (``workers.remote.RemoteAgent``),
with the person's time per decision (``HUMAN_DECISION_MS``) and no bank, and the server's
checks, timeouts and records are those of every remote seat.
"""

from __future__ import annotations

import re
import secrets
from typing import Any

from server.arena.settings import DEFAULT_LIMITS

PREFIX = "human."
NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 _.'-]{0,31}$")
"""A person's name as shown at the table: 1 to 32 letters, digits, spaces and ``_ . ' -``."""


def new_principal() -> str:
    """A fresh principal for one human seat (random: it names no table, seat or person)."""
    return PREFIX + secrets.token_hex(8)


def is_human(holder: str | None) -> bool:
    """Whether a seat's holder (or a token's principal) is a human seat's."""
    return bool(holder) and str(holder).startswith(PREFIX)


def seat_limits(table_limits: dict[str, int], human: dict[str, Any]) -> dict[str, int]:
    """The time controls of a human seat: the table's, with the person's time per decision
    and no bank (the countdown shown is the whole time)."""
    return {**DEFAULT_LIMITS, **table_limits, "decision_ms": int(human["decision_ms"]), "bank_ms": 0}
