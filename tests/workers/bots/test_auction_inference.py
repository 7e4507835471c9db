"""``search``'s play layouts weighed by the auction: still consistent with everything seen,
and leaning the way the calls point (the declarer stronger in trumps than an unweighed
draw makes him). That its play decisions depend only on the observation is checked with
the other bots in ``test_search_bot.py`` (``test_decisions_depend_only_on_the_observation``).
"""

from __future__ import annotations

from statistics import fmean

import pytest

from server.engine import PLAY, SEATS, HandState, generate_board, make_ruleset, observation
from workers.bots.auction_inference import auction_clues, bid_threshold, inferred_world, likelihood
from workers.bots.base import decision_rng
from workers.bots.search_bot import PASS_VALUE, SearchPlayBot, View, holding_value, layout_fits, sample_play_world


def first_play_views(ruleset: str, count: int):
    """The first play decision of a seat other than the declarer, on ``count`` boards
    bid and drawn by ``search-play``: (observation, view)."""
    rules = make_ruleset(ruleset)
    bot = SearchPlayBot(3, samples=1)
    for n in range(1, count + 1):
        state = HandState(rules, generate_board("search-inference", n))
        while state.phase != PLAY:
            state.apply(bot.decide(observation(state, state.seat_to_act())))
        seat = state.seat_to_act()
        obs = observation(state, seat)
        while obs["declarer"] == seat:
            state.apply(bot.decide(obs))
            seat = state.seat_to_act()
            obs = observation(state, seat)
        view = View(obs)
        view.parse_play()
        yield obs, view


def test_the_threshold_is_where_bidding_starts_to_pay():
    rules = make_ruleset("american62")
    low, high = bid_threshold(rules, 7, PASS_VALUE["open"]), bid_threshold(rules, 10, PASS_VALUE["open"])
    assert 0 < low < high < 14  # a higher bid needs a stronger holding


@pytest.mark.parametrize("ruleset, bids_judged, shift", [("american62", 10, 0.2), ("foster51", 3, None)])
def test_weighed_layouts_fit_and_favour_the_declarer(ruleset, bids_judged, shift):
    """(In foster51 the dealer, who declares most often, robs and is not judged: too few
    declarers are for a shift to show on 30 boards.)"""
    weighed, plain, judged = [], [], 0
    for obs, view in first_play_views(ruleset, 30):
        clues = auction_clues(view)
        declarer = view.declarer
        if any(seat == declarer and bid for seat, _t, bid in clues):
            judged += 1
        rng_a, rng_b = decision_rng(1, obs), decision_rng(1, obs)
        for _ in range(6):
            a, b = inferred_world(view, rng_a), sample_play_world(view, rng_b)
            assert a is not None and layout_fits(view, a)
            assert 0.0 <= likelihood(view, a, clues, rng_a) <= 1.0
            for hands, into in ((a, weighed), (b, plain)):
                into.append(holding_value(ruleset, hands[declarer], view.trump_suit(), declarer == view.dealer))
    assert judged >= bids_judged
    if shift is not None:
        assert fmean(weighed) > fmean(plain) + shift


def test_the_declarer_s_forced_bid_says_nothing():
    """The dealer's forced 7 after three passes is not a clue; the three passes are."""
    for _obs, view in first_play_views("american62", 40):
        calls = view.obs["bids"]
        if [c["type"] for c in calls] == ["pass", "pass", "pass", "bid"]:
            clues = auction_clues(view)
            assert all(not bid for _s, _t, bid in clues)
            assert {s for s, _t, _b in clues} == {SEATS.index(c["seat"]) for c in calls[:3]} - {view.me}
            return
    pytest.skip("no board of three passes and a forced bid in the sample")
