"""snoozer, one test per rule docs/rules/snoozer.md settles (the 53-card deck and its
deal, the joker on a trump lead and on a plain lead, its rank, its own lead, the pitch
that may not be JK, its 15 to the winner, High and Low without it, the Three, bids to 36,
the target 50 or 100, the scoring order, an undealt joker); the random-hand properties
for k = 4 ... 7 (with and without deal_all) are in test_auction_properties.py."""

from __future__ import annotations

import pytest
from support.allfours_decks import act, hand, item_list, play_out, turnup_deck

from server.engine import ALL_NAMES, CARD_NAMES, Board, BoardError, IllegalAction, make_ruleset, replay
from server.engine.cards import CARD_INDEX, JOKER, parse_card
from server.engine.games.pedro import deal_all_rounds

NOBODY_BIDS = ("pass", "pass", "pass")


def deck53(hands: list[list[str]]) -> list[str]:
    """A 53-card deck dealing ``hands`` (k = 4, the eldest N first, dealer W); JK, if
    nobody is dealt it, last (out of play)."""
    deck = turnup_deck(hands)
    return deck if "JK" in deck else deck + ["JK"]


# E's only trump is JK; N holds the top hearts.
ONLY_JOKER = deck53(
    [
        ["AH", "KH", "TH", "9H", "5H", "3H"],
        ["JK", "2C", "3C", "4C", "5C", "6C"],
        ["2H", "7C", "8C", "9C", "TC", "JC"],
        ["2D", "3D", "4D", "5D", "6D", "7D"],
    ]
)
# N pitches 4H and wins it over E's 2H; then N leads AC: E may follow with 2C or play JK.
PLAIN_LEAD = deck53(
    [
        ["4H", "AC", "KD", "QD", "JD", "TD"],
        ["2H", "JK", "2C", "AS", "KS", "QS"],
        ["3C", "9S", "8S", "7S", "6S", "5S"],
        ["4C", "8D", "3D", "5D", "6D", "7D"],
    ]
)
# E wins N's pitch 4H with AH and leads JK: a trump lead, S must play his 3H, which wins.
JOKER_LED = deck53(
    [
        ["4H", "AC", "KD", "QD", "JD", "TD"],
        ["AH", "JK", "AS", "KS", "QS", "JS"],
        ["3H", "2H", "9S", "8S", "7S", "6S"],
        ["2C", "3C", "2D", "3D", "5D", "6D"],
    ]
)


def legal_cards(state) -> list[str]:
    return [a["card"] for a in state.legal_actions()]


def winners(state) -> list[str]:
    return [t["winner"] for t in state.describe()["tricks"]]


def test_the_joker_is_card_52_with_the_text_form_jk_and_no_rank_or_suit():
    assert parse_card("JK") == JOKER == 52 and ALL_NAMES[JOKER] == "JK" and CARD_INDEX["JK"] == 52
    assert "JK" not in CARD_NAMES and len(CARD_NAMES) == 52 and len(ALL_NAMES) == 53  # the 52-card decks
    with pytest.raises(ValueError, match="JK the joker"):
        parse_card("JH1")


def test_the_deck_is_53_cards_and_a_52_card_board_is_refused_with_its_reason():
    deck = list(ALL_NAMES)
    assert Board.from_dict({"dealer": "N", "deck": deck, "seed": "ab"}, size=53).deck[-1] == JOKER
    with pytest.raises(BoardError, match="not 52: a deal set is made for one deck size"):
        Board.from_dict({"dealer": "N", "deck": deck[:52], "seed": "ab"}, size=53)
    with pytest.raises(BoardError, match="not 53"):
        Board.from_dict({"dealer": "N", "deck": deck, "seed": "ab"})  # a 52-card game
    with pytest.raises(BoardError, match="joker JK included"):
        Board.from_dict({"dealer": "N", "deck": deck[:52] + ["AS"], "seed": "ab"}, size=53)
    for ruleset, cards in (("snoozer", deck[:52]), ("pedro", deck)):  # cinch replay: malformed, exit 2
        doc = {"ruleset": ruleset, "board": {"dealer": "N", "deck": cards, "seed": "ab"}, "actions": []}
        with pytest.raises(ValueError, match="deck size"):
            replay(doc)


