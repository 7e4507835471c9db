"""The order a match plays its boards in (docs/fair-play.md#no-order-to-read).

A bot is never told which board it holds, but if it met boards in board order its k-th
hand would be board k; the public generator fixes board n's dealer, so comparing it with
the dealer it is shown would undo the secret rotation of the table and give its real
seat. A match with a remote entrant therefore plays its boards in a secret permutation of
its own (per entrant in a blind movement, per table in Progressive: each is a match),
keyed by the arena's secret and the match's id. Matches of built-in bots only keep board
order, so their results stay reproducible from the deal set and the bots' seeds.

The order is a function of the store alone, so every process that needs it (the job
that plays the boards, the sequential test that reads their scores as they were played)
finds the same one.
"""

from __future__ import annotations

import hashlib
import hmac
from typing import Any


def secret_order(match: dict[str, Any]) -> bool:
    """Whether the match hides its order: set at creation when an entrant is remote."""
    return bool(match.get("secret_order"))


def play_order(secret: bytes, match: dict[str, Any]) -> list[int]:
    """The match's boards in the order it plays them."""
    boards = list(range(match["first"], match["last"] + 1))
    if not secret_order(match):
        return boards

    def rank(number: int) -> bytes:
        return hmac.new(secret, f"order/{match['id']}/{number}".encode(), hashlib.sha256).digest()

    return sorted(boards, key=rank)
