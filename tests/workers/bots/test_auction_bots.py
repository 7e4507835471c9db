"""The built-in bots in the auction games (auction_pitch, pedro, snoozer): every action they
choose is accepted by the engine's wire layer at every k (the search bot's too, on
snoozer's 53-card deck), and the rule bot's auction rules and its use of the joker."""

from __future__ import annotations

import pytest

from server.engine import GAMES, generate_board, make_ruleset, new_hand, observation, seats_for
from workers.bots import SearchBot
from workers.bots.all_fours_rule import choose_bid, choose_play, choose_sale, expected_points, partner
from workers.bots.random_bot import RandomBot
from workers.bots.rule_bot import RuleBot

SHAPES = [
    (name, k, options)
    for name in ("auction_pitch", "pedro", "snoozer")
    for k in (4, 5, 6, 7)
    for options in ([{}] if name == "auction_pitch" else [{}, {"deal_all": True}])
]


def play(name: str, k: int, options: dict, n: int, bots) -> None:
    """A complete hand; ``apply`` raises on anything the rules refuse."""
    state = new_hand(
        make_ruleset(name, {"players": k, **options}), generate_board("auction-bots", n, seats_for(k), GAMES[name].deck)
    )
    while state.phase != "done":
        seat = state.seat_to_act()
        state.apply(bots[state.seats.index(seat) % len(bots)].decide(observation(state, seat)))


@pytest.mark.parametrize("name,k,options", SHAPES)
def test_rule_and_random_bots_play_every_decision_legally(name, k, options):
    for n in range(1, 31):
        play(name, k, options, n, [RuleBot(n)])
        play(name, k, options, n, [RuleBot(n), RandomBot(n)])


@pytest.mark.parametrize("name,k", [("auction_pitch", 4), ("pedro", 7), *(("snoozer", k) for k in (4, 5, 6, 7))])
def test_the_search_bot_plays_legally(name, k):
    for n in range(1, 4):
        play(name, k, {}, n, [SearchBot(n, samples=4)])
    if name == "snoozer":  # the whole pack dealt: the joker is always in play
        for n in range(1, 3):
            play(name, k, {"deal_all": True}, n, [SearchBot(n, samples=4), RuleBot(n)])


def test_nobody_is_a_partner_in_the_auction_games_at_four():
    obs = {"seats": ["N", "E", "S", "W"], "scores": {"N": 0, "E": 0, "S": 0, "W": 0}}
    assert partner(obs, "N") is None
    assert partner({**obs, "scores": {"NS": 0, "EW": 0}}, "N") == "S"


def test_the_rule_bot_bids_what_its_best_suit_should_make_and_sells_a_better_bid():
    hand = ["AH", "KH", "JH", "2H", "3C", "4D"]
    assert expected_points(hand, "H", "auction_pitch") == 4  # High, Low, Jack guarded, Game
    assert expected_points(hand, "H", "pedro") == 3
    assert expected_points([*hand[:4], "3H", "JK"], "H", "snoozer") == 3 + 3 + 15  # the Three, the joker drawn
    legal = [{"type": "pass"}, *({"type": "bid", "amount": a} for a in (2, 3, 4))]
    obs = {"ruleset": "auction_pitch", "hand": hand, "legal": legal, "phase": "bidding"}
    assert choose_bid(obs) == {"type": "bid", "amount": 4}
    assert choose_bid({**obs, "legal": legal[:1]}) == {"type": "pass"}
    sale = {
        "ruleset": "auction_pitch",
        "hand": hand,
        "legal": [{"type": "sell"}, {"type": "pitch"}],
        "bids": [{"seat": "E", "type": "bid", "amount": 2}],
    }
    assert choose_sale(sale) == {"type": "pitch"}  # 2 is less than he would make
    weak = {**sale, "hand": ["2C", "5D", "7H", "9S", "3D", "4C"]}
    assert choose_sale(weak) == {"type": "sell"}
    assert choose_sale({**weak, "legal": [{"type": "pitch"}], "bids": []}) == {"type": "pitch"}


def play_obs(trick: list[tuple[str, str]], hand: list[str], trump: str = "H") -> dict:
    """A snoozer play observation: P2 to play ``hand``'s cards to ``trick`` at five seats."""
    plays = [{"seat": seat, "card": card, "extras": []} for seat, card in trick]
    return {
        "ruleset": "snoozer",
        "seats": ["P1", "P2", "P3", "P4", "P5"],
        "seat": "P5",
        "trump": trump,
        "scores": {s: 0 for s in ("P1", "P2", "P3", "P4", "P5")},
        "hand": hand,
        "tricks": [{"leader": "P1", "winner": None, "plays": plays}],
    }


def test_the_rule_bot_takes_a_plain_trick_with_the_joker_when_last_and_keeps_it_otherwise():
    last = play_obs([("P1", "AC"), ("P2", "KC"), ("P3", "2C"), ("P4", "3C")], ["JK", "4C", "9S"])
    assert choose_play(last, ["JK", "4C"]) == "JK"  # nobody can trump it: a sure 15
    trumped = play_obs([("P1", "AC"), ("P2", "2H"), ("P3", "2C"), ("P4", "3C")], ["JK", "4C", "9S"])
    assert choose_play(trumped, ["JK", "4C"]) == "4C"  # the Two would take it
    early = play_obs([("P1", "AC")], ["JK", "4C", "9S"])
    assert choose_play({**early, "seat": "P2"}, ["JK", "4C"]) == "4C"  # others may still trump
    taken = play_obs([("P1", "AC"), ("P2", "JK")], ["3H", "QH", "5C"])
    assert choose_play({**taken, "seat": "P3"}, ["3H", "QH", "5C"]) == "QH"  # capture the 15 with the best
