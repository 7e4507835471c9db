"""The API's typed shapes accept what auction_cinch writes and answers: observations at
every phase for five and six players, the call action, hand records."""

from __future__ import annotations

from random import Random

import pytest
from support.schema_checks import walk_validating

from server.engine import make_ruleset
from server.web.api.game_schemas import ActionSchema, ObservationSchema


@pytest.mark.parametrize("k", [5, 6])
def test_every_observation_action_and_record_fits_the_schemas(k):
    rules = make_ruleset("auction_cinch", {"players": k})
    phases, _ = walk_validating(rules, "auction-cinch-schemas", k, 5, Random(k))
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
