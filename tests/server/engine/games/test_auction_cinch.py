"""auction_cinch (Razzle-dazzle), one test per rule docs/rules/auction_cinch.md (with 16.10,
16.11) settles: the auction, the draw and its reshuffle, the call (another's card, one's
own, one in the stock or the discards; when the partnership is known), the lead, the
scoring (the section's worked example) and the game end. The random-hand properties are
in test_auction_cinch_properties.py."""

from __future__ import annotations

from random import Random

import pytest
from support.allfours_decks import act, hand, play_out, turnup_deck

from server.engine import (
    CARD_NAMES,
    Board,
    IllegalAction,
    generate_board,
    make_ruleset,
    new_hand,
    observation,
    seats_for,
)
from server.engine.boards import restock_order
from server.engine.cards import CARD_INDEX
from server.engine.games.auction_cinch import AUCTION_CINCH
from server.engine.playout import random_action
from server.engine.relabel import View, relabelings
from server.engine.scoring import hand_delta

# k = 5, dealer P5, eldest P1. Hearts as trump: P1 AH KH, P2 QH JH, P3 the two Pedros,
# P4 TH 2H, P5 3H 4H; the stock's top cards are the rest of the hearts.
HANDS = [
    ["AH", "KH", "2C", "3C", "4C", "6C"],
    ["QH", "JH", "7C", "8C", "9C", "TC"],
    ["5H", "5D", "2D", "3D", "4D", "6D"],
    ["TH", "2H", "7D", "8D", "9D", "TD"],
    ["3H", "4H", "2S", "3S", "4S", "6S"],
]
STOCK = ["9H", "8H", "7H", "6H", "JD", "QD", "KD", "AD", "QC", "KC", "AC", "JC"]
DECK = turnup_deck(HANDS, rest=STOCK)
FIVE = ("P1", "P2", "P3", "P4", "P5")


def cinch(deck=DECK, k=5, **kw):
    return hand("auction_cinch", list(deck), k, **kw)


def discard(*cards: str) -> dict:
    return {"type": "discard", "cards": list(cards)}


def call(card: str) -> dict:
    return {"type": "call", "card": card}


def to_call(state=None, bid: int = 5, discards=((), (), (), (), ())):
    """P1 bids ``bid`` (the others pass), names hearts; the seats discard in turn."""
    state = state or cinch()
    act(state, bid, "pass", "pass", "pass", "pass", {"type": "trump", "suit": "H"})
    for cards in discards:
        act(state, discard(*cards))
    return state


def test_the_auction_is_foster51s_one_bid_each_from_the_eldest_to_the_dealer():
    state = cinch()
    asked = []
    for a in (3, "pass", 7, "pass"):
        asked.append(state.seat_to_act())
        act(state, a)
    assert asked == ["P1", "P2", "P3", "P4"] and state.seat_to_act() == "P5"
    assert state.legal_actions() == [{"type": "pass"}, *({"type": "bid", "amount": a} for a in range(8, 15))]
    act(state, "pass")
    assert (state.phase, state.seat_to_act(), state.contract_dict()) == ("trump", "P3", {"seat": "P3", "amount": 7})


def test_when_all_pass_the_dealer_declares_with_no_contract():
    state = act(cinch(), "pass", "pass", "pass", "pass", "pass")
    assert (state.phase, state.seat_to_act(), state.contract) == ("trump", "P5", None)


def test_the_draw_goes_from_the_eldest_the_dealer_last_zero_to_six_face_up_refilled_from_the_top():
    state = act(cinch(), 5, "pass", "pass", "pass", "pass", {"type": "trump", "suit": "H"})
    [choice] = state.legal_actions()
    assert (set(choice.pop("from")), choice) == (set(HANDS[0]), {"type": "discard", "min": 0, "max": 6})
    seen = []
    for cards in (["2C", "3C"], [], ["2D", "3D", "4D", "6D", "5D", "5H"], ["7D"], ["2S"]):
        seen.append(state.seat_to_act())
        act(state, discard(*cards))
    assert seen == list(FIVE) and (state.phase, state.seat_to_act()) == ("call", "P1")
    assert observation(state, None)["hand_sizes"] == {seat: 6 for seat in FIVE}
    assert set(observation(state, "P1")["hand"]) == {"AH", "KH", "4C", "6C", "9H", "8H"}
    # trumps may be discarded: P3 threw both Pedros and drew six from the top
    assert set(observation(state, "P3")["hand"]) == {"7H", "6H", "JD", "QD", "KD", "AD"}
    views = [observation(state, seat) for seat in (None, *FIVE)]
    for view in views:
        assert set(view["draws"][2]["shown"]) == {"2D", "3D", "4D", "6D", "5D", "5H"}
        assert all(d["drawn"] is None for d in view["draws"] if d["seat"] != view["seat"])
    assert set(views[3]["draws"][2]["drawn"]) == {"7H", "6H", "JD", "QD", "KD", "AD"}