def test_six_cards_each_and_the_rest_out_of_play():
    state = hand("snoozer", ONLY_JOKER[:], 4)
    assert [h.bit_count() for h in state.hands] == [6] * 4
    play_out(act(state, *NOBODY_BIDS, "pitch"))
    assert len(state.describe()["record"]["out_of_play"]) == 53 - 24


@pytest.mark.parametrize("k,each,out", [(4, 13, 1), (5, 10, 3), (6, 8, 5), (7, 7, 4)])
def test_deal_all_over_53_cards(k, each, out):
    deck = list(ALL_NAMES)
    state = hand("snoozer", deck, k, deal_all=True)
    assert [h.bit_count() for h in state.hands] == [each] * k
    first = {deck[c] for x, size in deal_all_rounds(k, 53) for c in range(x, x + size)}  # F3 for o_0
    assert {ALL_NAMES[c] for c in range(53) if state.hands[0] >> c & 1} == first
    play_out(act(state, *["pass"] * (k - 1), "pitch"))
    assert state.describe()["record"]["out_of_play"] == deck[53 - out :]


def test_on_a_trump_lead_a_player_whose_only_trump_is_the_joker_must_play_it():
    state = act(hand("snoozer", ONLY_JOKER[:], 4), *NOBODY_BIDS, "pitch", "AH")
    assert legal_cards(state) == ["JK"]
    with pytest.raises(IllegalAction, match="a trump was led"):
        act(state, "2C")
    act(state, "JK", "2H", "2D")
    assert winners(state) == ["N"]


def test_on_a_plain_lead_the_joker_may_be_played_though_able_to_follow_and_wins_without_another_trump():
    state = act(hand("snoozer", PLAIN_LEAD[:], 4), *NOBODY_BIDS, "pitch", "4H", "2H", "5S", "8D", "AC")
    assert set(legal_cards(state)) == {"2C", "JK"}  # follow, or trump with JK
    act(state, "JK", "3C", "4C")
    assert winners(state) == ["N", "E"]  # JK over the Ace led


def test_any_other_trump_beats_the_joker_on_a_plain_lead():
    deck = deck53(
        [
            ["6H", "AC", "KD", "QD", "JD", "TD"],
            ["2H", "JK", "2C", "AS", "KS", "QS"],
            ["3C", "3H", "4H", "7S", "6S", "5S"],
            ["4C", "8D", "3D", "5D", "6D", "7D"],
        ]
    )
    state = act(hand("snoozer", deck, 4), *NOBODY_BIDS, "pitch", "6H", "2H", "3H", "8D", "AC", "JK")
    assert set(legal_cards(state)) == {"3C", "4H"}  # follow, or trump at will
    act(state, "4H", "4C")
    assert winners(state) == ["N", "S"]  # the Four over the joker


def test_the_joker_led_is_a_trump_lead():
    state = act(hand("snoozer", JOKER_LED[:], 4), *NOBODY_BIDS, "pitch", "4H", "AH", "2H", "2C")
    assert winners(state) == ["E"] and state.seat_to_act() == "E"
    act(state, "JK")
    assert legal_cards(state) == ["3H"]  # S must play his trump
    act(state, "3H")
    assert len(legal_cards(state)) == 5  # W has none: any card
    act(state, "3C")
    assert set(legal_cards(state)) == {"AC", "KD", "QD", "JD", "TD"}  # N has no trump left
    act(state, "AC")
    assert winners(state) == ["E", "S"]  # the Three over the joker


def test_the_pitch_may_not_be_the_joker():
    deck = deck53(
        [
            ["2H", "JK", "2C", "AS", "KS", "QS"],
            ["4H", "AC", "KD", "QD", "JD", "TD"],
            ["3C", "9S", "8S", "7S", "6S", "5S"],
            ["4C", "8D", "3D", "5D", "6D", "7D"],
        ]
    )
    state = act(hand("snoozer", deck, 4), *NOBODY_BIDS, "pitch")  # N, holding JK, pitches
    assert state.seat_to_act() == "N" and set(legal_cards(state)) == {"2H", "2C", "AS", "KS", "QS"}
    before = state.describe()
    with pytest.raises(IllegalAction, match="JK cannot be the pitch: the joker names no suit"):
        act(state, "JK")
    assert state.describe() == before and state.trump is None


