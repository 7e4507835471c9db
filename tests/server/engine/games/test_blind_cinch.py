"""Blind Cinch (docs/rules/blind_cinch.md, docs/rules/rulings.md#blind-packets), one named test per rule it settles."""

import pytest
from support.handbuilder import board_with

from server.engine import IllegalAction, RulesetError, generate_board, make_ruleset, new_hand, observation
from server.engine.cards import CARD_NAMES
from server.engine.playout import default_action
from server.engine.scoring import bidder_goes_out_next

FOSTER = make_ruleset("blind_cinch")
AMERICAN = make_ruleset("blind_cinch", {"base": "american62"})

# Dealer N: the eldest E, then S, W, N. Packets: E deck[36:40], S [40:44], W [44:48], N [48:52].
HANDS = {
    "E": ["AH", "KH", "QH", "JH", "TH", "9H", "8H", "7H", "2C"],
    "S": ["AS", "KS", "QS", "JS", "TS", "9S", "8S", "7S", "6S"],
    "W": ["AC", "KC", "QC", "JC", "TC", "9C", "8C", "7C", "6C"],
    "N": ["AD", "KD", "QD", "JD", "TD", "9D", "8D", "7D", "6D"],
}
PACKETS = {
    "E": ["6H", "4H", "3H", "5D"],
    "S": ["2H", "5H", "4D", "3D"],
    "W": ["2D", "5S", "4S", "3S"],
    "N": ["2S", "5C", "4C", "3C"],
}
BOARD = board_with(HANDS, dealer="N", stock=PACKETS["E"] + PACKETS["S"] + PACKETS["W"] + PACKETS["N"])


def hand_of(state, seat):
    return {CARD_NAMES[c] for c in range(52) if state.hands["NESW".index(seat)] >> c & 1}


def cards_in(obj):
    """Every card string anywhere in a JSON-like value."""
    if isinstance(obj, dict):
        return set().union(*map(cards_in, obj.values())) if obj else set()
    if isinstance(obj, list):
        return set().union(*map(cards_in, obj)) if obj else set()
    return {obj} if isinstance(obj, str) and obj in CARD_NAMES else set()


def started(rules, actions, board=BOARD):
    state = new_hand(rules, board)
    for action in actions:
        state.apply(action)
    return state


E_BIDS_7 = [{"type": "bid", "amount": 7}, {"type": "pass"}, {"type": "pass"}, {"type": "pass"}]


# ---------------------------------------------------------------- the deal and the packets
def test_nine_dealt_each_and_the_packets_are_no_stock():
    state = new_hand(FOSTER, BOARD)
    assert [hand_of(state, s) == set(HANDS[s]) for s in "NESW"] == [True] * 4
    assert state.stock == []
    assert {s: {CARD_NAMES[c] for c in range(52) if state.packet("NESW".index(s)) >> c & 1} for s in "NESW"} == {
        s: set(p) for s, p in PACKETS.items()
    }


def test_packets_are_seen_by_nobody_until_taken_up():
    state = new_hand(FOSTER, BOARD)
    every_packet = set().union(*map(set, PACKETS.values()))
    for seat in [*"NESW", None]:
        assert not cards_in(observation(state, seat)) & every_packet
    state = started(FOSTER, E_BIDS_7)
    assert set(PACKETS["E"]) <= set(observation(state, "E")["hand"])  # the declarer took his up
    for seat in ["N", "S", "W", None]:
        assert not cards_in(observation(state, seat)) & every_packet
    assert not cards_in(observation(state, "E")) & (every_packet - set(PACKETS["E"]))


def test_declarer_takes_his_packet_before_naming_trump():
    state = started(FOSTER, E_BIDS_7)
    assert state.phase == "trump" and state.seat_to_act() == "E"
    assert len(hand_of(state, "E")) == 13 and all(len(hand_of(state, s)) == 9 for s in "NSW")


