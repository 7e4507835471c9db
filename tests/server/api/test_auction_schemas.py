"""The API's typed shapes accept what the auction games (auction_pitch, pedro) write and
answer: observations at every phase and k, the sell and pitch actions, hand records."""

from __future__ import annotations

from random import Random

import pytest

from server.api.game_schemas import ActionSchema, HandRecord, LegalSchema, ObservationSchema
from server.engine import generate_board, make_ruleset, new_hand, observation, seats_for
from server.engine.playout import random_action
from server.engine.record import hand_record


@pytest.mark.parametrize("name,options", [("auction_pitch", {}), ("pedro", {}), ("pedro", {"deal_all": True})])
@pytest.mark.parametrize("k", [4, 5, 6, 7])
def test_every_observation_action_and_record_fits_the_schemas(name, options, k):
    rules = make_ruleset(name, {"players": k, **options})
    rng, phases = Random(k), set()
    for n in range(1, 8):
        state = new_hand(rules, generate_board("auction-schemas", n, seats_for(k)))
        while True:
            phases.add(state.phase)
            for seat in (None, *state.seats):
                view = observation(state, seat)
                assert ObservationSchema().validate(view) == {}, view
            if state.phase == "done":
                break
            for entry in state.legal_actions():
                assert LegalSchema().validate(entry) == {}, entry
            action = random_action(state.legal_actions(), rng)
            assert ActionSchema().validate(action) == {}, action
            state.apply(action)
        assert HandRecord().validate(hand_record(state, [])) == {}
    assert phases == {"bidding", "sale", "play", "done"}


def test_sell_and_pitch_are_actions_and_unknown_fields_are_refused():
    for kind in ("sell", "pitch"):
        assert ActionSchema().load({"type": kind}) == {"type": kind}
        assert ActionSchema().validate({"type": kind, "amount": 3})
