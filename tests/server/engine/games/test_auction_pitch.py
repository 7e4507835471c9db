"""auction_pitch, one test per rule docs/rules/auction_pitch.md settles (the auction, the sale,
the pitch, the scoring and its order); the random-hand properties for k = 4 ... 7 are in
test_auction_properties.py."""

from __future__ import annotations

import pytest
from support.allfours_decks import act, hand, item_list, play_out, turnup_deck

from server.engine import IllegalAction, make_ruleset, replay

# k = 4, dealer W, eldest N; o_1 E, o_2 S, o_3 W. Hearts, when pitched: N holds High (AH),
# S Low (2H) and 3H; no Jack or Ten of hearts is dealt.
DECK = turnup_deck(
    [
        ["AH", "2C", "3C", "4C", "5C", "6C"],
        ["KH", "7C", "8C", "9C", "TC", "JC"],
        ["2H", "3H", "QC", "KC", "AC", "2D"],
        ["QH", "3D", "4D", "5D", "6D", "7D"],
    ]
)
# S pitches 2H and wins Low and Game (20 pips to N's 9); N wins High.
PLAY = [
    "2H",
    "QH",
    "AH",
    "KH",  # N wins with AH
    "6C",
    "TC",
    "AC",
    "3D",  # S wins
    "3H",
    "4D",
    "2C",
    "7C",  # S
    "KC",
    "5D",
    "3C",
    "JC",  # S
    "QC",
    "6D",
    "4C",
    "8C",  # S
    "2D",
    "7D",
    "5C",
    "9C",
]  # W
FIVE = [f"P{i}" for i in range(1, 6)]


def seats_asked(state, *actions) -> list[str]:
    """The seat to act before each action, and after the last."""
    asked = []
    for a in actions:
        asked.append(state.seat_to_act())
        act(state, a)
    return asked + [state.seat_to_act()]


def test_the_auction_asks_each_player_once_from_the_eldests_left_to_the_dealer():
    state = hand("auction_pitch", DECK[:], 5)  # dealer P5, eldest P1
    assert (state.phase, state.trump, state.hands_after_draw) == ("bidding", None, None)
    assert seats_asked(state, 1, "pass", 2, "pass") == ["P2", "P3", "P4", "P5", "P1"]
    assert state.phase == "sale" and state.contract is None


def test_bids_run_from_one_to_four_each_above_the_last():
    state = act(hand("auction_pitch", DECK[:], 4), 2)  # E bids 2
    assert state.legal_actions() == [{"type": "pass"}, {"type": "bid", "amount": 3}, {"type": "bid", "amount": 4}]
    before = state.describe()
    for amount, why in ((2, "not above"), (5, "out of range"), (0, "out of range"), ("3", "whole number")):
        with pytest.raises(IllegalAction, match=why):
            state.apply({"type": "bid", "amount": amount})
        assert state.describe() == before
    act(state, 4)  # S bids 4: W may only pass
    assert state.legal_actions() == [{"type": "pass"}]


def test_the_eldest_never_bids():
    state = act(hand("auction_pitch", DECK[:], 4), "pass", "pass", "pass")
    assert state.seat_to_act() == "N" and all(b["seat"] != "N" for b in state.public(None)["bids"])
    with pytest.raises(IllegalAction, match="expected sell or pitch from N"):
        state.apply({"type": "bid", "amount": 1})
    with pytest.raises(IllegalAction, match="out of turn"):
        act(hand("auction_pitch", DECK[:], 4), {"type": "bid", "amount": 1, "seat": "N"})


def test_sell_is_legal_only_if_someone_bid():
    state = act(hand("auction_pitch", DECK[:], 4), "pass", "pass", "pass")
    assert state.legal_actions() == [{"type": "pitch"}]
    before = state.describe()
    with pytest.raises(IllegalAction, match="cannot sell: nobody bid"):
        state.apply({"type": "sell"})
    assert state.describe() == before
    state = act(hand("auction_pitch", DECK[:], 4), "pass", 1, "pass")
    assert state.legal_actions() == [{"type": "sell"}, {"type": "pitch"}]


def test_a_sale_scores_the_bid_to_the_eldest_at_once_and_the_bidder_pitches():
    state = act(hand("auction_pitch", DECK[:], 4), "pass", 3, "pass", "sell")
    assert state.contract_dict() == {"seat": "S", "amount": 3}
    assert (state.phase, state.seat_to_act(), state.describe()["declarer"]) == ("play", "S", "S")
    assert item_list(state) == [("sale", "N", 3)]
    assert state.tricks[-1].leader == state.seats.index("S")


def test_in_a_game_the_eldest_cannot_sell_to_put_himself_out():
    state = act(hand("auction_pitch", DECK[:], 4, in_game=True, scores=(5, 0, 0, 0)), "pass", 2, "pass")
    assert state.legal_actions() == [{"type": "pitch"}]  # 5 + 2 would reach 7
    with pytest.raises(IllegalAction, match="would put him out"):
        state.apply({"type": "sell"})
    state = act(hand("auction_pitch", DECK[:], 4, in_game=True, scores=(5, 0, 0, 0)), "pass", 1, "pass")
    assert {"type": "sell"} in state.legal_actions()  # 5 + 1 does not
    # on a board no target applies (16.2), whatever target is chosen
    state = act(hand("auction_pitch", DECK[:], 4, target=1), "pass", 4, "pass")
    assert {"type": "sell"} in state.legal_actions()