def test_an_empty_stock_is_rebuilt_from_the_non_trump_discards_not_yet_put_back():
    # 22 cards in the stock: P1 4, P2 4, P3 5, P4 5, P5 4 empty it exactly, no reshuffle
    exact = to_call(
        discards=(
            ["2C", "3C", "4C", "6C"],
            ["7C", "8C", "9C", "TC"],
            ["2D", "3D", "4D", "6D", "5D"],
            ["7D", "8D", "9D", "TD", "2H"],
            ["2S", "3S", "4S", "6S"],
        )
    )
    assert (exact.restocks, observation(exact, "P1")["stock_size"]) == (0, 0)
    # P4 draws 6 (19 gone), P5 needs 4: 3 from the stock, then the rebuilt one's top card
    state = to_call(
        discards=(
            ["2C", "3C", "4C", "6C"],
            ["7C", "8C", "9C", "TC"],
            ["2D", "3D", "4D", "6D", "5D"],
            ["7D", "8D", "9D", "TD", "2H", "TH"],
            ["2S", "3S", "4S", "6S"],
        )
    )
    rebuilt = {
        "2C",
        "3C",
        "4C",
        "6C",
        "7C",
        "8C",
        "9C",
        "TC",
        "2D",
        "3D",
        "4D",
        "6D",
        "7D",
        "8D",
        "9D",
        "TD",
        "2S",
        "3S",
        "4S",
        "6S",
    }
    order = [CARD_NAMES[c] for c in restock_order(state.board.seed, 0, sorted(CARD_INDEX[c] for c in rebuilt))]
    old_stock = DECK[25:]
    view = observation(state, "P5")
    assert state.restocks == 1 and set(view["restocked"]) == rebuilt  # the trumps 5D 2H TH stay out
    assert view["draws"][4]["drawn"] == sorted({*old_stock[-3:], order[0]}, key=CARD_INDEX.get)
    assert view["stock_size"] == len(rebuilt) - 1
    assert observation(state, "P2")["draws"][4]["drawn"] is None
    record = play_out(act(state, call("AH"))).describe()["record"]
    assert record["stock"] == order[1:] and record["discards"]["P4"] == ["2H", "TH"]
    assert record["discards"]["P3"] == ["5D"] and record["discards"]["P5"] == []


def test_calling_a_card_another_player_holds_makes_him_partner_publicly_and_at_once():
    state = to_call()
    for seat in (None, *FIVE):
        assert observation(state, seat)["partner"] is None and observation(state, seat)["makers"] is None
    act(state, call("5H"))
    for seat in (None, *FIVE):
        view = observation(state, seat)
        assert (view["called"], view["partner"], view["makers"]) == ("5H", "P3", ["P1", "P3"])
    assert state.seats[state.partner] == "P3" and [state.team_of(s) for s in range(5)] == [0, 1, 0, 1, 1]


def test_calling_a_card_one_holds_oneself_means_playing_alone():
    state = act(to_call(), call("AH"))
    assert (observation(state, "P2")["partner"], observation(state, "P2")["makers"]) == (None, ["P1"])
    assert [state.team_of(s) for s in range(5)] == [0, 1, 1, 1, 1]


def test_calling_a_card_in_the_stock_means_playing_alone():
    state = act(to_call(), call("AC"))
    assert "AC" in {CARD_NAMES[c] for c in state.stock[state.stock_at :]}  # nobody drew: still in the stock
    assert (state.partner, observation(state, "P4")["makers"]) == (-1, ["P1"])


def test_calling_a_discarded_card_means_playing_alone_it_is_held_at_the_call_that_counts():
    # P2 held QH when the hand began but discarded it; P4 drew 9H, which P4 did not hold before
    state = to_call(discards=([], ["QH"], [], ["7D"], []))
    assert "9H" in observation(state, "P2")["hand"]  # P2 drew the stock's top card
    assert act(state.clone(), call("QH")).partner == -1
    assert FIVE[act(state.clone(), call("9H")).partner] == "P2"
    assert FIVE[act(state.clone(), call("8H")).partner] == "P4"


def test_a_call_names_one_of_the_52_cards():
    state = to_call()
    before = state.describe()
    for bad in ("JK", "", "5h", None, 5, ["AH"]):
        with pytest.raises(IllegalAction, match="a call must name one of the 52 cards"):
            state.apply(call(bad))
        assert state.describe() == before
    with pytest.raises(IllegalAction, match="call"):
        act(cinch(), call("AH"))  # not in the auction


def test_the_declarer_leads_any_card():
    state = act(to_call(), call("5H"))
    assert state.seat_to_act() == "P1" and {a["card"] for a in state.legal_actions()} == set(HANDS[0])


def test_each_maker_adds_the_makers_score_each_opponent_the_opponents():
    state = play_out(act(to_call(), call("5H")))
    out = state.describe()
    m, o = out["points"]["makers"], out["points"]["opponents"]
    gain = hand_delta(AUCTION_CINCH, 0, 5, (m, o))
    assert out["delta"] == {"P1": gain[0], "P2": gain[1], "P3": gain[0], "P4": gain[1], "P5": gain[1]}
    assert m + o == 14 and out["makers"] == ["P1", "P3"]


