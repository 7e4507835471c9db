"""Sixty-three (docs/rules/sixty_three.md, docs/rules/rulings.md#sixty-three-setback, #reshuffles), one named test per rule it settles."""

from random import Random

import pytest

from server.engine import Game, IllegalAction, RulesetError, generate_board, make_ruleset, new_hand, observation
from server.engine.boards import restock_order
from server.engine.cards import CARD_NAMES
from server.engine.games.cinch_hand import counting_tables
from server.engine.playout import default_action, playout
from server.engine.scoring import game_winner, hand_delta

DIFFERENCE = make_ruleset("sixty_three")
SETBACK = make_ruleset("sixty_three", {"scoring": "setback"})
BOARD = generate_board("sixty-three", 1)  # dealer N: the eldest is E


def bid(amount):
    return {"type": "bid", "amount": amount} if amount else {"type": "pass"}


def started(actions, rules=DIFFERENCE, board=BOARD):
    state = new_hand(rules, board)
    for action in actions:
        state.apply(action)
    return state


def names(mask):
    return [CARD_NAMES[c] for c in range(52) if mask >> c & 1]


# ---------------------------------------------------------------- the auction
def test_auction_goes_round_skipping_passed_players_and_the_highest_bidder():
    state = started([bid(10), bid(20), bid(0), bid(25)])  # E 10, S 20, W pass, N 25
    assert state.seat_to_act() == "E"  # outbid: asked again
    assert [a.get("amount") for a in state.legal_actions()] == [None, *range(26, 64)]
    state.apply(bid(0))  # E passes: final
    assert state.seat_to_act() == "S"  # W passed, N is the highest
    state.apply(bid(30))
    assert state.seat_to_act() == "N"
    state.apply(bid(0))
    assert state.phase == "trump" and state.contract == (2, 30) and state.seat_to_act() == "S"


def test_auction_refuses_bids_out_of_range_or_not_above_the_highest():
    state = started([bid(10)])
    for amount in (0, 10, 9, 64):
        with pytest.raises(IllegalAction):
            state.apply({"type": "bid", "amount": amount})
    state.apply(bid(63))
    assert state.seat_to_act() == "W"


def test_a_player_facing_sixty_three_is_still_asked_and_may_only_pass():
    state = started([bid(5), bid(63)])
    assert state.seat_to_act() == "W" and state.legal_actions() == [{"type": "pass"}]
    state.apply(bid(0))
    state.apply(bid(0))
    assert state.seat_to_act() == "E" and state.legal_actions() == [{"type": "pass"}]
    state.apply(bid(0))
    assert state.contract == (2, 63)


def test_one_bid_and_three_passes_end_the_auction_in_the_first_round():
    state = started([bid(0), bid(0), bid(7), bid(0)])
    assert state.phase == "trump" and state.contract == (3, 7)


def test_all_pass_the_dealer_names_trump_without_contract():
    state = started([bid(0)] * 4)
    assert state.phase == "trump" and state.contract is None and state.seat_to_act() == "N"
    assert state.describe()["contract"] is None and state.describe()["declarer"] == "N"


# ---------------------------------------------------------------- counting
def test_sixty_three_points_a_deal_king_25_three_15_nine_9():
    for tab in counting_tables(DIFFERENCE.extra_counts):
        counting = {
            CARD_NAMES[c][0] + ("L" if c == tab.left_pedro else ""): tab.points[c] for c in range(52) if tab.points[c]
        }
        assert counting == {"A": 1, "K": 25, "J": 1, "T": 1, "9": 9, "5": 5, "5L": 5, "3": 15, "2": 1}
        assert sum(tab.points) == 63


def test_every_card_goes_to_the_winner_and_a_deal_counts_63():
    rng = Random(63)
    for n in range(1, 60):
        state = playout(new_hand(DIFFERENCE, generate_board("count", n)), rng)
        described = state.describe()
        assert sum(described["points"].values()) == 63
        for item in described["items"]:
            if not item.get("discard"):
                trick = next(t for t in described["tricks"] if item["item"] in [p["card"] for p in t["plays"]])
                assert item["side"] == ("NS" if trick["winner"] in "NS" else "EW")


# ---------------------------------------------------------------- the draw
def test_non_dealers_discard_three_to_nine_and_are_filled_to_six():
    state = started([bid(0), bid(0), bid(7), bid(0), {"type": "trump", "suit": "H"}])
    (choice,) = state.legal_actions()
    assert (choice["min"], len(choice["from"])) == (3, 9) and "max" not in choice
    hand = choice["from"]
    with pytest.raises(IllegalAction, match="at least 3"):
        state.apply({"type": "discard", "cards": hand[:2]})
    state.apply({"type": "discard", "cards": hand[:9]})
    assert state.hands[1].bit_count() == 6
    assert observation(state, "N")["draws"][0]["shown"] == sorted(hand, key=CARD_NAMES.index)  # face up


