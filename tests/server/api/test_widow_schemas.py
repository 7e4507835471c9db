"""The API's typed shapes accept what widow_cinch writes and answers: observations at every
phase (the widow decision included), the widow action, hand records with three sides; a
widow action without a boolean ``take`` is refused by the schema."""

from __future__ import annotations

from random import Random

from server.api.game_schemas import ActionSchema, HandRecord, LegalSchema, ObservationSchema
from server.engine import generate_board, make_ruleset, new_hand, observation, seats_for
from server.engine.playout import random_action
from server.engine.record import hand_record


def test_every_observation_action_and_record_fits_the_schemas():
    rules = make_ruleset("widow_cinch")
    rng, phases = Random(6), set()
    for n in range(1, 6):
        state = new_hand(rules, generate_board("widow-schemas", n, seats_for(6)))
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
        record = hand_record(state, [])
        assert set(record["result"]["delta"]) == {"P1P4", "P2P5", "P3P6"}
        assert HandRecord().validate(record) == {}
    assert phases == {"bidding", "widow", "trump", "discard", "play", "done"}


def test_the_widow_action_needs_a_boolean_take():
    assert ActionSchema().load({"type": "widow", "take": False}) == {"type": "widow", "take": False}
    for bad in ({"type": "widow"}, {"type": "widow", "take": "true"}, {"type": "widow", "take": 1},
                {"type": "widow", "take": True, "card": "AH"}):
        assert ActionSchema().validate(bad), bad
