"""widow_cinch, one test per rule docs/rules/widow_cinch.md settles (the three sides, the deal
with its widow, the auction, taking or leaving the widow, the face-up discards, the lead,
the old way's scoring and a game's order, 16.12's left widow); the random-hand
properties are in test_widow_properties.py."""

from __future__ import annotations

from random import Random

import pytest
from support.allfours_decks import act
from support.widow_checks import SIDES, check_views, expected, names, side, widow_board

from server.engine import Game, IllegalAction, generate_board, make_ruleset, new_hand, observation, seats_for
from server.engine.rulesets import game_spec

RULES = make_ruleset("widow_cinch")
# Dealer P6, eldest P1. The widow holds the right and left Pedros of hearts and the ace.
HANDS = [
    ["2C", "3C", "4C", "6C", "7C", "8C", "9C", "TC"],
    ["2D", "3D", "4D", "6D", "7D", "8D", "9D", "TD"],
    ["2S", "3S", "4S", "6S", "7S", "8S", "9S", "TS"],
    ["JC", "QC", "KC", "AC", "JD", "QD", "KD", "AD"],
    ["JS", "QS", "KS", "AS", "2H", "3H", "4H", "6H"],
    ["7H", "8H", "9H", "TH", "JH", "QH", "KH", "5C"],
]
WIDOW = ["5H", "5D", "AH", "5S"]


def fresh(dealer: int = -1):
    return new_hand(RULES, widow_board(HANDS, WIDOW, dealer))


def finish(state, rng: Random, low_bids: bool = False):
    """Random decisions to the end; with ``low_bids`` each seat passes three times in four,
    else bids one more than the highest, so that contracts are often made (or absent)."""
    while state.phase != "done":
        if low_bids and state.phase == "bidding":
            state.do_bid(0 if rng.random() < 0.75 else state.high_bid + 1)
        else:
            state.random_step(rng)
    return state


def test_three_sides_of_two_partners_three_seats_apart():
    state = fresh()
    assert state.seats == ("P1", "P2", "P3", "P4", "P5", "P6")
    assert state.sides == SIDES == game_spec(RULES).sides(6)[0]
    assert [state.sides[state.side_of[i]] for i in range(6)] == [side(s) for s in state.seats]
    assert observation(state, "P2")["scores"] == {"P1P4": 0, "P2P5": 0, "P3P6": 0}


def test_only_six_players():
    with pytest.raises(ValueError, match="played by"):
        make_ruleset("widow_cinch", {"players": 4})


def test_deal_rounds_of_four_and_a_widow_of_four_between_them():
    state = fresh()
    assert [names(h) for h in state.hands] == [set(h) for h in HANDS]
    assert names(state.widow) == set(WIDOW)
    assert observation(state, "P1")["hand_sizes"] == dict.fromkeys(state.seats, 8)


def test_one_bid_each_from_the_eldest_to_the_dealer_then_the_highest_bidder_decides_the_widow():
    state = fresh()
    asked = []
    for a in (1, "pass", 4, "pass", 9, "pass"):
        asked.append(state.seat_to_act())
        act(state, a)
    assert asked == ["P1", "P2", "P3", "P4", "P5", "P6"]
    assert state.contract_dict() == {"seat": "P5", "amount": 9} and state.phase == "widow"
    assert state.seat_to_act() == "P5"
    assert state.legal_actions() == [{"type": "widow", "take": True}, {"type": "widow", "take": False}]


def test_bids_from_1_to_14_each_above_the_highest():
    state = act(fresh(), 5)
    for bad in (5, 15, 0, True, "6"):
        with pytest.raises(IllegalAction):
            state.apply({"type": "bid", "amount": bad})
    act(state, 14)
    assert state.legal_actions() == [{"type": "pass"}]


def test_all_pass_the_dealer_declares_with_no_contract():
    state = act(fresh(), *["pass"] * 6)
    assert state.contract is None and state.seat_to_act() == "P6" and state.phase == "widow"


