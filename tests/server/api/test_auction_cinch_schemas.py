"""The API's typed shapes accept what auction_cinch writes and answers: observations at
every phase for five and six players, the call action, hand records."""

from __future__ import annotations

from random import Random

import pytest

from server.api.game_schemas import ActionSchema, HandRecord, LegalSchema, ObservationSchema
from server.engine import generate_board, make_ruleset, new_hand, observation, seats_for
from server.engine.playout import random_action
from server.engine.record import hand_record


@pytest.mark.parametrize("k", [5, 6])
def test_every_observation_action_and_record_fits_the_schemas(k):
    rules = make_ruleset("auction_cinch", {"players": k})
    rng, phases = Random(k), set()
    for n in range(1, 6):
        state = new_hand(rules, generate_board("auction-cinch-schemas", n, seats_for(k)))
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
    assert phases == {"bidding", "trump", "discard", "call", "play", "done"}


def test_the_call_action_needs_one_card():
    assert ActionSchema().load({"type": "call", "card": "KC"}) == {"type": "call", "card": "KC"}
    assert ActionSchema().validate({"type": "call"})
    assert ActionSchema().validate({"type": "call", "card": "JK"})
    assert ActionSchema().validate({"type": "call", "card": "KC", "amount": 3})


def test_options_are_checked():
    schema = ObservationSchema().type_schemas["auction_cinch"].fields["options"].schema
    assert schema.validate({"players": 6, "target": 31}) == {}
    assert schema.validate({"players": 4})
