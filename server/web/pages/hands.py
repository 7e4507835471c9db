"""A played hand as a timeline a template can draw: deal, bidding, draw, then trick by trick.

Pure (no Flask, no I/O). Every fact comes from driving the engine's own ``HandState``
through the hand's actions one by one, so a page can never tell a different story than
``cinch replay`` does: the trick winners, the points each side takes in a trick (the
engine's running ``taken``), the hand's points and score change are the engine's. The
one thing the engine does not keep per card is where each counting card of a trick went;
that is read from the engine's tables (which cards count, which is Low) and the
ruleset's ``low_to_holder``, and the tests check it sums to the engine's points.
"""

from __future__ import annotations

from typing import Any

from server.engine import CARD_NAMES, DONE, PLAY, SEATS, SIDES, SUITS, HandState, IllegalAction, ReplayError
from server.engine.cards import names_of
from server.engine.replay import start_hand
from server.engine.scoring import made_contract
from server.engine.tricks import Trick


def side_of(seat: int) -> str:
    return SIDES[seat & 1]


def _by_seat(masks: tuple[int, ...] | list[int]) -> dict[str, list[str]]:
    return {SEATS[s]: names_of(masks[s]) for s in range(4)}


def _winner(trick: Trick) -> int:
    """The seat that won a trick the timeline draws: it draws finished tricks only."""
    if trick.winner is None:
        raise ValueError("the timeline draws finished tricks only")
    return trick.winner


def _counting(state: HandState, trick_index: int) -> list[dict[str, Any]]:
    """The counting cards that fell in a trick: who played each, and which side scored it."""
    tables, trick = state.trump_tables(), state.tricks[trick_index]
    out = []
    for seat, card, _extras in trick.plays:  # extras are never counting cards (the engine refuses them)
        points = tables.points[card]
        if points:
            to_holder = card == tables.low_card and state.rules.low_to_holder
            out.append(
                {
                    "card": CARD_NAMES[card],
                    "seat": SEATS[seat],
                    "points": points,
                    "to": side_of(seat if to_holder else _winner(trick)),
                }
            )
    return out


def _trick(state: HandState, index: int, held: dict[str, list[str]], before: list[int]) -> dict[str, Any]:
    trick = state.tricks[index]
    taken = state.taken
    return {
        **trick.to_dict(),
        "number": index + 1,
        "side": side_of(_winner(trick)),
        "held": held,
        "counting": _counting(state, index),
        "points": {SIDES[i]: taken[i] - before[i] for i in (0, 1)},
        "running": {SIDES[i]: taken[i] for i in (0, 1)},
    }


def _draws(state: HandState, robbed: bool) -> list[dict[str, Any]]:
    """Each seat's part of the draw in turn: kept, discarded, drawn; the dealer's rob."""
    out = []
    for record in state.draws:
        seat = record.seat
        out.append(
            {
                "seat": SEATS[seat],
                "kept": names_of(state.dealt[seat] & ~record.discarded),
                "discarded": names_of(record.discarded),
                "drawn": names_of(record.received),
                "shown": names_of(record.shown),
                "left_in_stock": names_of(record.left_in_stock),
                "rob": robbed and seat == state.dealer,
            }
        )
    return out


def timeline(doc: Any) -> dict[str, Any]:
    """The timeline of a complete hand from its replay document (``cinch replay``'s input),
    or ``ReplayError`` for a malformed, illegal or unfinished one."""
    state = start_hand(doc)
    if not isinstance(state, HandState):  # boards.py asks only for games whose GameSpec.timeline is set
        raise ReplayError(f"the step-through draws Cinch hands only, not {state.rules.name}", None)
    actions = doc.get("actions", [])
    if not isinstance(actions, list):
        raise ReplayError("actions must be a list of action objects", None)
    tricks: list[dict[str, Any]] = []
    held: dict[str, list[str]] = {}
    before: list[int] = [0, 0]
    for index, action in enumerate(actions):
        if state.phase == PLAY and not state.tricks[-1].plays:
            held, before = _by_seat(state.hands), state.taken.copy()
        try:
            state.apply(action)
        except IllegalAction as exc:
            raise ReplayError(str(exc), index) from None
        current = len(tricks)
        if current < len(state.tricks) and state.tricks[current].winner is not None:
            tricks.append(_trick(state, current, held, before))
    if state.phase != DONE:
        raise ReplayError(f"the hand is not complete (phase {state.phase})", None)
    declarer_side = state.declarer & 1
    points = state.points()
    contract = state.contract[1] if state.contract else None
    leftover = state.discard_points()
    if state.trump is None:  # a complete Cinch hand always has a trump: someone must bid
        raise ReplayError("the hand is complete but names no trump", None)
    return {
        "ruleset": state.rules.name,
        "dealer": SEATS[state.dealer],
        "scores_before": state.side_dict(state.scores),
        "bidder_goes_out": state.bidder_goes_out,
        "dealt": _by_seat(state.dealt),
        "bids": [{"seat": SEATS[seat], "amount": amount or None} for seat, amount in state.bids],
        "contract": state.contract_dict(),
        "declarer": SEATS[state.declarer],
        "trump": SUITS[state.trump],
        "draws": _draws(state, any(a["type"] == "rob" for a in state.actions)),
        "restocks": state.restocks,
        "hands_after_draw": _by_seat(state.hands_in_play()),
        "tricks": tricks,
        "discard_points": {
            "points": leftover,
            "to": SIDES[declarer_side],
            "cards": names_of(state.pile & state.trump_tables().counting_mask) if leftover else [],
        },
        "points": state.side_dict(points),
        "made": made_contract(contract, points[declarer_side]),
        "delta": state.side_dict(state.delta()),
    }