def test_discards_go_declarer_first_then_clockwise_from_his_left():
    bids = [{"type": "pass"}, {"type": "bid", "amount": 3}, {"type": "pass"}, {"type": "pass"}]  # S declares
    state = started(FOSTER, bids + [{"type": "trump", "suit": "S"}])
    order = []
    while state.phase == "discard":
        seat = state.seat_to_act()
        order.append(seat)
        hand = sorted(hand_of(state, seat))
        assert len(hand) == 13, "each player takes up his packet when his discard turn comes"
        assert not cards_in(observation(state, seat)) & set().union(*(PACKETS[s] for s in "NESW" if s not in order))
        state.apply({"type": "discard", "cards": hand[:7]})
    assert order == ["S", "W", "N", "E"]
    assert state.phase == "play" and state.seat_to_act() == "S"  # the declarer leads
    assert all(len(hand_of(state, s)) == 6 for s in "NESW")


def test_foster51_nobody_bids_the_dealer_declares_without_contract():
    state = started(FOSTER, [{"type": "pass"}] * 4)
    assert state.contract is None and state.seat_to_act() == "N" and len(hand_of(state, "N")) == 13


# ---------------------------------------------------------------- foster51 base
def test_foster51_discard_is_exactly_seven_of_any_cards():
    state = started(FOSTER, E_BIDS_7 + [{"type": "trump", "suit": "H"}])
    (choice,) = state.legal_actions()
    assert (choice["min"], choice["max"], len(choice["from"])) == (7, 7, 13)
    assert "must_include" not in choice
    hand = sorted(hand_of(state, "E"))
    for wrong in (hand[:6], hand[:8]):
        with pytest.raises(IllegalAction, match="exactly 7"):
            state.apply({"type": "discard", "cards": wrong})
    state.apply({"type": "discard", "cards": ["AH", "JH", "TH", "5D", "2C", "KH", "QH"]})  # trumps allowed
    assert state.seat_to_act() == "S"


def test_foster51_counting_discards_score_for_the_declarers_side_face_up():
    state = started(FOSTER, E_BIDS_7 + [{"type": "trump", "suit": "H"}])
    state.apply({"type": "discard", "cards": ["2C", "AH", "KH", "QH", "JH", "TH", "9H"]})  # E, declarer
    assert {"AH", "JH", "TH"} <= set(observation(state, "W")["draws"][0]["shown"])  # face up
    state.apply({"type": "discard", "cards": ["2H", "5H", "AS", "KS", "QS", "JS", "TS"]})  # S, defender
    state.apply({"type": "discard", "cards": sorted(hand_of(state, "W"))[:7]})
    state.apply({"type": "discard", "cards": sorted(hand_of(state, "N"))[:7]})
    while state.phase != "done":
        state.apply(default_action(state.legal_actions()))
    described = state.describe()
    from_discards = [i for i in described["items"] if i.get("discard")]
    assert [i["item"] for i in from_discards][:5] == ["AH", "JH", "TH", "2H", "5H"]
    assert all(i["side"] == "EW" for i in from_discards)
    assert sum(described["points"].values()) == 14


# ---------------------------------------------------------------- american62 base
def test_american62_base_takes_every_rule_of_american62():
    assert (
        AMERICAN.min_bid,
        AMERICAN.dealer_must_bid,
        AMERICAN.low_to_holder,
        AMERICAN.scoring,
        AMERICAN.target,
        AMERICAN.bidder_goes_out,
    ) == (7, True, True, "american", 62, True)
    assert make_ruleset("blind_cinch", {"base": "american62", "target": 51}).target == 51
    assert (FOSTER.min_bid, FOSTER.target, FOSTER.scoring) == (1, 51, "difference")
    assert bidder_goes_out_next(AMERICAN, (55, 58)) and not bidder_goes_out_next(FOSTER, (55, 58))
    for options in ({"base": "american62"}, {"base": "american62", "target": 51}, {"target": 51}, {}):
        rules = make_ruleset("blind_cinch", options)
        assert make_ruleset("blind_cinch", rules.options()) == rules and rules.options() == options


