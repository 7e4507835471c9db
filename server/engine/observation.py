"""What one seat may know, as one JSON-ready object.

This is the only view of a hand that agents, the API, the SDK and logs ever get. It is
built from scratch from the state for one seat, and everything it includes is either
public (the bidding, trump, counts of cards discarded and drawn, face-up discards, every
card played, the scores) or that seat's own (its hand, its own discards, and for the
dealer what he saw in the stock while robbing). The legal actions appear only for the
seat that is to act. A spectator's view (seat None) has only the public part.
"""

from __future__ import annotations

from typing import Any

from server.engine.cards import names_of
from server.engine.hand import Hand

NOBODY = -1


def observation(state: Hand, seat: str | None) -> dict[str, Any]:
    """The view of ``state`` for ``seat`` (one of ``state.seats``), or a spectator's for None."""
    me = NOBODY if seat is None else state.seats.index(seat)
    done = state.phase == "done"
    seats = state.seats
    view = {
        "ruleset": state.rules.name,
        "options": state.rules.options(),
        "seat": seat,
        "seats": list(seats),
        "dealer": seats[state.dealer],
        "phase": state.phase,
        "to_act": state.seat_to_act(),
        "hand": None if me == NOBODY else names_of(state.hands[me]),
        "hand_sizes": {seats[s]: state.hands[s].bit_count() for s in range(len(seats))},
        "contract": state.contract_dict(),
        "declarer": seats[state.declarer] if state.declarer >= 0 else None,
        "trump": state.trump_name(),
        "tricks": state.trick_dicts(),
        "points": state.side_dict(state.points()) if done else None,
        "scores": state.side_dict(state.scores),
        "legal": state.legal_actions() if me != NOBODY and state.to_act == me else None,
    }
    view.update(state.public(None if me == NOBODY else me))
    return view
