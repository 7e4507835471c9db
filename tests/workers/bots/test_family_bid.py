"""``search``'s calls before the play in the family games (``workers.bots.family_bid``):
the sampled deal is the seat's own state, the calls depend only on the observation, and
the search follows the rule bot unless play-outs say otherwise."""

from __future__ import annotations

from random import Random

import pytest

from server.engine import GAMES, generate_board, make_ruleset, new_hand, observation, seats_for
from server.engine.boards import Board
from workers.bots import SearchBot
from workers.bots.family_bid import SEARCHED, candidates, deals_for, sample_deal, search_call, state_of
from workers.bots.rule_bot import RuleBot

SHAPES = [
    (name, k, options)
    for name in sorted(SEARCHED)
    for k in GAMES[name].players
    for options in [
        {},
        *({flag: True} for flag in ("deal_all", "keep_nine", "two_player_bunch") if flag in GAMES[name].options),
    ]
]


def auction_turns(name: str, k: int, options: dict, n: int):
    """(state, observation) at every call of a hand's auction and sale, the rule bot calling."""
    rules = make_ruleset(name, {"players": k, **options})
    state = new_hand(rules, generate_board("family-bid", n, seats_for(k), GAMES[name].deck))
    while state.phase in SEARCHED[name].phases:
        obs = observation(state, state.seat_to_act())
        yield state, obs
        state.apply(RuleBot(1).decide(obs))


@pytest.mark.parametrize("name,k,options", SHAPES)
def test_a_sampled_deal_puts_the_seat_where_it_is(name, k, options):
    """The engine deals the sampled deck and replays the calls: the seat sees exactly what it
    saw, while the other hands are new."""
    rules = make_ruleset(name, {"players": k, **options})
    rng = Random(5)
    seen = 0
    for n in (1, 2):
        for state, obs in auction_turns(name, k, options, n):
            sampled = state_of(rules, obs, sample_deal(rules, obs, rng))
            assert observation(sampled, obs["seat"]) == obs
            me = obs["seats"].index(obs["seat"])
            assert any(sampled.hands[s] != state.hands[s] for s in range(k) if s != me)
            seen += 1
    assert seen >= 2


@pytest.mark.parametrize("name", sorted(SEARCHED))
def test_a_call_depends_only_on_the_observation(name):
    """Two deals that differ only in cards the seat cannot see (one of another seat's and the
    deck's last, never dealt to it nor turned up) give the same observation, and the search
    (with its own random draws) calls alike on both."""
    k = min(GAMES[name].players)
    rules = make_ruleset(name, {"players": k})
    board = generate_board("family-bid-twin", 3, seats_for(k), GAMES[name].deck)
    state = new_hand(rules, board)
    me = state.to_act
    other = (me + 1) % k
    a = min(c for c in range(GAMES[name].deck) if state.hands[other] >> c & 1)
    b = board.deck[-1]
    assert not (state.hands[me] | state.hands[other]) >> b & 1
    deck = list(board.deck)
    i, j = deck.index(a), deck.index(b)
    deck[i], deck[j] = deck[j], deck[i]
    twin = new_hand(rules, Board(board.dealer, tuple(deck), board.seed))
    assert twin.hands != state.hands
    seat = state.seats[me]
    obs, obs_twin = observation(state, seat), observation(twin, seat)
    assert obs == obs_twin
    for seed in range(4):
        assert SearchBot(seed).decide(obs) == SearchBot(seed).decide(obs_twin)