def test_the_joker_scores_15_to_the_winner_of_its_trick_and_is_neither_high_nor_low():
    state = play_out(
        act(hand("snoozer", JOKER_LED[:], 4), *NOBODY_BIDS, "pitch", "4H", "AH", "2H", "2C", "JK", "3H", "3C", "AC")
    )
    items = {i[0]: i for i in item_list(state)}
    assert items["snoozer"] == ("snoozer", "S", 15)  # E held it, S won it
    assert items["high"] == ("high", "E", 1) and items["low"] == ("low", "E", 1)  # AH; 2H won by E, not JK
    assert items["three"] == ("three", "S", 3)
    assert [i["card"] for i in state.describe()["items"] if i["item"] in ("high", "low")] == ["AH", "2H"]


def test_36_points_a_deal_every_card_to_its_winner_in_the_scoring_order():
    deck = list(ALL_NAMES)
    deck.remove("2C")
    deck.append("2C")  # deal_all at four: only the 2C is out of play
    state = play_out(act(hand("snoozer", deck, 4, deal_all=True), *NOBODY_BIDS, "pitch"))
    out = state.describe()
    assert [i["item"] for i in out["items"]] == ["high", "low", "jack", "ten", "three", "five", "nine", "snoozer"]
    assert sum(out["points"].values()) == 36 == sum(out["delta"].values())


def test_an_undealt_joker_scores_for_nobody():
    plain = deck53(
        [
            ["4H", "AC", "KD", "QD", "JD", "TD"],
            ["2H", "3S", "2C", "AS", "KS", "QS"],
            ["3C", "9S", "8S", "7S", "6S", "5S"],
            ["4C", "8D", "3D", "5D", "6D", "7D"],
        ]
    )
    state = play_out(act(hand("snoozer", plain, 4), *NOBODY_BIDS, "pitch"))
    assert plain[-1] == "JK" and "JK" in state.describe()["record"]["out_of_play"]
    assert "snoozer" not in [i[0] for i in item_list(state)]


def test_bids_run_to_36_and_the_target_is_50_or_100():
    state = hand("snoozer", ONLY_JOKER[:], 4)
    assert [a.get("amount") for a in state.legal_actions()] == [None, *range(1, 37)]
    with pytest.raises(IllegalAction, match="out of range 1..36"):
        act(state, 37)
    act(state, 36)
    assert state.legal_actions() == [{"type": "pass"}]  # facing 36: pass only
    assert make_ruleset("snoozer").target == 50 and make_ruleset("snoozer", {"target": 100}).target == 100
    for bad in ({"target": 60}, {"target": True}, {"players": 3}, {"deal_all": "yes"}):
        with pytest.raises(ValueError):
            make_ruleset("snoozer", bad)


def test_scoring_order_sale_set_back_then_the_items_and_the_target_stops_a_game():
    # E bids 20, S 30, W passes, E passes, N sells to S (N scores 30 at once); S cannot make 30
    state = act(hand("snoozer", JOKER_LED[:], 4), 20, 30, "pass", "pass", "sell")
    assert state.contract_dict() == {"seat": "S", "amount": 30} and state.seat_to_act() == "S"
    play_out(state)
    kinds = [i[0] for i in item_list(state)]
    assert kinds[:2] == ["sale", "set-back"] and item_list(state)[1] == ("set-back", "S", -30)
    assert "S" not in [i[1] for i in item_list(state)[2:]]  # a failed pitcher scores no item
    in_game = act(hand("snoozer", JOKER_LED[:], 4, in_game=True, scores=(0, 45, 0, 0)), *NOBODY_BIDS, "pitch")
    play_out(in_game, lambda legal: legal[-1])
    totals = [45 if s == "E" else 0 for s in ("N", "E", "S", "W")]
    for _item, side, value in item_list(in_game):  # nothing after E reaches 50
        assert max(totals) < 50
        totals[("N", "E", "S", "W").index(side)] += value
    assert in_game.settle((0, 45, 0, 0))[0] == tuple(totals)
