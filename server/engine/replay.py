"""Replaying a hand from its board and actions: the auditor behind ``cinch replay``.

Pure: a parsed JSON document in, a JSON-ready result out, or ``ReplayError`` carrying the
message and the index of the refused action (None for malformed input).
"""

from __future__ import annotations

from typing import Any

from server.engine.boards import Board, BoardError
from server.engine.cards import seats_for
from server.engine.hand import Hand, IllegalAction, new_hand
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


def replay(doc: Any) -> dict[str, Any]:
    """Apply every action of ``doc`` and describe the resulting hand (see docs/writing-a-bot.md#cinch-replay-the-hand-auditor)."""
    state = start_hand(doc)
    actions = doc.get("actions", [])
    if not isinstance(actions, list):
        raise ReplayError("actions must be a list of action objects", None)
    for index, action in enumerate(actions):
        try:
            state.apply(action)
        except IllegalAction as exc:
            raise ReplayError(str(exc), index) from None
    return state.describe()
