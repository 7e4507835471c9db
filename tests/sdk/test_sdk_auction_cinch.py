"""The SDK in auction_cinch: the declarer's call is a decision of its own answered by a
card, the SDK's legality check agrees with the server's on calls and discards of 0 to 6,
and the sides of the hand (partner, allies, we_declared) follow the call; discards put
back into a rebuilt stock are no longer counted as seen."""

from __future__ import annotations

import pytest
from support.sdkharness import check_legality_agrees

import sdk
from server.engine import generate_board, make_ruleset, new_hand, observation, seats_for


def test_the_call_is_a_decision_answered_by_a_card():
    class Caller(sdk.Bot):
        def call(self, obs):
            return "AH"

    legal = [{"type": "call", "card": c} for c in ("2C", "AH")]
    obs = sdk.Observation(seat="P1", phase="call", legal=legal)
    assert obs.decision == "call"
    assert Caller().act(obs) == {"type": "call", "card": "AH"}
    assert obs.is_legal(sdk.Bot(seed=3).act(obs))  # not overridden: a random legal one
    assert sdk.observation.call("KC") == {"type": "call", "card": "KC"}


@pytest.mark.parametrize("k", [5, 6])
def test_sdk_legality_agrees_with_the_server_in_auction_cinch(k):
    rules = make_ruleset("auction_cinch", {"players": k})
    checked, calls = 0, 0
    for n in range(1, 8):
        state = new_hand(rules, generate_board("sdk-auction-cinch", n, seats_for(k)))
        while state.phase != "done":
            raw = observation(state, state.seat_to_act())
            obs = sdk.Observation(raw)
            assert obs.decision == {"bidding": "bid"}.get(raw["phase"], raw["phase"])
            action = sdk.Bot(seed=n).act(obs)
            calls += action["type"] == "call"
            candidates = (
                action,
                {"type": "call", "card": "AH"},
                {"type": "call", "card": "JK"},
                {"type": "call"},
                {"type": "discard", "cards": []},
                {"type": "discard", "cards": list(obs.hand)},
                {"type": "call", "card": "AH", "x": 1},
            )
            checked += check_legality_agrees(candidates, raw)
            state.apply(action)
    assert checked > 500 and calls == 7


def test_the_sides_of_the_hand_follow_the_call():
    seats = ["P1", "P2", "P3", "P4", "P5"]
    base = {"seats": seats, "scores": dict.fromkeys(seats, 0), "declarer": "P2", "makers": None}
    before = sdk.Observation(base, seat="P4")
    assert (before.partner, before.allies, before.we_declared, before.makers) == (None, (), False, None)
    maker = sdk.Observation(base, seat="P4", makers=["P2", "P4"])
    assert (maker.partner, maker.allies, maker.we_declared) == ("P2", ("P2",), True)
    opponent = sdk.Observation(base, seat="P1", makers=["P2", "P4"])
    assert (opponent.partner, opponent.allies, opponent.we_declared) == (None, ("P3", "P5"), False)
    alone = sdk.Observation(base, seat="P2", makers=["P2"])
    assert (alone.partner, alone.allies, alone.we_declared) == (None, (), True)
    trick = [{"leader": "P3", "winner": None, "plays": [{"seat": "P3", "card": "AS", "extras": []}]}]
    assert sdk.Observation(base, seat="P1", makers=["P2", "P4"], trump="H", tricks=trick).partner_winning


def test_restocked_discards_are_not_seen_any_more():
    obs = sdk.Observation(
        seat="P1",
        hand=["2C"],
        tricks=[],
        trump="H",
        restocked=["3C"],
        draws=[{"seat": "P2", "shown": ["3C", "5H"], "drawn": None}],
    )
    assert obs.shown_cards == ["5H"] and obs.seen_cards == {"2C", "5H"}
