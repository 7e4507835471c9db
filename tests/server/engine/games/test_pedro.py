"""pedro, one test per rule docs/rules/pedro.md settles (raises, the 18 points to the
winner, the Ten as Game, deal_all, the scoring order); the random-hand properties for
k = 4 ... 7 (with and without deal_all) are in test_auction_properties.py."""

from __future__ import annotations

import pytest
from support.allfours_decks import act, hand, item_list, play_out, turnup_deck
from test_auction_pitch import seats_asked

from server.engine import CARD_NAMES, IllegalAction, make_ruleset
from server.engine.games.pedro import deal_all_rounds

# k = 4, dealer W, eldest N. N holds every counting heart; nobody else holds a heart.
ALL_HEARTS = turnup_deck(
    [
        ["AH", "JH", "TH", "9H", "5H", "2H"],
        ["2C", "3C", "4C", "5C", "6C", "7C"],
        ["8C", "9C", "TC", "JC", "QC", "KC"],
        ["2D", "3D", "4D", "5D", "6D", "7D"],
    ]
)
# N pitches 5H; E must play 9H, S TH, W 2H: S wins the Five, Nine, Ten and Low (held by W).
RANKED = turnup_deck(
    [
        ["5H", "AH", "2C", "3C", "4C", "6C"],
        ["9H", "7C", "8C", "9C", "TC", "JC"],
        ["TH", "QC", "KC", "AC", "2D", "3D"],
        ["2H", "4D", "5D", "6D", "7D", "8D"],
    ]
)
NOBODY_BIDS = ("pass", "pass", "pass")


def test_the_outbid_raise_again_in_turn_and_a_pass_is_final():
    state = hand("pedro", ALL_HEARTS[:], 5)  # dealer P5, eldest P1
    # first round P2 ... P5; then clockwise from the dealer over those who bid, not passed,
    # not the highest: P2 (raises), P4 (passes), P5 (raises), P2 (passes); P1 never
    assert seats_asked(state, 1, "pass", 3, 5, 6, "pass", 7, "pass") == [
        "P2",
        "P3",
        "P4",
        "P5",
        "P2",
        "P4",
        "P5",
        "P2",
        "P1",
    ]
    assert state.phase == "sale" and state.high_bid == 7


def test_a_player_who_passed_is_never_asked_again():
    state = act(hand("pedro", ALL_HEARTS[:], 5), 1, "pass", 2, 3)
    assert state.seat_to_act() == "P2"
    act(state, "pass")
    assert state.seat_to_act() == "P4"  # P3 passed in the first round
    with pytest.raises(IllegalAction, match="out of turn"):
        state.apply({"type": "bid", "amount": 9, "seat": "P3"})


def test_a_player_facing_eighteen_is_still_asked_and_may_only_pass():
    state = act(hand("pedro", ALL_HEARTS[:], 5), 1, 18, "pass", "pass")
    assert state.seat_to_act() == "P2" and state.legal_actions() == [{"type": "pass"}]
    act(state, "pass")
    assert state.phase == "sale" and state.contract is None and state.high_bid == 18


def test_when_nobody_bids_the_auction_ends_after_the_first_round():
    state = act(hand("pedro", ALL_HEARTS[:], 4), *NOBODY_BIDS)
    assert state.phase == "sale" and state.legal_actions() == [{"type": "pitch"}]


def test_eighteen_points_a_deal_with_the_five_and_nine_of_trumps():
    state = play_out(act(hand("pedro", ALL_HEARTS[:], 4), 18, "pass", "pass", "pitch"))  # N pitches at 18
    assert state.contract_dict() == {"seat": "N", "amount": 18}
    assert item_list(state) == [
        ("high", "N", 1),
        ("low", "N", 1),
        ("jack", "N", 1),
        ("ten", "N", 1),
        ("five", "N", 5),
        ("nine", "N", 9),
    ]
    assert state.describe()["points"] == {"N": 18, "E": 0, "S": 0, "W": 0}
    assert state.describe()["delta"] == {"N": 18, "E": 0, "S": 0, "W": 0}


