"""Every worked example of RULES.md and of the seed texts, each as a named test."""

import hashlib
from random import Random

import pytest
from support.handbuilder import board_with, names

from server.engine import Game, HandState, IllegalAction, generate_board, make_ruleset
from server.engine.boards import restock_order
from server.engine.cards import CARD_NAMES, TRUMP_TABLES
from server.engine.playout import playout
from server.engine.scoring import bidder_goes_out_next, game_winner, hand_delta

AM62 = make_ruleset("american62")
F51 = make_ruleset("foster51")
ONE_BID = [{"type": "bid", "amount": 1}, {"type": "pass"}, {"type": "pass"}, {"type": "pass"}]


def foster_after_draw(hands, keeps, bids=ONE_BID, trump="H", dealer="W", rules=F51):
    """A foster51 hand from a constructed deal, played through bidding, trump and draw."""
    state = HandState(rules, board_with(hands, dealer=dealer))
    for action in bids:
        state.apply(action)
    state.apply({"type": "trump", "suit": trump})
    while state.phase == "discard":
        seat = state.seat_to_act()
        state.apply({"type": "discard", "cards": [c for c in hands[seat] if c not in keeps[seat]]})
    if state.phase == "rob":
        state.apply({"type": "rob", "keep": keeps[state.seat_to_act()]})
    return state


# ---------------------------------------------------------------- docs/rules/common.md: cards and trumps
def test_left_pedro_is_the_five_of_the_same_colour():
    assert CARD_NAMES[TRUMP_TABLES["CDHS".index("H")].left_pedro] == "5D"
    assert CARD_NAMES[TRUMP_TABLES["CDHS".index("S")].left_pedro] == "5C"


def test_trump_order_has_fourteen_cards_left_pedro_between_five_and_four():
    """Foster: the Five of trumps or higher wins the left Pedro; it wins the Four or lower."""
    tab = TRUMP_TABLES["CDHS".index("H")]
    order = sorted((c for c in range(52) if (tab.trump_mask >> c) & 1), key=lambda c: -tab.strength[c])
    assert names(order) == ["AH", "KH", "QH", "JH", "TH", "9H", "8H", "7H", "6H", "5H", "5D", "4H", "3H", "2H"]


def test_counting_cards_make_fourteen_points():
    tab = TRUMP_TABLES[0]
    counting = {CARD_NAMES[c]: tab.points[c] for c in range(52) if tab.points[c]}
    assert counting == {"AC": 1, "JC": 1, "TC": 1, "5C": 5, "5S": 5, "2C": 1}


# A = N (bidder), B = E, C = S, D = W (dealer); hearts will be trump.
WORKED_HANDS = {
    "N": ["KC", "AS", "QS", "JS", "TS", "9S", "8S", "7S", "6S"],
    "E": ["5D", "QC", "2S", "3S", "4S", "2D", "3D", "4D", "6D"],
    "S": ["6H", "JC", "7D", "8D", "9D", "TD", "JD", "QD", "KD"],
    "W": ["5H", "AD", "2C", "3C", "4C", "6C", "7C", "8C", "9C"],
}
WORKED_KEEPS = {
    "N": ["KC", "AS", "QS", "JS", "TS", "9S"],
    "E": ["5D", "QC", "2S", "3S", "4S", "2D"],
    "S": ["6H", "JC", "7D", "8D", "9D", "TD"],
    "W": ["5H", "AD", "2C", "3C", "4C", "6C"],
}


def test_worked_trick_six_of_hearts_beats_both_pedros():
    """docs/rules/american62.md: hearts trump; A leads KC, B 5D, C 6H, D 5H: C's side takes 10 in fives."""
    state = foster_after_draw(WORKED_HANDS, WORKED_KEEPS)
    assert state.seat_to_act() == "N"
    state.apply({"type": "play", "card": "KC"})
    # B and C hold clubs, yet may trump: "if he does not trump, he must follow suit".
    assert {"type": "play", "card": "5D"} in state.legal_actions()
    state.apply({"type": "play", "card": "5D"})
    assert {"type": "play", "card": "6H"} in state.legal_actions()
    state.apply({"type": "play", "card": "6H"})
    state.apply({"type": "play", "card": "5H"})
    assert state.trick_dicts()[0]["winner"] == "S"
    assert state.taken == [10, 0]


