"""Checks shared by the random-hand properties of the All Fours family: seven_up, pitch
and all_fives (test_all_fours_properties.py) and the auction games, auction_pitch and pedro
(auction_checks.py).

Hypothesis settings and boards, the 52 cards accounted for, the views hiding what they
must, refused actions changing nothing, and the loop that plays a random board by random
legal actions through the wire or the fast layer. What differs by family (the options
drawn, the cards out of play, the refused actions, the expected result) each caller
passes in.
"""

from __future__ import annotations

from collections.abc import Callable
from random import Random
from typing import Any, NamedTuple

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from server.engine import (
    ALL_NAMES,
    CARD_NAMES,
    GAMES,
    Board,
    IllegalAction,
    make_ruleset,
    new_hand,
    observation,
    seats_for,
)
from server.engine.playout import random_action
from support.allfours_decks import cards_in
from support.examples import examples as scaled

RANKS = "23456789TJQKA"
PIPS = {"A": 4, "K": 3, "Q": 2, "J": 1, "T": 10}


def props(examples: int):
    return settings(
        max_examples=scaled(examples),
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


@st.composite
def boards(draw, k: int, size: int = 52) -> Board:
    """A random board for ``k`` seats and a ``size``-card deck (53: snoozer's, with JK)."""
    seats = seats_for(k)
    deck = list(draw(st.permutations(ALL_NAMES[:size])))
    return Board.from_dict(
        {"dealer": draw(st.sampled_from(seats)), "deck": deck, "seed": draw(st.binary(min_size=1, max_size=8)).hex()},
        seats,
        size,
    )


def names(mask: int) -> set[str]:
    return {ALL_NAMES[c] for c in range(len(ALL_NAMES)) if mask >> c & 1}


def played(state) -> set[str]:
    return {p["card"] for t in state.describe()["tricks"] for p in t["plays"]}


def check_cards(state, undealt: set[str], *more: set[str]) -> None:
    """The hands, the cards played, ``undealt`` and the ``more`` parts (discards, turn-ups)
    are the deck's cards (52, or 53 with snoozer's joker), each once."""
    parts = [names(h) for h in state.hands] + [played(state), undealt, *more]
    size = len(state.board.deck)
    assert sum(map(len, parts)) == size and set().union(*parts) == set(ALL_NAMES[:size])


def check_views(state, undealt: set[str], discards: list[int] | None = None, turned_jacks: bool = False) -> None:
    """No seat sees another's hand (or discards, if given) or an undealt card; items name
    only played cards (and, if ``turned_jacks``, the cards of turned-jack items)."""
    for me, seat in enumerate(state.seats):
        hidden = set(undealt)
        for other in range(state.k):
            if other != me:
                hidden |= names(state.hands[other])
                if discards is not None:
                    hidden |= names(discards[other])
        view = observation(state, seat)
        items = view.pop("items")
        assert not cards_in(view) & hidden
        shown = {i["card"] for i in items if i["item"] == "turned-jack"} if turned_jacks else set()
        assert cards_in(items) <= played(state) | shown
    spectator = observation(state, None)
    spectator.pop("items")
    assert not cards_in(spectator) & (names(sum(state.hands)) | undealt)


def check_refusals(
    state, rng: Random, refused: Callable[[Any, list[dict], set[str]], list], types: tuple[str, ...]
) -> None:
    """Actions the rules refuse raise IllegalAction and leave the hand exactly as it was:
    the family's ``refused(state, legal, kinds)``, a legal action by the next seat, each of
    ``types`` not legal now, and in the play phase three cards not legal and a card with extras."""
    before = state.describe()
    legal = state.legal_actions()
    kinds = {a["type"] for a in legal}
    bad = refused(state, legal, kinds) + [{**legal[0], "seat": state.seats[(state.to_act + 1) % state.k]}]
    bad += [{"type": t} for t in types if t not in kinds]
    if state.phase == "play":
        legal_cards = {a["card"] for a in legal}
        bad += [{"type": "play", "card": c} for c in rng.sample(sorted(set(CARD_NAMES) - legal_cards), 3)]
        bad.append({"type": "play", "card": legal[0]["card"], "extras": [legal[0]["card"]]})
    for action in bad:
        with pytest.raises(IllegalAction):
            state.apply(action)
        assert state.describe() == before


class Family(NamedTuple):
    """What one family's random-hand property checks (each takes the hand)."""

    options_for: Callable[[str, int, Any], dict]
    check_cards: Callable[[Any], None]
    check_views: Callable[[Any], None]
    check_refusals: Callable[[Any, Random], None]
    check_result: Callable[[Any, dict | None], None]


def play_checked(
    state,
    rng: Random,
    wire: bool,
    check_cards: Callable[[Any], None],
    check_views: Callable[[Any], None],
    check_refusals: Callable[[Any, Random], None],
) -> None:
    """Play ``state`` to the end by random legal actions, through the wire layer
    (``apply``) or the fast one (``random_step``, checking that a clone taken before the
    step did not move with it), running the three checks before every decision."""
    while state.phase != "done":
        check_cards(state)
        check_views(state)
        check_refusals(state, rng)
        if wire:
            state.apply(random_action(state.legal_actions(), rng))
        else:
            twin = state.clone()
            state.random_step(rng)
            assert twin.describe() != state.describe()  # the clone did not move with it


def play_random_hand(family: Family, name: str, k: int, data, seed: int, wire: bool) -> None:
    """A random board played by random legal actions (wire or fast layer), checked at
    every decision (cards, views, refusals) and at the end (cards, result; the replay doc
    only on the wire layer, the fast layer keeping no action record)."""
    board = data.draw(boards(k, GAMES[name].deck))
    options = family.options_for(name, k, data)
    state = new_hand(make_ruleset(name, options), board)
    play_checked(state, Random(seed), wire, family.check_cards, family.check_views, family.check_refusals)
    family.check_cards(state)
    doc = {"ruleset": name, "options": options, "board": board.to_dict(), "actions": state.actions}
    family.check_result(state, doc if wire else None)
