"""``search``'s call of a partner in auction_cinch (``workers.bots.partner_call``): the
candidates, the worlds the engine builds for each, that a call depends only on the
declarer's observation, and that the rule bot's call stands but on evidence."""

from __future__ import annotations

from random import Random

import pytest

from server.engine import generate_board, make_ruleset, new_hand, observation, seats_for
from server.engine.hand import Hand
from server.engine.world import world_state
from workers.bots import SearchBot
from workers.bots.family_bid import clearly_best
from workers.bots.family_search import deal_worlds
from workers.bots.partner_call import WORLDS, candidates, holder, search_call, searches
from workers.bots.rule_bot import RuleBot


def at_call(k: int, n: int) -> Hand:
    """A hand of auction_cinch at ``k`` played by the rule bot up to the declarer's call."""
    state = new_hand(make_ruleset("auction_cinch", {"players": k}), generate_board("partner-call", n, seats_for(k), 52))
    while state.phase != "call":
        state.apply(RuleBot(1).decide(observation(state, state.seat_to_act())))
    return state


def call_obs(k: int, n: int) -> dict:
    state = at_call(k, n)
    return observation(state, state.seat_to_act())


def test_only_auction_cinchs_call_is_searched_here():
    obs = call_obs(5, 1)
    assert searches(obs)
    assert not searches({**obs, "phase": "play"}) and not searches({**obs, "ruleset": "widow_cinch"})


@pytest.mark.parametrize("k", [5, 6])
def test_the_candidates_are_the_rule_bots_call_missing_trumps_and_alone(k):
    for n in range(1, 6):
        obs = call_obs(k, n)
        first = RuleBot(1).decide(obs)
        tried = candidates(obs, first)
        assert tried[0] == first and all(a in obs["legal"] for a in tried)
        assert len(tried) == len({a["card"] for a in tried}) <= 5
        assert {"type": "call", "card": min(obs["hand"])} in tried  # alone
        out = {c for d in obs["draws"] for c in d["shown"]} - set(obs["restocked"])
        trumps = [a["card"] for a in tried[1:] if a["card"] not in obs["hand"]]
        assert all(c[1] == obs["trump"] or c[0] == "5" for c in trumps) and not set(trumps) & out


@pytest.mark.parametrize("k", [5, 6])
def test_each_candidate_is_called_again_on_the_world(k):
    """The state the search plays out is the engine's own at the first lead: the world's hands,
    the partner whoever holds the called card there, nobody for a card of the declarer's."""
    obs = call_obs(k, 2)
    world = next(deal_worlds(obs, Random(3)))
    me = obs["seats"].index(obs["seat"])
    for action in candidates(obs, RuleBot(1).decide(obs)):
        partner = holder(world, action["card"], obs["seat"])
        state = world_state({**obs, "phase": "play", "called": action["card"], "partner": partner}, world)
        assert state.phase == "play" and state.to_act == me
        seen = observation(state, obs["seat"])
        assert seen["hand"] == obs["hand"] and seen["called"] == action["card"]
        assert seen["partner"] == partner and (action["card"] not in obs["hand"] or partner is None)
        assert state.partner == (obs["seats"].index(partner) if partner else -1)


def test_a_call_depends_only_on_the_declarers_observation():
    """Two states that differ only in other seats' cards give the declarer the same
    observation, and the search calls alike on both."""
    state = at_call(5, 3)
    me = state.to_act
    a, b = [s for s in range(5) if s != me][:2]
    twin = state.clone()
    ca = min(c for c in range(52) if twin.hands[a] >> c & 1)
    cb = min(c for c in range(52) if twin.hands[b] >> c & 1)
    twin.hands[a] ^= 1 << ca | 1 << cb
    twin.hands[b] ^= 1 << ca | 1 << cb
    seat = state.seats[me]
    obs, obs_twin = observation(state, seat), observation(twin, seat)
    assert twin.hands != state.hands and obs == obs_twin
    for seed in range(3):
        assert SearchBot(seed).decide(obs) == SearchBot(seed).decide(obs_twin)


def test_the_rule_bots_call_stands_but_on_evidence():
    """With fewer than two worlds the rule bot's call stands; with worlds, every call is legal,
    and on some of thirty hands the play-outs overrule it."""
    overruled = 0
    for n in range(1, 31):
        obs = call_obs(6, n)
        rule = RuleBot(1).decide(obs)
        assert search_call(1, obs, 1) == rule
        call = search_call(1, obs, WORLDS)
        assert call in obs["legal"]
        overruled += call != rule
    assert overruled > 0


def test_a_candidate_must_beat_the_first_by_more_than_noise():
    assert clearly_best([[0.0, 0.0, 0.0], [1.0, 1.2, 0.9]]) == 1
    assert clearly_best([[0.0, 0.0], [2.0, -1.9]]) == 0  # a mean above zero within its error
    assert clearly_best([[0.0] * 3, [1.0] * 3, [2.0, 2.1, 1.9]]) == 2  # the one that beats it most


def test_search_makes_the_call_and_the_strong_level_samples_ten_times_the_worlds(monkeypatch):
    obs = call_obs(5, 1)
    asked = []
    monkeypatch.setattr("workers.bots.partner_call.search_call", lambda seed, obs, worlds: asked.append(worlds) or {})
    SearchBot(1).decide(obs)
    SearchBot(1, strength=10).decide(obs)
    assert asked == [WORLDS, 10 * WORLDS]