def test_player_whose_only_diamond_is_the_left_pedro_is_void_in_diamonds():
    """docs/rules/common.md: hearts trump, E's only diamond is 5D: a diamond lead leaves E free."""
    hands = {
        "N": ["AD", "KD", "QD", "JD", "TD", "9D", "8D", "7D", "6D"],
        "E": ["5D", "2C", "3C", "4C", "6C", "7C", "8C", "9C", "TC"],
        "S": ["AH", "2S", "3S", "4S", "6S", "7S", "8S", "9S", "TS"],
        "W": ["5H", "JC", "QC", "KC", "AC", "2H", "3H", "4H", "6H"],
    }
    keeps = {
        "N": ["AD", "KD", "QD", "JD", "TD", "9D"],
        "E": ["5D", "2C", "3C", "4C", "6C", "7C"],
        "S": ["AH", "2S", "3S", "4S", "6S", "7S"],
        "W": ["5H", "JC", "QC", "KC", "AC", "2H"],
    }
    state = foster_after_draw(hands, keeps)
    state.apply({"type": "play", "card": "AD"})
    assert {a["card"] for a in state.legal_actions()} == {"5D", "2C", "3C", "4C", "6C", "7C"}
    state.apply({"type": "play", "card": "2C"})
    # S holds no diamond either; W holds no diamond: all free. A spade lead binds S, though:
    state.apply({"type": "play", "card": "2S"})
    state.apply({"type": "play", "card": "JC"})


# ---------------------------------------------------------------- docs/rules/common.md#boards: boards and deals
def test_dealing_three_rounds_of_three_from_the_dealers_left():
    board = generate_board("standard", 2)  # dealer E
    state = HandState(AM62, board)
    deck = names(board.deck)
    assert set(names(_cards(state.hands[2]))) == set(deck[0:3] + deck[12:15] + deck[24:27])
    assert set(names(_cards(state.hands[1]))) == set(deck[9:12] + deck[21:24] + deck[33:36])
    assert names(reversed(state.stock)) == deck[36:52]


def _cards(mask):
    return [c for c in range(52) if (mask >> c) & 1]


def test_canonical_generator_matches_an_independent_implementation():
    def sha(s):
        return hashlib.sha256(s.encode()).hexdigest()

    cards = [r + s for s in "CDHS" for r in "23456789TJQKA"]
    for n in (1, 2, 7):
        board = generate_board("standard", n)
        assert names(board.deck) == sorted(cards, key=lambda c: sha(f"standard/{n}/{c}"))
        assert board.dealer == "NESW"[(n - 1) % 4]
        assert board.seed == sha(f"standard/{n}")


def test_rebuilt_stock_order_is_keyed_by_board_seed_and_reshuffle_count():
    cards = [0, 5, 17, 30, 44]
    expect = sorted(cards, key=lambda c: hashlib.sha256(f"abc/restock/1/{CARD_NAMES[c]}".encode()).hexdigest())
    assert restock_order("abc", 1, cards) == expect
    assert restock_order("abc", 0, cards) != expect or restock_order("abd", 1, cards) != expect


def test_reshuffle_happens_in_american62_and_never_recycles_a_trump():
    rng = Random(3)
    seen = 0
    for n in range(1, 300):
        state = playout(HandState(AM62, generate_board("reshuffle", n)), rng)
        if state.restocks:
            seen += 1
            # every trump is in play: the points still make 14
            assert sum(state.points()) == 14
    assert seen > 0, "docs/rules/common.md#boards says rebuilding the stock is not rare in american62"


# ---------------------------------------------------------------- docs/rules/american62.md: american62
def test_american62_failed_bid_costs_the_whole_bid():
    """Bid 10, the bidders win 9: bidders -10, defenders +5."""
    assert hand_delta(AM62, 0, 10, (9, 5)) == (-10, 5)
    assert hand_delta(AM62, 1, 10, (5, 9)) == (5, -10)


def test_american62_made_bid_both_sides_add_what_they_won():
    assert hand_delta(AM62, 0, 7, (8, 6)) == (8, 6)


