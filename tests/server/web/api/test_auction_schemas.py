"""The API's typed shapes accept what the auction games (auction_pitch, pedro, snoozer)
write and answer: observations at every phase and k, the sell and pitch actions, hand
records (snoozer's with the joker and a 53-card board)."""

from __future__ import annotations

from random import Random

import pytest
from support.schema_checks import walk_validating

from server.engine import GAMES, generate_board, make_ruleset, new_hand, seats_for
from server.engine.record import hand_record
from server.web.api.game_schemas import ActionSchema, HandRecord, ObservationSchema


@pytest.mark.parametrize(
    "name,options",
    [
        ("auction_pitch", {}),
        ("pedro", {}),
        ("pedro", {"deal_all": True}),
        ("snoozer", {}),
        ("snoozer", {"deal_all": True, "target": 100}),
    ],
)
@pytest.mark.parametrize("k", [4, 5, 6, 7])
def test_every_observation_action_and_record_fits_the_schemas(name, options, k):
    rules = make_ruleset(name, {"players": k, **options})
    phases, _ = walk_validating(rules, "auction-schemas", k, 7, Random(k), GAMES[name].deck)
    assert phases == {"bidding", "sale", "play", "done"}


def test_sell_and_pitch_are_actions_and_unknown_fields_are_refused():
    for kind in ("sell", "pitch"):
        assert ActionSchema().load({"type": kind}) == {"type": kind}
        assert ActionSchema().validate({"type": kind, "amount": 3})


def test_the_joker_is_a_card_and_snoozer_options_are_typed():
    assert ActionSchema().load({"type": "play", "card": "JK"}) == {"type": "play", "card": "JK"}
    assert ActionSchema().validate({"type": "play", "card": "JQ"})
    schema = ObservationSchema().type_schemas["snoozer"]
    assert schema.fields["options"].schema.validate({"target": 100, "players": 7, "deal_all": True}) == {}
    assert schema.fields["options"].schema.validate({"target": 60})  # 50 or 100 only (6.4)
    rules = make_ruleset("snoozer", {"players": 5, "deal_all": True})
    state = new_hand(rules, generate_board("jk-record", 1, seats_for(5), 53))
    while state.phase != "done":
        state.random_step(Random(1))
    record = hand_record(state, [])
    assert len(record["board"]["deck"]) == 53 and HandRecord().validate(record) == {}


def test_a_recorded_discard_may_hold_more_than_thirteen_cards():
    """After the cards are run twice at two players of All Fours each hand holds 12 or more,
    and the discard down to six names them all (seen: 15 in an all_fives table's record)."""
    from server.web.api.game_schemas import RecordedAction

    cards = ["2S", "4H", "5S", "7S", "8D", "8H", "9D", "9H", "TH", "JD", "QH", "KD", "AD", "2C", "4C"]
    assert RecordedAction().validate({"type": "discard", "seat": "P1", "cards": cards}) == {}
