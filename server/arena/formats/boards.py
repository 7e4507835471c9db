"""One board record shape for every format and table size, read from whatever the store holds.

Stored records differ by kind (a pair's ``score`` and two rooms; a field's or table's
``entrant_scores`` and rooms that say which unit each entrant held; a blind entrant's
``side`` and its room beside the par room), and records stored by older versions differ
again (``server.arena.records`` brings their hands up to date). ``board_view`` reads any
of them as a ``Board``: per room, who sat at each seat, the hand record and each unit's
net; per board, each scored entrant's score and what it is measured against. Pages and
exports read this one shape instead of re-deriving it per format.
"""

from __future__ import annotations

from typing import Any, TypedDict

from server.arena import formats
from server.arena.duplicate import as_number, nets
from server.arena.formats.base import Match, Record


class Room(TypedDict):
    label: str
    """``room 1``, ``room 2`` ...; ``par room`` for a blind movement's reference room."""
    seats: dict[str, str]
    """Who held each seat: seat name -> entrant (a reference bot in a par room)."""
    hand: dict[str, Any]
    """The room's hand record (``server.engine.record``): a complete ``cinch replay`` input."""
    nets: dict[str, int | float]
    """Each unit's net in the room: its score change less the others' mean change."""


class Board(TypedDict):
    board: int
    rooms: list[Room]
    scores: dict[str, int | float]
    """Each scored entrant's board score."""
    against: str
    """What the scores are measured against, in words."""


def board_view(match: Match, record: Record) -> Board:
    """A stored board record of ``match`` in the one shape (see the module docstring)."""
    kind = formats.kind_of(match)
    rooms: list[Room] = []
    for i, (room, seats) in enumerate(zip(record["rooms"], kind.seatings(match, record))):
        delta = room["result"]["delta"]
        rooms.append(
            {
                "label": kind.room_label(record, i),
                "seats": seats,
                "hand": room,
                "nets": {u: as_number(n) for u, n in zip(delta, nets(delta, list(delta)))},
            }
        )
    return {
        "board": record["board"],
        "rooms": rooms,
        "scores": kind.board_scores(match, record),
        "against": kind.against,
    }