def test_american62_dealer_must_bid_seven_after_three_passes():
    state = HandState(AM62, generate_board("standard", 1))
    for _ in range(3):
        state.apply({"type": "pass"})
    assert state.legal_actions() == [{"type": "bid", "amount": 7}]
    with pytest.raises(IllegalAction, match="must bid 7"):
        state.apply({"type": "pass"})


def test_american62_bidder_goes_out_when_both_sides_had_55():
    assert bidder_goes_out_next(AM62, (55, 58))
    assert not bidder_goes_out_next(AM62, (54, 70))
    # bidders make their bid: they win although the defenders pass 62 as well
    assert game_winner(AM62, (60, 66), 0, True, True) == 0
    # bidders fail: scored normally; the defenders at 62 win
    assert game_winner(AM62, (45, 63), 0, False, True) == 1


def test_american62_both_reaching_62_without_the_condition_plays_on_bidder_goes_out():
    assert game_winner(AM62, (63, 65), 0, True, False) is None
    assert bidder_goes_out_next(AM62, (63, 65))


def test_american62_low_goes_to_its_holder_even_when_captured():
    rng = Random(5)
    for n in range(1, 400):
        state = playout(HandState(AM62, generate_board("low", n)), rng)
        tab = state.tables
        for trick in state.tricks:
            for seat, card, _ in trick.plays:
                if card == tab.low_card and (seat & 1) != (trick.winner & 1):
                    # recompute the points: Low to holder, the rest to the trick winner
                    expect = [0, 0]
                    for t in state.tricks:
                        for s, c, x in t.plays:
                            for k in [c] + _cards(x):
                                side = s & 1 if k == tab.low_card else t.winner & 1
                                expect[side] += tab.points[k]
                    assert list(state.points()) == expect
                    return
    pytest.fail("no hand with Low captured by the other side in 400 random hands")


# ---------------------------------------------------------------- docs/rules/foster51.md: foster51
def test_foster51_bidders_making_score_the_difference():
    """Foster: B bid 8 and made 10 of 14: A-B score 6."""
    assert hand_delta(F51, 0, 8, (10, 4)) == (6, 0)


def test_foster51_bidders_failing_give_the_bid_plus_points():
    """Foster: A-B bid 8 and got 5, Y-Z 9: Y-Z score 9 + 8 = 17."""
    assert hand_delta(F51, 0, 8, (5, 9)) == (0, 17)


def test_foster51_tie_scores_nothing():
    assert hand_delta(F51, 1, 3, (7, 7)) == (0, 0)


def test_foster51_all_pass_dealer_names_trump_without_contract():
    state = HandState(F51, generate_board("standard", 3))  # dealer S
    for _ in range(4):
        state.apply({"type": "pass"})
    assert state.phase == "trump" and state.seat_to_act() == "S" and state.contract is None


def test_foster51_counting_trumps_discarded_score_for_the_trump_makers():
    """Foster: any scoring trumps discarded by the opponents count for the bidder's party."""
    keeps = {**WORKED_KEEPS, "S": ["JC", "7D", "8D", "9D", "TD", "JD"]}  # S throws the 6H away
    hands = {**WORKED_HANDS, "E": ["5D", "QC", "2S", "3S", "4S", "2D", "3D", "4D", "AH"]}
    keeps["E"] = ["5D", "QC", "2S", "3S", "4S", "2D"]  # E throws High away
    state = foster_after_draw(hands, keeps)
    assert state.discard_points() >= 1
    playout(state, Random(1))
    assert sum(state.points()) == 14
    assert state.points()[0] >= state.discard_points()


def test_foster51_min_bid_6_option():
    rules = make_ruleset("foster51", {"min_bid": 6})
    state = HandState(rules, generate_board("standard", 1))
    assert [a.get("amount") for a in state.legal_actions()] == [None, *range(6, 15)]


def test_foster51_first_lead_must_be_trump_option():
    rules = make_ruleset("foster51", {"first_lead_trump": True})
    state = foster_after_draw(
        WORKED_HANDS, {**WORKED_KEEPS, "N": ["KC", "AS", "QS", "JS", "TS", "9S"]}, rules=rules, trump="S"
    )
    assert all(a["card"].endswith("S") or a["card"] == "5C" for a in state.legal_actions())
    with pytest.raises(IllegalAction, match="first lead must be a trump"):
        state.apply({"type": "play", "card": "KC"})


