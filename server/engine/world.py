"""A state from a sampled world: the hand an observation describes, hidden cards filled in.

Search bots sample where the cards they cannot see might be (a *world*) and then need
the engine's own state of that world to search in: the same legal moves, the same trick
winners, the same score. Building that state by hand means re-implementing the rules or
setting a state's private fields; here the engine does it once, for every game:

* each game's hand class builds the state at the start of the play from every seat's
  cards at that moment and the public facts of the observation (``Hand.at_play``);
* this module then replays every card the observation shows played through the wire
  checks (``legal_plays`` and the extras rule), so a world that the play contradicts is
  refused with ``WorldError`` instead of giving a state the rules could not reach.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from server.engine.cards import CARD_INDEX, mask_of
from server.engine.hand import Hand
from server.engine.rulesets import game_spec, make_ruleset


class WorldError(ValueError):
    """A world that does not fit the observation (a card twice, a play it makes illegal)."""


def _mask(cards: Iterable[str]) -> int:
    return mask_of(CARD_INDEX[c] for c in cards)


def world_state(obs: Mapping[str, Any], hands: Mapping[str, Iterable[str]]) -> Hand:
    """The state at ``obs``'s point of play with ``hands`` (seat -> card strings) as every
    seat's current cards. Only for the play: before it, a world has more unknowns than
    cards (the stock, the discards), and no bot searches there."""
    rules = make_ruleset(obs["ruleset"], obs["options"])
    if obs["phase"] != "play":
        raise WorldError(f"a world is built for the play, not for the {obs['phase']!r} phase")
    seats = obs["seats"]
    current = [_mask(hands[seat]) for seat in seats]
    played = [0] * len(seats)
    for trick in obs["tricks"]:
        for p in trick["plays"]:
            played[seats.index(p["seat"])] |= (1 << CARD_INDEX[p["card"]]) | _mask(p["extras"])
    post = [current[i] | played[i] for i in range(len(seats))]
    total = 0
    for mask in post:
        if total & mask:
            raise WorldError("the world gives a card to two seats")
        total |= mask
    state = game_spec(rules).hand.at_play(rules, obs, post)
    for trick in obs["tricks"]:
        for p in trick["plays"]:
            seat, card, extras = seats.index(p["seat"]), CARD_INDEX[p["card"]], _mask(p["extras"])
            if state.to_act != seat:
                raise WorldError(f"{p['seat']} plays out of turn in this world")
            if card not in state.legal_plays():
                raise WorldError(f"{p['card']} by {p['seat']} is not legal in this world")
            state.check_extras(seat, card, extras)
            state.do_play(card, extras)
    if state.hands != current:
        raise WorldError("the world's hands differ from the rebuilt ones")
    return state
