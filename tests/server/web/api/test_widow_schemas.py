"""The API's typed shapes accept what widow_cinch writes and answers: observations at every
phase (the widow decision included), the widow action, hand records with three sides; a
widow action without a boolean ``take`` is refused by the schema."""

from __future__ import annotations

from random import Random

from support.schema_checks import walk_validating

from server.engine import make_ruleset
from server.web.api.game_schemas import ActionSchema


def test_every_observation_action_and_record_fits_the_schemas():
    rules = make_ruleset("widow_cinch")
    phases, records = walk_validating(rules, "widow-schemas", 6, 5, Random(6))
    for record in records:
        assert set(record["result"]["delta"]) == {"P1P4", "P2P5", "P3P6"}
    assert phases == {"bidding", "widow", "trump", "discard", "play", "done"}


def test_the_widow_action_needs_a_boolean_take():
    assert ActionSchema().load({"type": "widow", "take": False}) == {"type": "widow", "take": False}
    for bad in (
        {"type": "widow"},
        {"type": "widow", "take": "true"},
        {"type": "widow", "take": 1},
        {"type": "widow", "take": True, "card": "AH"},
    ):
        assert ActionSchema().validate(bad), bad
