"""Tournament specs: formats by trust, deal sets by who plays, the blind movement's plan,
and its results and ratings from stored records (over a real Redis)."""

import pytest

from server.arena import anytime, dealsets
from server.arena.formats.base import SpecError
from server.arena.formats.blind import BLIND
from server.arena.live import live_scores, live_stats, mirrored_live
from server.arena.stats import summarize
from server.arena.tournaments import after_match_progress, fit_boards, plan_matches, rebuild_ratings, results, validate

ROSTER = {
    "rule": {"kind": "builtin", "trusted": True},
    "random": {"kind": "builtin", "trusted": True},
    "search": {"kind": "builtin", "trusted": True},
    "alice": {"kind": "remote", "trusted": False},
    "bob": {"kind": "remote", "trusted": False},
    "carol": {"kind": "remote", "trusted": True},
    "dave": {"kind": "remote", "trusted": True, "active": False},
}


def test_built_in_bots_default_to_a_round_robin_on_the_public_set():
    spec = validate({"bots": ["rule", "random"]}, ROSTER)
    assert spec["format"] == "round_robin" and spec["deals"] == "standard" and spec["practice"] is False


def test_an_untrusted_entrant_defaults_to_the_blind_movement_on_a_secret_set():
    spec = validate({"bots": ["alice", "rule"]}, ROSTER)
    assert spec["format"] == "blind" and spec["deals"] == "secret"
    assert spec["references"] == ["rule"], "a built-in entrant may also be the reference"


def test_trusted_remote_bots_may_play_two_rooms_but_get_secret_deals():
    spec = validate({"bots": ["carol", "random"]}, ROSTER)
    assert spec["format"] == "round_robin" and spec["deals"] == "secret"


@pytest.mark.parametrize(
    "request_, message",
    [
        ({"format": "round_robin", "bots": ["alice", "rule"]}, "alice is not trusted"),
        ({"format": "gauntlet", "candidates": ["bob"], "references": ["rule"]}, "bob is not trusted"),
        ({"bots": ["alice"], "deals": "standard"}, "practice"),
        ({"format": "blind", "bots": ["alice"], "references": ["carol"]}, "must be built in"),
        ({"format": "blind", "bots": [], "references": ["rule"]}, "at least one entrant"),
        ({"format": "blind", "bots": ["alice"], "references": ["rule", "random"], "boards": 1}, "boards"),
        ({"bots": ["alice"], "practice": "yes"}, "practice must be true or false"),
        ({"bots": ["dave", "rule"]}, "bot 'dave' is disabled; the admin enables it again"),
        ({"bots": ["nobody", "rule"]}, r"unknown bot 'nobody' \(known: alice, bob, carol, random, rule, search\)"),
    ],
)
def test_refusals_name_what_is_wrong(request_, message):
    with pytest.raises(SpecError, match=message):
        validate(request_, ROSTER)


def test_a_practice_run_may_use_a_public_set_with_remote_bots():
    spec = validate({"bots": ["alice", "bob"], "deals": "standard", "practice": True}, ROSTER)
    assert spec["deals"] == "standard" and spec["format"] == "blind"


def test_boards_must_fit_the_deal_set():
    spec = validate({"bots": ["rule", "random"], "first": 5, "boards": 10}, ROSTER)
    fit_boards(spec, 14)
    with pytest.raises(SpecError, match="boards"):
        fit_boards(spec, 13)


def test_a_deal_set_must_be_of_the_ruleset_s_deck():
    """docs/rules/common.md#cards: a 52-card set never deals snoozer, nor a 53-card set another game;
    the refusal names the published set to use. Without deals the public one is chosen."""
    five = ["rule", "random", "search", "carol", "dave"]
    roster = {**ROSTER, "dave": {"kind": "remote", "trusted": True}}
    spec = validate(
        {"ruleset": "snoozer", "options": {"players": 5}, "bots": five, "practice": True, "deals": "standard-5p"},
        roster,
    )
    with pytest.raises(
        SpecError,
        match=r"standard-5p is a 52-card set, snoozer is played with 53 cards "
        r"\(the published set is standard-53-5p\)",
    ):
        fit_boards(spec, 1000, 5, 52)
    fit_boards(spec, 1000, 5, 53)
    pedro = validate(
        {"ruleset": "pedro", "options": {"players": 5}, "bots": five, "practice": True, "deals": "standard-53-5p"},
        roster,
    )
    with pytest.raises(SpecError, match="standard-53-5p is a 53-card set, pedro is played with 52 cards"):
        fit_boards(pedro, 1000, 5, 53)
    snoozer4 = validate({"ruleset": "snoozer", "bots": five[:4]}, {**roster, "carol": ROSTER["rule"]})
    assert snoozer4["deals"] == "standard-53-4p"