@pytest.mark.parametrize("name,k", [(name, k) for name in ("seven_up", "all_fives") for k in GAMES[name].players])
def test_a_give_depends_only_on_the_dealers_observation(name, k):
    """The dealer asked to give sees the same in two deals that differ only in one of the
    eldest's cards, and gives or runs alike in both."""
    rules = make_ruleset(name, {"players": k})
    board = generate_board("family-give-twin", 5, seats_for(k), GAMES[name].deck)
    state = new_hand(rules, board)
    eldest, dealer = state.to_act, state.seats.index(board.dealer)
    a = min(c for c in range(GAMES[name].deck) if state.hands[eldest] >> c & 1)
    deck = list(board.deck)
    deck[deck.index(a)], deck[-1] = deck[-1], a
    twin = new_hand(rules, Board(board.dealer, tuple(deck), board.seed))
    for hand in (state, twin):
        hand.apply({"type": "beg"})
        assert hand.phase == "give" and hand.to_act == dealer
    assert twin.hands != state.hands
    obs, obs_twin = observation(state, state.seats[dealer]), observation(twin, twin.seats[dealer])
    assert obs == obs_twin and deals_for(obs) > 0
    for seed in range(4):
        assert SearchBot(seed).decide(obs) == SearchBot(seed).decide(obs_twin)


def test_the_candidates_start_with_the_model_and_spread_over_the_bids():
    obs = next(obs for _, obs in auction_turns("pedro", 4, {}, 1))
    first = RuleBot(1).decide(obs)
    tried = candidates(obs, first, 5)
    assert tried[0] == first and {"type": "pass"} in tried
    amounts = [a["amount"] for a in tried if a["type"] == "bid"]
    low = min(a["amount"] for a in obs["legal"] if a["type"] == "bid")
    assert low in amounts and max(amounts) >= 13 and len(tried) == len({str(a) for a in tried}) <= 7
    sale = {"legal": [{"type": "sell"}, {"type": "pitch"}]}
    assert candidates(sale, {"type": "pitch"}, 5) == [{"type": "pitch"}, {"type": "sell"}]


def test_the_search_leaves_the_rule_bot_only_on_evidence():
    """With no deals the rule bot's call stands; with deals, every call is legal, and on some
    turns of twenty hands the play-outs overrule it (pedro's auction at five)."""
    overruled = 0
    for n in range(1, 21):
        for _, obs in auction_turns("pedro", 5, {}, n):
            rule = RuleBot(1).decide(obs)
            assert search_call(1, obs, 0) == rule
            call = search_call(1, obs, 8)
            assert call in obs["legal"]
            overruled += call != rule
    assert overruled > 0


def test_calls_the_engine_cannot_replay_leave_the_decision_to_the_rule_bot():
    obs = [obs for _, obs in auction_turns("pedro", 5, {}, 2)][2]
    assert len(obs["bids"]) == 2
    reordered = {**obs, "bids": obs["bids"][::-1]}  # a seat out of turn
    assert search_call(1, reordered, 8) == RuleBot(1).decide(reordered)
    over = {**obs, "bids": [*obs["bids"], {"seat": obs["seat"], "type": "pass"}]}  # past its turn
    assert search_call(1, over, 8) == RuleBot(1).decide(over)


def test_a_turn_up_hand_dealt_again_is_left_to_the_rule_bot():
    """The points scored before a bunch are not in the calls, and no beg follows a run, so
    the search does not rebuild such a hand: on a turn where it overrules the rule bot, the
    same observation said to follow a bunch (or a run) gets the rule bot's call."""
    obs = next(
        obs
        for n in range(1, 60)
        for _, obs in auction_turns("seven_up", 2, {}, n)
        if search_call(1, obs, 64) != RuleBot(1).decide(obs)
    )
    for changed in ({**obs, "bunches": 1}, {**obs, "turnups": [*obs["turnups"], "2C"]}):
        assert search_call(1, changed, 64) == RuleBot(1).decide(changed)


def test_the_strong_level_searches_ten_times_the_deals(monkeypatch):
    obs = next(obs for _, obs in auction_turns("pedro", 4, {}, 1))
    asked = []
    monkeypatch.setattr("workers.bots.family_bid.search_call", lambda seed, obs, deals: asked.append(deals) or {})
    SearchBot(1).decide(obs)
    SearchBot(1, strength=10).decide(obs)
    assert asked == [deals_for(obs), 10 * deals_for(obs)] and asked[0] > 0
