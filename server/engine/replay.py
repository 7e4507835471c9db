"""Replaying a hand from its board and actions: the auditor behind ``cinch replay``.

Pure: a parsed JSON document in, a JSON-ready result out, or ``ReplayError`` carrying the
message and the index of the refused action (None for malformed input).
"""

from __future__ import annotations

from typing import Any

from .boards import Board, BoardError
from .cards import SEATS, SUITS, names_of
from .rulesets import DEFAULT_RULESET, RulesetError, make_ruleset
from .scoring import bidder_goes_out_next
from .state import DONE, HandState, IllegalAction


class ReplayError(ValueError):
    def __init__(self, message: str, index: int | None):
        super().__init__(message)
        self.index = index

    def to_dict(self) -> dict[str, Any]:
        return {"error": str(self), "index": self.index}


def _scores(data: Any) -> tuple[int, int]:
    if data is None:
        return (0, 0)
    if (not isinstance(data, dict) or set(data) != {"NS", "EW"}
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in data.values())):
        raise ReplayError("scores must be an object {\"NS\": n, \"EW\": n} of whole numbers", None)
    return (data["NS"], data["EW"])


def start_hand(doc: Any, bidder_goes_out: bool | None = None) -> HandState:
    """The hand a replay document describes, before any action, or ``ReplayError``."""
    if not isinstance(doc, dict):
        raise ReplayError("input must be a JSON object with ruleset, board and actions", None)
    try:
        rules = make_ruleset(doc.get("ruleset", DEFAULT_RULESET), doc.get("options"))
        board = Board.from_dict(doc.get("board"))
    except (RulesetError, BoardError) as exc:
        raise ReplayError(str(exc), None) from None
    scores = _scores(doc.get("scores"))
    if bidder_goes_out is None:
        bidder_goes_out = bidder_goes_out_next(rules, scores)
    return HandState(rules, board, scores, bidder_goes_out)


def replay(doc: Any) -> dict[str, Any]:
    """Apply every action of ``doc`` and describe the resulting hand (see README)."""
    state = start_hand(doc)
    actions = doc.get("actions", [])
    if not isinstance(actions, list):
        raise ReplayError("actions must be a list of action objects", None)
    for index, action in enumerate(actions):
        try:
            state.apply(action)
        except IllegalAction as exc:
            raise ReplayError(str(exc), index) from None
    return describe(state)


def describe(state: HandState) -> dict[str, Any]:
    """The replay result for a state: the full, audit view (every hand after the draw)."""
    done = state.phase == DONE
    after = state.hands_after_draw
    return {
        "complete": done,
        "phase": state.phase,
        "to_act": state.seat_to_act(),
        "legal": state.legal_actions(),
        "contract": state.contract_dict(),
        "trump": None if state.trump is None else SUITS[state.trump],
        "hands_after_draw": None if after is None else {SEATS[s]: names_of(after[s]) for s in range(4)},
        "tricks": state.trick_dicts(),
        "points": state.side_dict(state.points()) if done else None,
        "delta": state.side_dict(state.delta()) if done else None,
    }
