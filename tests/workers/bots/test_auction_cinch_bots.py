"""The built-in bots in auction_cinch: every action they choose is accepted by the engine
at five and six players (the search bot through reshuffled stocks too), and the rule
bot's call and its sides once the call has made them."""

from __future__ import annotations

import pytest

from server.engine import generate_board, make_ruleset, new_hand, observation, seats_for
from workers.bots import SearchBot
from workers.bots.base import decision_rng
from workers.bots.family_search import rollout_card, sample_world, unseen
from workers.bots.random_bot import RandomBot
from workers.bots.rule_bot import RuleBot, allies_of, choose_call


def play(k: int, n: int, bots) -> object:
    """A complete hand; ``apply`` raises on anything the rules refuse."""
    state = new_hand(
        make_ruleset("auction_cinch", {"players": k}), generate_board("auction-cinch-bots", n, seats_for(k))
    )
    while state.phase != "done":
        seat = state.seat_to_act()
        state.apply(bots[state.seats.index(seat) % len(bots)].decide(observation(state, seat)))
    return state


@pytest.mark.parametrize("k", [5, 6])
def test_rule_and_random_bots_play_every_decision_legally(k):
    for n in range(1, 31):
        play(k, n, [RuleBot(n)])
        play(k, n, [RuleBot(n), RandomBot(n)])


@pytest.mark.parametrize("k", [5, 6])
def test_the_search_bot_plays_legally_after_reshuffles(k):
    restocked = 0
    for n in range(1, 7):
        state = play(k, n, [SearchBot(n, samples=3), RandomBot(n)])
        restocked += state.restocks > 0
    assert restocked  # random discards of up to six cards each empty the stock at some table


def test_worlds_put_restocked_discards_back_in_play_and_the_called_card_with_the_partner():
    """At six, after a reshuffle, the unseen pool holds every card the other seats may have
    (the previous search crashed here: it counted the restocked discards as out of play)."""
    rules = make_ruleset("auction_cinch", {"players": 6})
    found = False
    for n in range(1, 80):
        state = new_hand(rules, generate_board("auction-cinch-worlds", n, seats_for(6)))
        # everyone bids nothing, discards all six, so the stock is rebuilt
        while state.phase == "bidding":
            state.apply({"type": "pass"})
        state.apply({"type": "trump", "suit": "S"})
        while state.phase == "discard":
            state.apply({"type": "discard", "cards": observation(state, state.seat_to_act())["hand"]})
        partner_card = next(c for c in observation(state, "P2")["hand"])
        state.apply({"type": "call", "card": partner_card})
        if state.restocks and state.partner >= 0:
            found = True
            break
    assert found
    me = next(seat for i, seat in enumerate(state.seats) if i not in (state.declarer, state.partner))
    obs = observation(state, me)
    assert obs["restocked"]
    pool = unseen(obs)
    assert len(pool) >= sum(size for seat, size in obs["hand_sizes"].items() if seat != me)
    assert set(obs["restocked"]) - set(obs["hand"]) <= set(pool)
    world = sample_world(obs, decision_rng(1, obs), 5)
    assert world is not None
    assert world.hands[state.partner] >> state.called & 1


def test_the_rule_bot_calls_the_highest_trump_it_lacks_that_may_be_held():
    obs = {
        "trump": "H",
        "hand": ["AH", "QH", "3C", "4D", "9S", "2C"],
        "restocked": ["KS"],
        "draws": [{"seat": "P1", "shown": ["KH", "KS"]}],
    }
    assert choose_call(obs) == {"type": "call", "card": "JH"}  # KH is face up, out of play
    every = ["AH", "KH", "QH", "JH", "TH", "9H", "8H", "7H", "6H", "5H", "5D", "4H", "3H", "2H"]
    alone = {"trump": "H", "hand": every[:6], "restocked": [], "draws": [{"seat": "P1", "shown": every[6:]}]}
    assert choose_call(alone)["card"] in alone["hand"]  # nothing to call: play alone


def test_the_rule_bots_sides_follow_the_call():
    seats = ["P1", "P2", "P3", "P4", "P5"]
    obs = {"seat": "P3", "seats": seats, "makers": ["P1", "P3"]}
    assert allies_of(obs) == {"P1"}
    assert allies_of({**obs, "seat": "P2"}) == {"P4", "P5"}
    assert allies_of({**obs, "makers": None}) == frozenset()


class _Greedy:
    """A stand-in for the play-outs' generator that never takes the random branch."""

    def random(self) -> float:
        return 0.99


@pytest.mark.parametrize(("name", "k"), [("auction_cinch", 5), ("auction_cinch", 6), ("widow_cinch", 6)])
def test_play_outs_do_not_overtake_a_teammates_winning_card(name, k):
    """With a teammate winning the trick (the called partner, a fellow maker, a widow
    side's partner) the play-out policy keeps its winners unless it is last to play."""
    rules = make_ruleset(name, {"players": k} if name == "auction_cinch" else None)
    checked = 0
    for n in range(1, 40):
        state = new_hand(rules, generate_board("teammates", n, seats_for(k)))
        rule = RuleBot(n)
        while state.phase != "done":
            if state.phase == "play":
                trick = state.tricks[-1]
                me = state.to_act
                tab = state.tables
                last = len(trick.plays) == k - 1
                if trick.plays and not last and state.team_of(trick.best_seat) == state.team_of(me):
                    legal = state.legal_plays()

                    def beats(c, trick=trick, tab=tab):
                        suit = tab.effective_suit[c]
                        return suit in (tab.trump, trick.lead_suit) and tab.strength[c] > trick.best_key

                    if any(beats(c) for c in legal) and not all(beats(c) for c in legal):
                        assert not beats(rollout_card(state, _Greedy()))
                        checked += 1
            state.apply(rule.decide(observation(state, state.seat_to_act())))
    assert checked