def test_the_dealer_robs_his_nine_plus_the_stock_and_unkept_trumps_score_for_the_declarer():
    state = started([bid(0), bid(0), bid(7), bid(0), {"type": "trump", "suit": "H"}])
    for _ in range(3):
        state.apply(default_action(state.legal_actions()))  # three cards each
    (choice,) = state.legal_actions()
    pool = names(state.dealt[0]) + [CARD_NAMES[c] for c in state.stock]
    assert choice == {"type": "rob", "from": sorted(pool, key=CARD_NAMES.index), "must_keep": [], "size": 6}
    with pytest.raises(IllegalAction, match="must be 6"):
        state.apply({"type": "rob", "keep": choice["from"][:5]})
    trumps = [c for c in choice["from"] if c[1] == "H" or c == "5D"]
    keep = [c for c in choice["from"] if c not in trumps][:6]
    state.apply({"type": "rob", "keep": keep})
    assert set(observation(state, "E")["draws"][-1]["shown"]) == set(trumps)
    playout(state, Random(1))
    points = state.describe()["items"]
    shown = [i for i in points if i.get("discard")]
    assert {i["item"] for i in shown} >= {c for c in trumps if c[0] in "AKJT953 2".replace(" ", "")}
    assert all(i["side"] == "EW" for i in shown)  # W named trump


def test_reshuffle_only_when_a_card_must_be_drawn_trumps_never_put_back():
    state = started([bid(0), bid(0), bid(7), bid(0), {"type": "trump", "suit": "S"}])
    for _ in range(3):
        hand = state.hands[state.to_act]
        state.apply({"type": "discard", "cards": names(hand)})  # nine each: 18 cards wanted, 16 in the stock
    assert state.restocks == 1
    discards = state.dealt[1] | state.dealt[2] | state.dealt[3]
    trumps = state.tables.trump_mask
    rebuilt = restock_order(BOARD.seed, 0, [c for c in range(52) if (discards & ~trumps) >> c & 1])
    w_got = state.draws[2].received
    assert {c for c in range(52) if w_got >> c & 1} == set(BOARD.deck[48:52]) | set(rebuilt[:2])
    assert not any(trumps >> c & 1 for c in state.stock)
    assert state.pile & trumps == discards & trumps  # discarded trumps stay out
    (choice,) = state.legal_actions()  # the dealer robs what is left
    assert set(choice["from"]) == set(names(state.dealt[0])) | {CARD_NAMES[c] for c in rebuilt[2:]}


# ---------------------------------------------------------------- scoring and game
def test_difference_scoring_is_foster51s():
    assert hand_delta(DIFFERENCE, 0, 30, (40, 23)) == (17, 0)
    assert hand_delta(DIFFERENCE, 0, 30, (20, 43)) == (0, 73)
    assert hand_delta(DIFFERENCE, 1, None, (20, 43)) == (0, 23)


def test_setback_scoring_is_american62s_with_no_contract_each_side_adds_its_own():
    assert hand_delta(SETBACK, 0, 30, (40, 23)) == (40, 23)
    assert hand_delta(SETBACK, 0, 30, (20, 43)) == (-30, 43)
    assert hand_delta(SETBACK, 1, None, (57, 6)) == (57, 6)


def test_target_150_and_the_declarers_win_when_both_sides_reach_it():
    assert DIFFERENCE.target == SETBACK.target == 150
    assert make_ruleset("sixty_three", {"target": 100}).target == 100
    assert game_winner(SETBACK, (160, 151), 1, True, False) == 1
    assert game_winner(SETBACK, (160, 140), 1, True, False) == 0
    assert game_winner(SETBACK, (140, 149), 1, True, False) is None


def test_a_game_to_150_is_played_hand_after_hand():
    rng = Random(5)
    game = Game(DIFFERENCE, lambda n: generate_board("game63", n))
    while game.winner is None:
        game.finish_hand(playout(game.new_hand(), rng))
    assert max(game.scores) >= 150 and game.hands_played >= 2


def test_options_are_scoring_and_target_and_four_players():
    for options in ({"scoring": "american"}, {"scoring": "set_back"}, {"target": -1}, {"players": 6}, {"base": "x"}):
        with pytest.raises(RulesetError):
            make_ruleset("sixty_three", options)
    assert SETBACK.options() == {"scoring": "setback"}
