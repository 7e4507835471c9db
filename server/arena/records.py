"""Hand records stored by an older version, read as the one record shape of today.

Before ``server.engine.record``, a duplicate room was ``{"replay": {ruleset, options,
board, actions}, contract, trump, tricks, points, delta, faults}`` and a table hand
``{board, actions, delta, scores, ...}`` with ``scores`` the game score *after* the hand.
The store passes every room and table hand it reads through here, so tournaments and
tables played before the change still show; a record already in today's shape (a room
without ``replay``, a table hand with a ``result``) is returned as it is. Old records were all four-seat Cinch hands.
"""

from __future__ import annotations

from typing import Any

RESULT = ("contract", "trump", "tricks", "points", "delta")


def current_room(room: dict[str, Any]) -> dict[str, Any]:
    """A duplicate room (a board pair's or a par room) in today's shape; anything the old
    room held next to its hand (its ``luck``) is kept next to it. A room is a duplicate
    board, so its ``scores`` are null: rooms stored with 0-0 would replay as a hand of a
    game, which in the All Fours family stops at the target (docs/formats.md)."""
    if "replay" not in room:
        return room if room.get("scores") is None else {**room, "scores": None}
    replay = room["replay"]
    kept = {k: v for k, v in room.items() if k not in ("replay", "faults", *RESULT)}
    return {
        "ruleset": replay["ruleset"],
        "options": replay["options"],
        "board": replay["board"],
        "scores": None,
        "actions": replay["actions"],
        "faults": room.get("faults", []),
        "result": {k: room[k] for k in RESULT},
        **kept,
    }


def current_pair(record: dict[str, Any]) -> dict[str, Any]:
    """A stored board record with its rooms in today's shape."""
    return {**record, "rooms": [current_room(room) for room in record["rooms"]]}


def current_table_hand(hand: dict[str, Any], ruleset: str, options: dict[str, Any]) -> dict[str, Any]:
    """A table hand in today's shape: the table's ruleset and options, the scores before
    the hand (the old record's scores after it, less its change), and its result from
    the public view of its end."""
    if "result" in hand:
        return hand
    public, delta = hand["public"], hand["delta"]
    tricks = {side: sum(1 for t in public["tricks"] if t["winner"] in side) for side in delta}
    kept = {k: v for k, v in hand.items() if k not in ("board", "actions", "faults", "scores", "delta")}
    return {
        "ruleset": ruleset,
        "options": options,
        "board": hand["board"],
        "scores": {side: after - delta[side] for side, after in hand["scores"].items()},
        "actions": hand["actions"],
        "faults": hand.get("faults", []),
        "result": {
            "contract": public["contract"],
            "trump": public["trump"],
            "tricks": tricks,
            "points": public["points"],
            "delta": delta,
        },
        **kept,
    }