def test_options_are_base_and_target_and_four_players():
    for options in ({"base": "pitch"}, {"base": "american62 "}, {"target": 0}, {"min_bid": 3}, {"players": 5}):
        with pytest.raises(RulesetError):
            make_ruleset("blind_cinch", options)


def test_american62_base_dealer_must_bid_exactly_seven():
    state = started(AMERICAN, [{"type": "pass"}] * 3)
    assert state.legal_actions() == [{"type": "bid", "amount": 7}]
    for wrong in ({"type": "pass"}, {"type": "bid", "amount": 8}):
        with pytest.raises(IllegalAction, match="must bid"):
            state.apply(wrong)


def test_american62_base_discards_only_non_trumps_down_to_thirteen_minus_max_six_trumps():
    state = started(AMERICAN, E_BIDS_7 + [{"type": "trump", "suit": "H"}])
    # E holds 12 trumps (left Pedro included) and the 2C: he is still asked, and discards 13 - 12 = 1
    (choice,) = state.legal_actions()
    assert (choice["from"], choice["min"]) == (["2C"], 1) and choice.get("max", 1) == 1
    with pytest.raises(IllegalAction, match="only non-trumps"):
        state.apply({"type": "discard", "cards": ["3H"]})
    state.apply({"type": "discard", "cards": ["2C"]})
    # S: 2H 5H trumps and eleven others: discards 13 - max(6, 2) = 7 of the eleven, face down
    (choice,) = state.legal_actions()
    assert (choice["min"], choice["max"], len(choice["from"])) == (7, 7, 11)
    assert not {"2H", "5H"} & set(choice["from"])
    state.apply({"type": "discard", "cards": choice["from"][:7]})
    assert observation(state, "N")["draws"][1]["shown"] == []
    assert observation(state, "N")["draws"][1]["cards"] is None
    assert observation(state, "S")["draws"][1]["cards"] == sorted(choice["from"][:7], key=CARD_NAMES.index)


def test_american62_base_extras_on_the_first_trick():
    state = started(AMERICAN, E_BIDS_7 + [{"type": "trump", "suit": "H"}, {"type": "discard", "cards": ["2C"]}])
    while state.phase == "discard":
        state.apply(default_action(state.legal_actions()))
    assert state.seat_to_act() == "E" and len(hand_of(state, "E")) == 12
    legal = state.legal_actions()
    assert {a["extras_count"] for a in legal} == {6}
    assert all(not {"AH", "JH", "TH", "5D"} & set(a["extras_from"]) for a in legal)
    with pytest.raises(IllegalAction, match="counting trump"):
        state.apply({"type": "play", "card": "KH", "extras": ["AH", "QH", "9H", "8H", "7H", "6H"]})
    state.apply({"type": "play", "card": "AH", "extras": ["KH", "QH", "9H", "8H", "7H", "6H"]})
    assert len(hand_of(state, "E")) == 5


def test_american62_base_low_goes_to_its_holder_and_scores_as_american62():
    for n in range(1, 40):
        state = new_hand(AMERICAN, generate_board("blind-low", n))
        while state.phase != "done":
            state.apply(default_action(state.legal_actions()))  # all pass: the dealer's forced 7
        d = state.describe()
        low = next((i for i in d["items"] if i["item"] == "2" + d["trump"]), None)
        holder = next(p["seat"] for t in d["tricks"] for p in t["plays"] if p["card"] == "2" + d["trump"])
        assert low["side"] == ("NS" if holder in "NS" else "EW")
        assert sum(d["points"].values()) == 14
        side = "NS" if d["declarer"] in "NS" else "EW"
        made = d["points"][side] >= d["contract"]["amount"]
        assert d["delta"][side] == (d["points"][side] if made else -d["contract"]["amount"])