def katz_discard_turn(north):
    """A foster51 hand under Katz's rule, hearts trump, at N's discard."""
    state = HandState(
        make_ruleset("foster51", {"trump_discard_over_six_only": True}), board_with({"N": north}, dealer="W")
    )
    for action in ONE_BID:
        state.apply(action)
    state.apply({"type": "trump", "suit": "H"})
    return state


def test_foster51_katz_trumps_only_discarded_from_more_than_six():
    state = katz_discard_turn(["AH", "KH", "QH", "JH", "TH", "9H", "8H", "2C", "3C"])
    choice = state.legal_actions()[0]
    assert (choice["min"], choice["max"], sorted(choice["must_include"])) == (3, 3, ["2C", "3C"])
    with pytest.raises(IllegalAction):
        state.apply({"type": "discard", "cards": ["AH", "KH", "2C"]})  # keeps 3C: must go first
    state.apply({"type": "discard", "cards": ["8H", "2C", "3C"]})


def test_foster51_katz_no_trump_discard_with_six_or_fewer():
    state = katz_discard_turn(["AH", "KH", "2C", "3C", "4C", "6C", "7C", "8C", "9C"])
    with pytest.raises(IllegalAction, match="trump"):
        state.apply({"type": "discard", "cards": ["AH", "2C", "3C"]})


def test_foster51_blind_draw_points_left_in_stock_count_for_nobody():
    rules = make_ruleset("foster51", {"dealer_draws_blind": True})
    rng = Random(2)
    short = 0
    for n in range(1, 200):
        state = playout(HandState(rules, generate_board("blind", n)), rng)
        tab = state.tables
        in_stock = sum(tab.points[c] for c in state.stock)
        assert sum(state.points()) == 14 - in_stock
        short += in_stock > 0
    assert short, "some hand should leave points in the stock"


def test_foster51_low_to_holder_option():
    rules = make_ruleset("foster51", {"low_to_holder": True})
    assert rules.low_to_holder and not F51.low_to_holder


def test_eight_point_minimum_examples_from_foster():
    rules = make_ruleset("foster51", {"scoring": "eight_point_minimum"})
    assert hand_delta(rules, 0, 6, (8, 6)) == (8, 6)  # bid 6, make 8: 8, adversaries 6
    assert hand_delta(rules, 0, 6, (6, 8)) == (0, 8)  # bid 6, make 6: nothing, adversaries 8
    assert hand_delta(rules, 0, 7, (6, 8)) == (0, 15)  # bid 7, make 6: adversaries 7 + 8
    assert hand_delta(rules, 0, 7, (7, 7)) == (0, 0)  # 7 each: neither scores


def test_set_back_scoring_subtracts_the_bid():
    rules = make_ruleset("foster51", {"scoring": "set_back"})
    assert hand_delta(rules, 0, 9, (5, 9)) == (-9, 9)
    assert hand_delta(rules, 0, 8, (10, 4)) == (6, 0)


# ---------------------------------------------------------------- game level
@pytest.mark.parametrize("name, target", [("foster51", 51), ("american62", 62)])
def test_game_ends_at_target_and_rotates_the_deal(name, target):
    rules = make_ruleset(name)
    rng = Random(11)
    wins = 0
    for g in range(20):
        game = Game(rules, lambda n, g=g: generate_board(f"game{g}", n), first_dealer="E")
        dealers = []
        while game.winner is None and game.hands_played < 300:
            hand = game.new_hand()
            dealers.append(hand.board.dealer)
            game.finish_hand(playout(hand, rng))
        assert dealers[:4] == ["E", "S", "W", "N"][: len(dealers[:4])]
        if game.winner:
            wins += 1
            side = "NS EW".split().index(game.winner)
            assert game.scores[side] >= target
    assert wins > 0


def test_ruleset_options_are_validated():
    with pytest.raises(ValueError, match="has no option"):
        make_ruleset("american62", {"min_bid": 6})
    with pytest.raises(ValueError, match="min_bid"):
        make_ruleset("foster51", {"min_bid": 0})
    with pytest.raises(ValueError, match="scoring"):
        make_ruleset("foster51", {"scoring": "nonsense"})
    with pytest.raises(ValueError, match="unknown ruleset"):
        make_ruleset("pedro99")
