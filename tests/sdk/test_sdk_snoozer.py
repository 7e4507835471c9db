"""The SDK in snoozer (docs/rules/snoozer.md): the joker constant and its place among the trumps,
every trick's winner and the player's trumps found from the observation alone as the
engine finds them, and the SDK's legality check agreeing with the server's (a JK pitch
included) at every k."""

from __future__ import annotations

from random import Random

import pytest
from support.sdkharness import check_legality_agrees

import sdk
from sdk import cards as C
from server.engine import ALL_NAMES, generate_board, make_ruleset, new_hand, observation, seats_for


def test_the_joker_has_no_rank_or_suit_and_is_the_lowest_trump():
    assert C.JOKER == "JK" and C.DECK_53 == tuple(ALL_NAMES) and "JK" not in C.ALL_CARDS
    assert (C.rank("JK"), C.suit("JK"), C.rank_index("JK")) == ("", "", -1)
    assert not C.is_trump("JK", None) and C.effective_suit("JK", None) == ""
    assert C.is_trump("JK", "H", plain=True) and C.effective_suit("JK", "H", plain=True) == "H"
    trumps = C.all_trumps("H", plain=True, joker=True)
    assert len(trumps) == 14 and trumps[-2:] == ["2H", "JK"]
    assert C.winning_index(["AC", "JK", "KC"], "H", plain=True) == 1  # wins a plain-suit trick
    assert C.winning_index(["AC", "JK", "2H"], "H", plain=True) == 2  # any other trump beats it
    assert C.card_points("JK", "H") == 0 and C.SNOOZER_POINTS["JK"] == 15


@pytest.mark.parametrize("k", [4, 5, 6, 7])
def test_trick_winners_trumps_and_legality_agree_with_the_server(k):
    rules = make_ruleset("snoozer", {"players": k, "deal_all": k % 2 == 0})
    rng, tricks, checked = Random(k), 0, 0
    for n in range(1, 9):
        state = new_hand(rules, generate_board("sdk-snoozer", n, seats_for(k), 53))
        while state.phase != "done":
            raw = observation(state, state.seat_to_act())
            obs = sdk.Observation(raw)
            assert obs.plain_trumps and obs.deck == C.DECK_53 and set(obs.hand) <= set(obs.deck)
            for trick in obs.completed_tricks:
                i = C.winning_index([p["card"] for p in trick["plays"]], obs.trump, True)
                assert trick["plays"][i]["seat"] == trick["winner"]
                tricks += 1
            if obs.trump and state.tables is not None:
                engine = {c for c in obs.hand if state.tables.trump_mask >> ALL_NAMES.index(c) & 1}
                assert set(obs.my_trumps) == engine
            action = sdk.Bot(seed=n).act(obs)
            checked += check_legality_agrees(
                (action, {"type": "play", "card": "JK"}, {"type": "sell"}, {"type": "pitch"}), raw
            )
            state.random_step(rng)
    assert tricks > 30 and checked > 200