def test_a_taken_widow_joins_the_declarers_hand_and_he_alone_sees_it():
    state = act(fresh(), *["pass"] * 5, 3, {"type": "widow", "take": True})
    assert state.widow_taken and names(state.hands[5]) == set(HANDS[5]) | set(WIDOW)
    assert state.phase == "trump" and state.seat_to_act() == "P6"
    assert set(WIDOW) <= set(observation(state, "P6")["hand"])
    for seat in ("P1", "P2", "P3", "P4", "P5", None):
        view = observation(state, seat)
        assert view["widow_taken"] is True and not set(WIDOW) & set(str(view))
    act(state, {"type": "trump", "suit": "H"})
    assert state.legal_actions() == [{"type": "discard", "from": observation(state, "P6")["hand"], "min": 6, "max": 6}]


def test_a_left_widow_is_out_of_play_and_scores_for_nobody():
    state = act(fresh(), *["pass"] * 5, 3, {"type": "widow", "take": False}, {"type": "trump", "suit": "H"})
    assert names(state.hands[5]) == set(HANDS[5])
    for seat in (*state.seats, None):
        assert not set(WIDOW) & set(str(observation(state, seat)))
    finish(state, Random(1))
    out = state.describe()
    assert out["record"]["widow"] == ["5D", "5H", "AH", "5S"]
    # 5H (right Pedro), 5D (left Pedro) and AH stayed in the widow: 14 - 11 points were in play
    assert sum(out["points"].values()) == 3
    assert (out["points"], out["delta"]) == expected(out)


def test_the_widow_needs_a_boolean_take_from_the_declarer():
    state = act(fresh(), *["pass"] * 5, 3)
    before = state.describe()
    for bad in (
        {"type": "widow"},
        {"type": "widow", "take": 1},
        {"type": "widow", "take": "yes"},
        {"type": "widow", "take": True, "seat": "P1"},
        {"type": "trump", "suit": "H"},
    ):
        with pytest.raises(IllegalAction):
            state.apply(bad)
        assert state.describe() == before


def test_discards_face_up_down_to_six_the_declarer_first_then_clockwise():
    state = act(
        fresh(),
        "pass",
        "pass",
        6,
        "pass",
        "pass",
        "pass",
        {"type": "widow", "take": True},
        {"type": "trump", "suit": "S"},
    )
    order, counts = [], []
    rng = Random(3)
    while state.phase == "discard":
        order.append(state.seat_to_act())
        choice = state.legal_actions()[0]
        counts.append(choice["min"])
        with pytest.raises(IllegalAction, match="must be"):
            state.apply({"type": "discard", "cards": choice["from"][: choice["min"] - 1]})
        state.apply({"type": "discard", "cards": rng.sample(choice["from"], choice["min"])})
    assert order == ["P3", "P4", "P5", "P6", "P1", "P2"] and counts == [6, 2, 2, 2, 2, 2]
    draws = observation(state, "P1")["draws"]
    assert [d["seat"] for d in draws] == order
    assert all(d["shown"] == d["cards"] and len(d["shown"]) == n for d, n in zip(draws, counts))
    assert observation(state, None)["draws"] == draws  # face up: the same for everyone
    assert state.phase == "play" and state.seat_to_act() == "P3"  # 9.6: the declarer leads
    assert all(h.bit_count() == 6 for h in state.hands)


def test_trumps_may_be_discarded_and_count_for_the_declarers_side():
    # P2 (a defender of P1's contract) throws the left Pedro of hearts (5D): P1P4 scores it
    state = act(
        fresh(),
        2,
        "pass",
        "pass",
        "pass",
        "pass",
        "pass",
        {"type": "widow", "take": False},
        {"type": "trump", "suit": "H"},
        {"type": "discard", "cards": ["2C", "3C"]},
        {"type": "discard", "cards": ["2D", "3D"]},
    )
    assert not state.hands[1] >> 3 & 1
    finish(state, Random(2))
    out = state.describe()
    assert out["record"]["discards"]["P2"] == ["2D", "3D"]
    assert (out["points"], out["delta"]) == expected(out)


def random_hands(pred, limit: int = 400):
    """Complete random hands (fast layer, low bids every other hand) of the generator's
    boards until ``pred(out)``."""
    rng = Random(7)
    for n in range(1, limit):
        state = finish(new_hand(RULES, generate_board("widow-rules", n, seats_for(6))), rng, n % 2 == 0)
        out = state.describe()
        if pred(out):
            return state, out
    raise AssertionError("no such hand")


