"""The SDK in widow_cinch: the declarer's widow is a decision of its own answered by a
boolean, partners and opponents come from the three sides, and the SDK's legality check
agrees with the server's on the widow action."""

from __future__ import annotations

from support.sdkharness import check_legality_agrees

import sdk
from server.engine import generate_board, make_ruleset, new_hand, observation, seats_for

RULES = make_ruleset("widow_cinch")


def test_the_widow_is_a_decision_answered_by_true_or_false():
    class Taker(sdk.Bot):
        def widow(self, obs):
            return True

    legal = [{"type": "widow", "take": True}, {"type": "widow", "take": False}]
    obs = sdk.Observation(seat="P3", phase="widow", legal=legal)
    assert obs.decision == "widow"
    assert Taker().act(obs) == {"type": "widow", "take": True} == sdk.observation.widow(1)
    assert obs.is_legal(sdk.Bot(seed=2).act(obs))  # not overridden: a random legal one


def test_partners_sit_three_apart_and_the_four_others_are_opponents():
    state = new_hand(RULES, generate_board("sdk-widow", 1, seats_for(6)))
    obs = sdk.Observation(observation(state, "P2"))
    assert obs.sides == ("P1P4", "P2P5", "P3P6")
    assert (obs.alone, obs.partner, obs.side) == (False, "P5", "P2P5")
    assert obs.opponents == ("P3", "P4", "P6", "P1") and obs.other_side is None
    assert obs.other_sides == ("P1P4", "P3P6") and obs.widow_taken is None


def test_sdk_legality_agrees_with_the_server_in_widow_cinch():
    checked = 0
    for n in range(1, 12):
        state = new_hand(RULES, generate_board("sdk-widow", n, seats_for(6)))
        while state.phase != "done":
            raw = observation(state, state.seat_to_act())
            obs = sdk.Observation(raw)
            assert obs.decision == {"bidding": "bid"}.get(raw["phase"], raw["phase"])
            action = sdk.Bot(seed=n).act(obs)
            candidates = (
                action,
                {"type": "widow", "take": True},
                {"type": "widow", "take": 1},
                {"type": "widow"},
                {"type": "widow", "take": False, "card": "AH"},
                {"type": "bid", "amount": 3},
            )
            checked += check_legality_agrees(candidates, raw)
            state.apply(action)
    assert checked > 500