def test_the_worked_example_bid_8_makers_5_opponents_9_gives_every_opponent_17():
    assert hand_delta(AUCTION_CINCH, 0, 8, (5, 9)) == (0, 17)
    assert hand_delta(AUCTION_CINCH, 0, 8, (9, 5)) == (4, 0)  # made: the difference
    assert hand_delta(AUCTION_CINCH, 0, None, (6, 8)) == (0, 2)  # no contract: as made


def test_counting_trumps_among_the_discards_are_the_makers_whoever_threw_them_stock_cards_nobodys():
    # P3 throws both Pedros face up; P1 calls his own Ace and plays alone: P3 is an opponent
    state = to_call(discards=([], [], ["5H", "5D"], [], []))
    play_out(act(state, call("AH")))  # P1 alone
    out = state.describe()
    discard_items = [i for i in out["items"] if i.get("discard")]
    assert discard_items == [
        {"item": "5H", "side": "makers", "value": 5, "discard": True},
        {"item": "5D", "side": "makers", "value": 5, "discard": True},
    ]
    assert out["points"]["makers"] >= 10 and out["points"]["makers"] + out["points"]["opponents"] == 14
    # no counting heart is left in the stock here, so all 14 are counted
    left = play_out(act(to_call(), call("AH")))
    assert sum(left.describe()["points"].values()) == 14


def test_a_counting_card_left_in_the_stock_scores_for_nobody():
    deck = turnup_deck(
        [h if "TH" not in h else [c for c in h if c != "TH"] + ["QS"] for h in HANDS], rest=["TH", *STOCK]
    )
    state = play_out(act(to_call(cinch(deck)), call("AH")))
    out = state.describe()
    assert "TH" in out["record"]["stock"] and out["points"]["makers"] + out["points"]["opponents"] == 13


def game_hand(called: str):
    """A finished hand of a game on the dealt deck (first legal cards). P2 declaring at 10
    and calling 3H (P5): P1 P3 P4 win all 14 and score 24 each, P1 taking every point in
    tricks. P2 calling AH: P1 is partner and both score 14."""
    state = cinch(in_game=True, scores=(0,) * 5)
    act(state, "pass", 10, "pass", "pass", "pass", {"type": "trump", "suit": "H"})
    for _ in range(5):
        act(state, discard())
    return play_out(act(state, call(called)))


def test_the_target_is_51_and_below_it_nobody_wins():
    state = game_hand("3H")
    assert state.delta() == (24, 0, 24, 24, 0) and state.taken == [14, 0, 0, 0, 0]
    assert state.settle((26, 0, 26, 26, 0)) == ((50, 0, 50, 50, 0), None)
    assert state.settle((0, 0, 27, 0, 0)) == ((24, 0, 51, 24, 0), 2)


def test_several_over_the_target_the_highest_total_then_the_declarer_then_trick_points_then_nearest_left():
    state = game_hand("3H")
    assert state.settle((27, 0, 28, 27, 0))[1] == 2  # P3: the highest total
    assert state.settle((27, 0, 27, 27, 0))[1] == 0  # tied: P1 won more in tricks
    assert state.settle((0, 0, 27, 27, 0))[1] == 2  # tied again: P3 is nearest P2's left
    assert state.settle((0, 0, 0, 27, 27))[1] == 3  # P5 (a maker, +0) is not over
    makers = game_hand("AH")
    assert makers.delta() == (14, 14, 0, 0, 0) and makers.taken[0] > makers.taken[1]
    assert makers.settle((37, 37, 0, 0, 0))[1] == 1  # tied: the declarer before trick points


@pytest.mark.parametrize("k", [5, 6])
def test_a_room_view_of_auction_cinch_is_the_game_on_the_rotated_relabeled_board(k):
    """Suit maps and table rotations (ARCHITECTURE, rooms) are symmetries here too: the call,
    the partner and the makers move with the seats (while no reshuffle has happened: a
    restock's order hashes the real card names)."""
    rules = make_ruleset("auction_cinch", {"players": k})
    seats = seats_for(k)
    compared = 0
    for n in range(1, 13):
        board = generate_board("auction-cinch-views", n, seats)
        view = View(relabelings()[n % 8], n % k, k)
        shown_board = Board.from_dict(
            {
                "dealer": seats[(seats.index(board.dealer) + n % k) % k],
                "deck": [view.show(CARD_NAMES[c]) for c in board.deck],
                "seed": board.seed,
            },
            seats,
        )
        real, twin = new_hand(rules, board), new_hand(rules, shown_board)
        rng = Random(n)
        while real.phase != "done":
            obs = observation(real, real.seat_to_act())
            shown = view.show(obs)
            assert view.back(shown) == obs
            alike = real.restocks == 0
            if alike:
                assert observation(twin, shown["seat"]) == shown
                compared += obs["phase"] == "play"
            answer = random_action(shown["legal"], rng)
            real.apply(view.back(answer))
            if alike:
                twin.apply(answer)
    assert compared > 50
