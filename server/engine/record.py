"""The one record of a played hand: a duplicate room, a table hand and a replay input alike.

A record holds what the hand started from (ruleset, options, board, the game scores
*before* it, or null for a duplicate board: played in full from zeros with no target, so
that a replay does not stop it at a target the play ignored), what was done (every action, and which ones replaced a faulting seat's
answer) and what it came to (``result``). It is itself a valid ``cinch replay`` input:
the replay reads ruleset, options, board, scores and actions and ignores the rest, so
anyone can audit a stored room or table hand as it is served. The scores after a hand
are never stored: they are ``scores`` + ``result.delta``.
"""

from __future__ import annotations

from typing import Any

from server.engine.hand import Hand


def hand_record(hand: Hand, faults: list[dict[str, Any]]) -> dict[str, Any]:
    """The record of a complete ``hand``; ``faults`` lists the actions that replaced a
    seat's answer (``{"seat", "index", "error"}``)."""
    won = [0] * len(hand.sides)
    for trick in hand.tricks:
        if trick.winner is not None:
            won[hand.side_of[trick.winner]] += 1
    return {
        "ruleset": hand.rules.name,
        "options": hand.rules.options(),
        "board": hand.board.to_dict(),
        "scores": hand.side_dict(hand.scores) if hand.in_game else None,
        "actions": hand.actions,
        "faults": faults,
        "result": {
            "contract": hand.contract_dict(),
            "trump": hand.trump_name(),
            "tricks": hand.side_dict(won),
            "points": hand.side_dict(hand.points()),
            "delta": hand.side_dict(hand.delta()),
        },
    }


def scores_after(record: dict[str, Any]) -> dict[str, int]:
    """The game scores once the recorded hand is scored: before plus the hand's change.
    (On the hand that ends a game of the All Fours family the game stops at the item that
    reaches the target, ``Hand.settle``: the game's own final scores are then the word.)"""
    delta = record["result"]["delta"]
    return {side: before + delta[side] for side, before in record["scores"].items()}