def test_the_blind_plan_gives_every_entrant_every_board_once_and_the_same_references():
    spec = validate(
        {
            "format": "blind",
            "bots": ["alice", "bob", "carol"],
            "references": ["rule", "search"],
            "first": 3,
            "boards": 11,
        },
        ROSTER,
    )
    plan = plan_matches(spec)
    assert len(plan) == 6
    for index, entrant in enumerate(["alice", "bob", "carol"]):
        mine = [m for m in plan if m["x"] == entrant]
        boards = [n for m in mine for n in range(m["first"], m["last"] + 1)]
        assert sorted(boards) == list(range(3, 14)), "each board exactly once"
        assert {m["index"] for m in mine} == {index} and all(m["kind"] == "blind" for m in mine)
        assert [(m["y"], m["first"], m["last"]) for m in mine] == [("rule", 3, 7), ("search", 8, 13)]


def _blind_tournament(store, scores):
    """A finished blind movement of the entrants in ``scores`` (rule as reference) with
    their given per-board scores against the par, stored through the real store."""
    boards = len(next(iter(scores.values())))
    deals = dealsets.generate("blind-results", boards)
    spec = validate({"bots": list(scores), "deals": deals.name, "practice": True, "boards": boards}, ROSTER)
    store.put_dealset(deals)
    tid = store.create_tournament(spec, plan_matches(spec), "test", 60_000)
    for mid in store.match_ids(tid):
        match = store.match(mid)
        store.record_pairs(match, [{"board": n, "score": s, "rooms": []} for n, s in enumerate(scores[match["x"]], 1)])
        after_match_progress(store, store.match(mid))
    return tid


def test_blind_results_compare_entrants_on_shared_boards_and_rate_them(store):
    tid = _blind_tournament(store, {"alice": [4, 6, 5, 7], "bob": [-2, -1, -3, -2]})
    assert store.tournament(tid)["status"] == "finished"
    out = results(store, tid)
    assert [r["bot"] for r in out["standings"]] == ["alice", "bob"], "no row for the reference"
    alice = out["standings"][0]
    assert alice["boards"] == 4 and alice["total"] == 22 and alice["mean"] == 5.5
    expected = summarize([4, 6, 5, 7])  # the row's interval: its boards' scores as one sample
    assert (alice["ci_low"], alice["ci_high"]) == (expected.ci_low, expected.ci_high)
    assert alice["ci_low"] < alice["mean"] < alice["ci_high"] and alice["ci_low"] > 0
    assert alice["matches"] == 1 and alice["match_wins"] == 1, "its match is against the par; bob is a cell"
    assert out["crosstable"]["alice"]["bob"]["total"] == 30 and out["crosstable"]["bob"]["alice"]["total"] == -30
    assert out["crosstable"]["rule"]["alice"]["total"] == -22
    [(comparison, diffs)] = BLIND.cross_comparisons(store, tid)
    assert diffs == {1: 6, 2: 7, 3: 8, 4: 9}
    ratings = store.ratings("american62")
    assert ratings["alice"]["rating"] - ratings["bob"]["rating"] == pytest.approx(7.5), (
        "rated through their comparisons with the par room: the margin of the cross-table, 30 over 4 boards"
    )
    assert ratings["alice"]["rating"] - ratings["rule"]["rating"] == pytest.approx(5.5)
    assert rebuild_ratings(store) == {"american62": 2}, (
        "two matches against the reference; the entrant pair is their difference"
    )
    assert store.ratings("american62") == ratings, "a rebuild counts the same evidence the same way"


def test_a_built_in_entrant_that_is_also_the_reference_is_scored_but_not_rated_against_itself(store):
    tid = _blind_tournament(store, {"alice": [-4, -4, -4], "rule": [0, 0, 0]})
    out = results(store, tid)
    assert [(r["bot"], r["boards"], r["mean"], r["matches"]) for r in out["standings"]] == [
        ("rule", 3, 0.0, 1),
        ("alice", 3, -4.0, 1),
    ]
    assert set(out["crosstable"]["rule"]) == {"alice"} and out["crosstable"]["rule"]["alice"]["total"] == 12
    assert set(store.ratings("american62")) == {"alice", "rule"}


def test_live_stats_read_the_scores_in_board_order_and_mirror_for_y(store):
    deals = dealsets.generate("live-stats", 30)
    store.put_dealset(deals)
    spec = validate({"bots": ["rule", "random"], "boards": 30, "deals": deals.name}, ROSTER)
    match = store.match(store.match_ids(store.create_tournament(spec, plan_matches(spec), "test", 60_000))[0])
    scores = {n: (n * 5) % 17 - 6 for n in range(1, 26)}
    store.record_pairs(match, [{"board": n, "score": scores[n], "rooms": []} for n in reversed(scores)])
    assert live_scores(store, match["id"]) == [scores[n] for n in range(1, 26)]
    x = live_stats(store, match["id"])
    # the betting interval at Cinch's bound of 56 (live.STAKE_WIDTH of it), in board order:
    # a built-in match's play order
    assert (x["anytime_low"], x["anytime_high"]) == anytime.betting_interval(list(scores.values()), 56.0, 5.6)
    y = mirrored_live(x)
    assert (y["anytime_low"], y["anytime_high"]) == (-x["anytime_high"], -x["anytime_low"])
    assert (y["mean"], y["ci_low"], y["won"]) == (-x["mean"], -x["ci_high"], x["lost"])
