"""The typed hand base's narrowing helpers: a plain value where the phase has one, a
refusal naming the phase where it does not (never a None that fails later)."""

from random import Random

import pytest

from server.engine.boards import generate_board
from server.engine.cards import seats_for
from server.engine.games import GAMES
from server.engine.hand import new_hand
from server.engine.playout import playout
from server.engine.rulesets import game_spec, make_ruleset


def _fresh(name: str):
    rules = make_ruleset(name)
    return new_hand(rules, generate_board("narrowing", 1, seats_for(rules.players), game_spec(rules).deck))


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_fresh_hand_has_a_seat_to_act_and_no_play_yet(name):
    hand = _fresh(name)
    if hand.phase == "play":  # pitch-like games start at the play
        assert hand.hands_in_play() == tuple(hand.hands)
    else:
        with pytest.raises(ValueError, match=f"the play has not started \\(phase {hand.phase}\\)"):
            hand.hands_in_play()
    assert hand.actor() == hand.to_act


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_finished_hand_has_trump_tables_and_no_seat_to_act(name):
    hand = playout(_fresh(name), Random(5))
    assert hand.trump_tables() is hand.tables and hand.tables is not None
    with pytest.raises(ValueError, match="the hand is over"):
        hand.actor()


def test_trump_tables_before_trump_names_the_phase():
    hand = _fresh("american62")
    assert hand.phase == "bidding"
    with pytest.raises(ValueError, match="trump is not named yet \\(phase bidding\\)"):
        hand.trump_tables()


def test_a_clone_is_the_same_class_and_independent():
    hand = _fresh("widow_cinch")
    before = (hand.phase, hand.to_act, list(hand.bids))
    copy = hand.clone()
    assert type(copy) is type(hand)
    copy.random_step(Random(1))  # the eldest bids or passes
    assert len(copy.bids) == 1 and copy.to_act != hand.to_act
    assert (hand.phase, hand.to_act, hand.bids) == before