def test_the_ten_is_game_and_without_it_there_is_no_game():
    deck = ALL_HEARTS[:]
    ten, queen = deck.index("TH"), deck.index("QH")
    deck[ten], deck[queen] = "QH", "TH"  # the Ten out of play, the Queen dealt
    state = play_out(act(hand("pedro", deck, 4), *NOBODY_BIDS, "pitch"))
    kinds = [i[0] for i in item_list(state)]
    assert "TH" in state.describe()["record"]["out_of_play"]
    assert "ten" not in kinds and "game" not in kinds and sum(state.points()) == 17


def test_five_and_nine_keep_their_natural_rank_and_count_to_the_winner():
    state = act(hand("pedro", RANKED[:], 4), *NOBODY_BIDS, "pitch", "5H", "9H", "TH", "2H")
    assert state.describe()["tricks"][0]["winner"] == "S"  # T over 9 over 5
    play_out(state)
    # Low (2H) was W's but S won it: everything counts to the winner (5.3)
    assert item_list(state) == [("high", "N", 1), ("low", "S", 1), ("ten", "S", 1), ("five", "S", 5), ("nine", "S", 9)]


def test_scoring_order_sale_set_back_then_the_items():
    # E bids 3, S 17; E passes on his second turn; N sells to S, who pitches TH and wins 16
    state = act(hand("pedro", RANKED[:], 4), 3, 17, "pass", "pass", "sell")
    assert state.contract_dict() == {"seat": "S", "amount": 17} and state.seat_to_act() == "S"
    play_out(act(state, "TH"))
    assert state.describe()["points"]["S"] == 16
    assert item_list(state) == [("sale", "N", 17), ("set-back", "S", -17), ("high", "N", 1)]


def test_in_a_game_to_fifty_the_items_stop_at_the_target():
    assert make_ruleset("pedro").target == 50
    state = play_out(act(hand("pedro", ALL_HEARTS[:], 4, in_game=True, scores=(45, 0, 0, 0)), *NOBODY_BIDS, "pitch"))
    assert item_list(state) == [
        ("high", "N", 1),
        ("low", "N", 1),
        ("jack", "N", 1),
        ("ten", "N", 1),
        ("five", "N", 5),
    ]  # 53: the Nine is not applied
    assert state.settle((45, 0, 0, 0)) == ((54, 0, 0, 0), 0)


@pytest.mark.parametrize("k,each", [(4, 13), (5, 10), (6, 8), (7, 7)])
def test_deal_all_card_counts_and_packets(k, each):
    deck = list(CARD_NAMES)
    state = hand("pedro", deck, k, deal_all=True)
    assert [h.bit_count() for h in state.hands] == [each] * k
    # F3: a round of p from x gives o_0 deck[x : x+p]; the dealer is the last seat, o_0 the first
    first = {deck[c] for x, size in deal_all_rounds(k) for c in range(x, x + size)}
    assert {CARD_NAMES[c] for c in range(52) if state.hands[0] >> c & 1} == first
    play_out(act(state, *["pass"] * (k - 1), "pitch"))
    out = state.describe()
    assert len(out["tricks"]) == each
    assert out["record"]["out_of_play"] == deck[52 - 52 % k :]


def test_without_deal_all_six_cards_each_and_the_options():
    state = hand("pedro", list(CARD_NAMES), 7)
    assert [h.bit_count() for h in state.hands] == [6] * 7
    rules = make_ruleset("pedro", {"players": 6, "deal_all": True, "target": 21})
    assert rules.options() == {"players": 6, "deal_all": True, "target": 21}
    assert make_ruleset("pedro").max_bid == 18 and make_ruleset("pedro").players == 4
    for bad in ({"players": 8}, {"deal_all": 1}, {"keep_nine": True}):
        with pytest.raises(ValueError):
            make_ruleset("pedro", bad)
