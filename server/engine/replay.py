"""Replaying a hand from its board and actions: the auditor behind ``cinch replay``.

Pure: a parsed JSON document in, a JSON-ready result out, or ``ReplayError`` carrying the
message and the index of the refused action (None for malformed input). ``audit`` holds a
stored hand record (``server.engine.record``) to the same replay: what ``cinch deals
verify --server`` asks of every served room.
"""

from __future__ import annotations

import json
from typing import Any

from server.engine.boards import Board, BoardError
from server.engine.cards import seats_for
from server.engine.hand import DONE, Hand, IllegalAction, new_hand
from server.engine.record import hand_record
from server.engine.rulesets import DEFAULT_RULESET, RulesetError, game_spec, make_ruleset


class ReplayError(ValueError):
    def __init__(self, message: str, index: int | None):
        super().__init__(message)
        self.index = index

    def to_dict(self) -> dict[str, Any]:
        return {"error": str(self), "index": self.index}


def _scores(data: Any, sides: tuple[str, ...]) -> tuple[int, ...] | None:
    if data is None:
        return None
    if (
        not isinstance(data, dict)
        or set(data) != set(sides)
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in data.values())
    ):
        keys = ", ".join(f'"{side}": n' for side in sides)
        raise ReplayError(f"scores must be an object {{{keys}}} of whole numbers", None)
    return tuple(data[side] for side in sides)


def start_hand(doc: Any) -> Hand:
    """The hand a replay document describes, before any action, or ``ReplayError``: a
    duplicate board without ``scores``, a hand of a game at ``scores`` with them."""
    if not isinstance(doc, dict):
        raise ReplayError("input must be a JSON object with ruleset, board and actions", None)
    try:
        rules = make_ruleset(doc.get("ruleset", DEFAULT_RULESET), doc.get("options"))
        spec = game_spec(rules)
        sides = spec.sides(rules.players)[0]
        board = Board.from_dict(doc.get("board"), seats_for(rules.players), spec.deck)
    except (RulesetError, BoardError) as exc:
        raise ReplayError(str(exc), None) from None
    return new_hand(rules, board, _scores(doc.get("scores"), sides))


def replayed(doc: Any) -> Hand:
    """The hand ``doc`` describes after every one of its actions, or ``ReplayError``
    naming the first one refused."""
    state = start_hand(doc)
    actions = doc.get("actions", [])
    if not isinstance(actions, list):
        raise ReplayError("actions must be a list of action objects", None)
    for index, action in enumerate(actions):
        try:
            state.apply(action)
        except IllegalAction as exc:
            raise ReplayError(str(exc), index) from None
    return state


def replay(doc: Any) -> dict[str, Any]:
    """Apply every action of ``doc`` and describe the resulting hand (see docs/writing-a-bot.md#cinch-replay-the-hand-auditor)."""
    return replayed(doc).describe()


def audit(record: Any) -> None:
    """Check a stored hand record against its own replay, so that a changed card or a
    changed score cannot pass for a played hand: every action legal in turn, the hand
    over after the last, and the stored ``result`` the one the replay comes to.
    ``ReplayError`` says what is wrong: an illegal action with its index, or (index
    None) the hand left unfinished or the first result field that differs."""
    hand = replayed(record)
    count = len(hand.actions)
    if hand.phase != DONE:
        raise ReplayError(f"the hand is not over after its {count} actions ({hand.seat_to_act()} is to act)", None)
    expected = hand_record(hand, [])["result"]
    stored = record.get("result")
    if not isinstance(stored, dict):
        raise ReplayError("the record has no result", None)
    for key, value in expected.items():
        if stored.get(key) != value:
            raise ReplayError(
                f"the stored result differs from the replay of its {count} actions: "
                f"{key} {json.dumps(stored.get(key))}, the replay gives {json.dumps(value)}",
                None,
            )
