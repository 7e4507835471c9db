"""pitch, one test per rule docs/rules/pitch.md settles: no turn-up and no beg, the first
lead names trump and is a trump lead, High and Low to their holders, a tied Game to nobody."""

from __future__ import annotations

import pytest
from support.allfours_decks import act, deck_at, hand, item_list, play_out, turnup_deck

from server.engine import CARD_NAMES, IllegalAction, make_ruleset

LOW_CARDS = [r + s for s in "CDHS" for r in "23456789"]


def test_the_play_starts_at_once_with_the_eldest_and_no_trump():
    state = hand("pitch", deck_at({}), 4)  # dealer W
    assert (state.phase, state.seat_to_act(), state.trump) == ("play", "N", None)
    assert {a["card"] for a in state.legal_actions()} == {"2C", "3C", "4C", "AC", "2D", "3D"}
    assert state.hands_after_draw is not None
    for word in ("stand", "beg", "discard"):
        with pytest.raises(IllegalAction, match="not allowed"):
            state.apply({"type": word})
    assert make_ruleset("pitch").target == 7


def test_the_first_lead_names_trump_and_is_a_trump_lead():
    state = act(hand("pitch", deck_at({}), 4), "2D")  # E holds 5C 6C 7C 4D 5D 6D
    assert state.trump_name() == "D"
    assert {a["card"] for a in state.legal_actions()} == {"4D", "5D", "6D"}
    before = state.describe()
    with pytest.raises(IllegalAction, match="a trump was led"):
        state.apply({"type": "play", "card": "5C"})
    assert state.describe() == before


def test_high_and_low_go_to_their_holders_jack_and_game_to_the_winners():
    state = act(
        hand("pitch", turnup_deck([["AC", "3D", "4D", "5D", "6D", "7D"], ["2C", "JC", "4H", "5H", "6H", "7H"]]), 2),
        "AC",
        "2C",
        "3D",
        "4H",
        "4D",
        "5H",
        "5D",
        "6H",
        "6D",
        "7H",
        "7D",
        "JC",
    )
    assert state.phase == "done"
    # P1 won 2C (Low is its holder's, P2's); P2 won JC on the last trick (plain suit led: trump at will)
    assert item_list(state) == [("high", "P1", 1), ("low", "P2", 1), ("jack", "P2", 1), ("game", "P1", 1)]
    assert state.delta() == (2, 2) and state.describe()["record"]["turnups"] == []


@pytest.mark.parametrize("k", [2, 3, 4])
def test_a_tied_game_scores_for_nobody_for_every_k(k):
    deck = LOW_CARDS[: 6 * k] + [c for c in CARD_NAMES if c not in LOW_CARDS] + LOW_CARDS[6 * k :]
    state = play_out(hand("pitch", deck, k))
    assert "game" not in [i[0] for i in item_list(state)]
    assert state.describe()["record"]["out_of_play"] == sorted(deck[6 * k :], key=CARD_NAMES.index)
