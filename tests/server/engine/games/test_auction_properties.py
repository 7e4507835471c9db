"""The random-hand properties of the auction games, auction_pitch (docs/rules/auction_pitch.md),
pedro (section 5) and snoozer (section 6; both with and without deal_all), for k = 4 ... 7: random hands keep the
rules at every decision and at the end, a hand of a game scores nothing after the target
and no sale puts the eldest out, and a whole game of random hands ends with one winner
(the checks are in auction_checks.py)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support.allfours_checks import props
from support.auction_checks import KS, play_random_game, play_random_game_hand, play_random_hand

AUCTIONS = ("auction_pitch", "pedro", "snoozer")


@pytest.mark.parametrize("k", KS)
@pytest.mark.parametrize("name", AUCTIONS)
@props(25)
@given(data=st.data(), seed=st.integers(0, 2**32), wire=st.booleans())
def test_random_hands_keep_the_rules(name, k, data, seed, wire):
    play_random_hand(name, k, data, seed, wire)


@pytest.mark.parametrize("k", KS)
@pytest.mark.parametrize("name", AUCTIONS)
@props(25)
@given(data=st.data(), seed=st.integers(0, 2**32))
def test_in_a_game_nothing_is_scored_after_the_target_and_a_sale_never_puts_out(name, k, data, seed):
    play_random_game_hand(name, k, data, seed)


@pytest.mark.parametrize("k", KS)
@pytest.mark.parametrize("name", AUCTIONS)
def test_a_game_of_random_hands_ends_with_one_winner(name, k):
    for seed in range(3):
        play_random_game(name, k, seed)