def test_the_eldest_pitches_at_the_highest_bid_or_with_no_contract():
    state = act(hand("auction_pitch", DECK[:], 4), "pass", 2, "pass", "pitch")
    assert state.contract_dict() == {"seat": "N", "amount": 2} and state.seat_to_act() == "N"
    state = act(hand("auction_pitch", DECK[:], 4), "pass", "pass", "pass", "pitch")
    assert state.contract_dict() is None and state.describe()["declarer"] == "N" and state.seat_to_act() == "N"
    assert state.items == []


def test_the_pitchers_first_play_fixes_trump():
    state = act(hand("auction_pitch", DECK[:], 4), "pass", 2, "pass", "sell")
    assert state.trump is None
    assert {a["card"] for a in state.legal_actions()} == {"2H", "3H", "QC", "KC", "AC", "2D"}  # any card
    act(state, "2H")
    assert state.trump_name() == "H"
    assert [a["card"] for a in state.legal_actions()] == ["QH"]  # W must play a trump to a trump lead
    before = state.describe()
    with pytest.raises(IllegalAction, match="a trump was led"):
        act(state, "3D")
    assert state.describe() == before
    assert [a["type"] for a in state.legal_actions()] == ["play"]  # there is no trump action


def test_a_pitcher_short_of_his_contract_is_set_back_and_scores_no_item():
    state = act(hand("auction_pitch", DECK[:], 4), "pass", 3, "pass", "sell", *PLAY)
    out = state.describe()
    assert out["complete"] and out["tricks"][0]["winner"] == "N"
    assert item_list(state) == [("sale", "N", 3), ("set-back", "S", -3), ("high", "N", 1)]
    assert out["points"] == {"N": 1, "E": 0, "S": 2, "W": 0}  # what S won is still shown
    assert out["delta"] == {"N": 4, "E": 0, "S": -3, "W": 0}


def test_a_pitcher_who_makes_his_contract_adds_all_he_won():
    state = act(hand("auction_pitch", DECK[:], 4), "pass", 2, "pass", "sell", *PLAY)
    assert item_list(state) == [("sale", "N", 2), ("high", "N", 1), ("low", "S", 1), ("game", "S", 1)]
    assert state.describe()["delta"] == {"N": 3, "E": 0, "S": 2, "W": 0}


def test_with_no_contract_the_pitcher_adds_what_he_won():
    state = act(hand("auction_pitch", DECK[:], 4), "pass", "pass", "pass", "pitch", "AH", "KH", "2H", "QH")
    play_out(state)
    assert not [i for i in item_list(state) if i[0] == "set-back"]
    assert state.delta() == state.points()


def test_high_and_low_score_for_their_holders():
    state = act(hand("auction_pitch", DECK[:], 4), "pass", 2, "pass", "sell", *PLAY)
    assert state.describe()["tricks"][0]["winner"] == "N"  # N won the Low (2H) that S held
    assert ("low", "S", 1) in item_list(state)


@pytest.mark.parametrize("k", [4, 5])
def test_a_tied_game_scores_for_nobody(k):
    low = [r + s for s in "CDHS" for r in "23456789"]  # no card with pips: all tie at 0
    deck = turnup_deck([low[6 * i : 6 * i + 6] for i in range(k)])
    state = play_out(act(hand("auction_pitch", deck, k), *["pass"] * (k - 1), "pitch"))
    assert "game" not in [i[0] for i in item_list(state)]
    assert {i[0] for i in item_list(state)} == {"high", "low"}


def test_in_a_game_the_items_stop_at_the_target_in_their_order():
    # S (the pitcher) at 6 makes his contract: sale, High (N), then Low takes S to 7; Game is not applied
    state = act(hand("auction_pitch", DECK[:], 4, in_game=True, scores=(0, 0, 6, 0)), "pass", 2, "pass", "sell", *PLAY)
    assert item_list(state) == [("sale", "N", 2), ("high", "N", 1), ("low", "S", 1)]
    assert state.settle((0, 0, 6, 0)) == ((3, 0, 7, 0), 2)
    # the sale is applied first, then the set back, then the items
    state = act(hand("auction_pitch", DECK[:], 4, in_game=True, scores=(3, 0, 0, 0)), "pass", 3, "pass", "sell", *PLAY)
    assert item_list(state) == [("sale", "N", 3), ("set-back", "S", -3), ("high", "N", 1)]
    assert state.settle((3, 0, 0, 0)) == ((7, 0, -3, 0), 0)


def test_players_four_to_seven_default_four_target_seven():
    rules = make_ruleset("auction_pitch")
    assert (rules.players, rules.target, rules.max_bid) == (4, 7, 4)
    for k in (4, 5, 6, 7):
        assert make_ruleset("auction_pitch", {"players": k}).players == k
    for bad in ({"players": 3}, {"players": 8}, {"deal_all": True}, {"target": 0}):
        with pytest.raises(ValueError):
            make_ruleset("auction_pitch", bad)


def test_the_bids_are_public_and_the_replay_is_the_hand():
    state = act(hand("auction_pitch", DECK[:], 5), 1, "pass", 3, "pass", "sell")
    assert state.public(None)["bids"] == [
        {"seat": "P2", "type": "bid", "amount": 1},
        {"seat": "P3", "type": "pass"},
        {"seat": "P4", "type": "bid", "amount": 3},
        {"seat": "P5", "type": "pass"},
    ]
    doc = {
        "ruleset": "auction_pitch",
        "options": {"players": 5},
        "board": state.board.to_dict(),
        "actions": state.actions,
    }
    assert replay(doc) == state.describe()
    assert FIVE == list(state.seats)
