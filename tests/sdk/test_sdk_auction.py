"""The SDK in the auction games (auction_pitch, pedro): the eldest's sale is a decision of
its own, its short answers become actions, and the SDK's legality check agrees with the
server's on sell and pitch."""

from __future__ import annotations

import pytest
from support.sdkharness import check_legality_agrees

import sdk
from server.engine import generate_board, make_ruleset, new_hand, observation, seats_for


def test_the_sale_is_a_decision_answered_by_sell_or_pitch():
    class Seller(sdk.Bot):
        def sale(self, obs):
            return "sell" if {"type": "sell"} in obs.legal else "pitch"

    obs = sdk.Observation(seat="P1", phase="sale", legal=[{"type": "sell"}, {"type": "pitch"}])
    assert obs.decision == "sale"
    assert Seller().act(obs) == {"type": "sell"}
    assert Seller().act(sdk.Observation(seat="P1", phase="sale", legal=[{"type": "pitch"}])) == {"type": "pitch"}
    assert obs.is_legal(sdk.Bot(seed=3).act(obs))  # not overridden: a random legal one


@pytest.mark.parametrize("name,k", [("auction_pitch", 5), ("pedro", 4)])
def test_sdk_legality_agrees_with_the_server_in_the_auction_games(name, k):
    rules = make_ruleset(name, {"players": k})
    checked = 0
    for n in range(1, 10):
        state = new_hand(rules, generate_board("sdk-auction", n, seats_for(k)))
        while state.phase != "done":
            raw = observation(state, state.seat_to_act())
            obs = sdk.Observation(raw)
            assert obs.decision == {"bidding": "bid", "sale": "sale"}.get(raw["phase"], raw["phase"])
            action = sdk.Bot(seed=n).act(obs)
            candidates = (
                action,
                {"type": "sell"},
                {"type": "pitch"},
                {"type": "bid", "amount": 2},
                {"type": "sell", "amount": 1},
            )
            checked += check_legality_agrees(candidates, raw)
            state.apply(action)
    assert checked > 500


def test_at_four_in_the_auction_games_each_plays_for_himself():
    state = new_hand(make_ruleset("auction_pitch"), generate_board("sdk-auction", 1, seats_for(4)))
    obs = sdk.Observation(observation(state, "E"))
    assert (obs.alone, obs.partner, obs.side) == (True, None, "E")
    assert obs.opponents == ("S", "W", "N") and obs.other_side is None
    partners = sdk.Observation(observation(new_hand(make_ruleset("pitch"), generate_board("sdk-auction", 1)), "E"))
    assert (partners.alone, partners.partner, partners.opponents) == (False, "W", ("S", "N"))