def test_a_failed_contract_is_set_back_by_the_bid_and_the_defenders_add_what_they_won():
    state, out = random_hands(lambda o: o["contract"] and o["points"][side(o["declarer"])] < o["contract"]["amount"])
    mine = side(out["declarer"])
    assert out["delta"][mine] == -out["contract"]["amount"]
    assert all(out["delta"][s] == out["points"][s] for s in SIDES if s != mine)
    assert (out["points"], out["delta"]) == expected(out)


def test_a_made_contract_and_no_contract_add_what_each_side_won():
    for pred in (
        lambda o: o["contract"] and o["points"][side(o["declarer"])] >= o["contract"]["amount"],
        lambda o: o["contract"] is None,
    ):
        state, out = random_hands(pred)
        assert out["delta"] == out["points"] and (out["points"], out["delta"]) == expected(out)


def test_points_are_fourteen_less_a_left_widows_counting_cards():
    for taken in (True, False):
        state, out = random_hands(lambda o: o["widow_taken"] is taken)
        trump = out["trump"]
        left = sum(
            5 if c[0] == "5" else 1
            for c in out["record"]["widow"]
            if (c[1] == trump or c == "5" + {"C": "S", "S": "C", "D": "H", "H": "D"}[trump]) and c[0] in "AJT25"
        )
        assert sum(out["points"].values()) == 14 - left
        assert (out["record"]["widow"] == []) is taken


def test_a_game_counts_the_declarers_side_first_then_each_card_to_the_defenders_in_order():
    # a hand where the declarer made his bid and two defending sides won counting cards
    state, out = random_hands(
        lambda o: o["contract"] and o["delta"][side(o["declarer"])] > 0 and sum(o["points"][s] > 0 for s in SIDES) == 3
    )
    mine = SIDES.index(side(out["declarer"]))
    items = state.score_items()
    assert items[0] == (mine, out["delta"][side(out["declarer"])])
    assert all(s != mine for s, _ in items[1:])
    assert sum(v for _, v in items) == sum(out["delta"].values())
    trump = out["trump"]
    order = [
        "A" + trump,
        "2" + trump,
        "J" + trump,
        "T" + trump,
        "5" + trump,
        "5" + {"C": "S", "S": "C", "D": "H", "H": "D"}[trump],
    ]
    won_by = {c: side(t["winner"]) for t in out["tricks"] for c in (p["card"] for p in t["plays"])}
    want = [
        (SIDES.index(won_by[c]), 5 if c[0] == "5" else 1) for c in order if c in won_by and won_by[c] != SIDES[mine]
    ]
    assert items[1:] == want
    # the declarer's side reaches the target first, whatever the defenders' scores
    target = RULES.target
    before = tuple(target - 1 if s != mine else target - items[0][1] for s in range(3))
    assert state.settle(before) == (tuple(b + (items[0][1] if s == mine else 0) for s, b in enumerate(before)), mine)
    # with the declarer's side far off, the first defending item to reach the target wins
    first_side, first_value = items[1]
    before = tuple(-100 if s == mine else target - first_value for s in range(3))
    after, winner = state.settle(before)
    assert winner == first_side and after[first_side] == target


def test_a_game_of_random_hands_ends_with_one_side_at_the_target_the_deal_passing_left():
    rules = make_ruleset("widow_cinch", {"target": 21})
    game = Game(rules, lambda n: generate_board("widow-game", n, seats_for(6)))
    rng, dealers = Random(5), []
    while game.winner is None:
        hand = game.new_hand()
        dealers.append(hand.dealer)
        finish(hand, rng, low_bids=True)
        game.finish_hand(hand)
        assert game.hands_played < 300
    assert dealers == [i % 6 for i in range(len(dealers))]
    assert game.scores[game.sides.index(game.winner)] >= 21


def test_no_observation_shows_a_hidden_card_at_any_decision():
    state, rng = fresh(), Random(9)
    while state.phase != "done":
        check_views(state)
        state.random_step(rng)
