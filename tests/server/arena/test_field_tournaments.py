"""Tournaments of matches of k entrants (single seats, k = 3): planning, validation, and
what a played match leaves in the store, results, ratings, API and pages, in process."""

from itertools import combinations

import pytest
from support.tournament_checks import client, play_tournament  # noqa: F401 (client is a fixture)

from server.arena import dealsets
from server.arena.formats.base import SpecError
from server.arena.formats.pair import FIELD
from server.arena.registry import builtin_roster
from server.arena.tournaments import plan_matches, rate_match, rebuild_ratings, results, validate
from server.engine import make_ruleset
from server.web.api.schemas import MatchSchema, ResultsSchema
from workers.bots import BUILTIN
from workers.jobs import play_chunk_with

THREE = {"ruleset": "seven_up", "options": {"players": 3}}
ROSTER = builtin_roster(BUILTIN)
MORE = {**ROSTER, "a": {"kind": "builtin", "trusted": True}, "b": {"kind": "builtin", "trusted": True}}
DEALS = dealsets.generate("field-test", 8, players=3)


def spec_of(**request):
    return validate({**THREE, "deals": DEALS.name, **request}, ROSTER)


def test_a_round_robin_plays_every_three_subset_of_its_bots_once():
    spec = validate({**THREE, "deals": DEALS.name, "bots": ["random", "rule", "search", "a", "b"]}, MORE)
    matches = plan_matches(spec)
    assert [m["entrants"] for m in matches] == [list(g) for g in combinations(spec["bots"], 3)]
    assert len(matches) == 10
    for m in matches:
        assert m["kind"] == "field" and (m["x"], m["y"]) == tuple(m["entrants"][:2]) and m["rooms"] == "rotate"
        assert (m["first"], m["last"]) == (1, spec["boards"])


def test_a_gauntlet_meets_every_two_references_with_each_candidate():
    spec = validate(
        {
            **THREE,
            "deals": DEALS.name,
            "format": "gauntlet",
            "candidates": ["a", "b"],
            "references": ["random", "rule", "search"],
            "rooms": "permute",
        },
        MORE,
    )
    groups = [m["entrants"] for m in plan_matches(spec)]
    assert groups == [
        [c, *refs] for c in ("a", "b") for refs in (("random", "rule"), ("random", "search"), ("rule", "search"))
    ]
    assert {m["rooms"] for m in plan_matches(spec)} == {"permute"}


def test_two_unit_rulesets_keep_their_two_room_matches():
    spec = validate(
        {
            "ruleset": "seven_up",
            "options": {"players": 2},
            "bots": ["random", "rule", "search"],
            "deals": "standard-2p",
        },
        ROSTER,
    )
    assert all("kind" not in m and "entrants" not in m for m in plan_matches(spec))
    assert len(plan_matches(spec)) == 3 and spec["rooms"] == "rotate"


@pytest.mark.parametrize(
    "request_, words",
    [
        ({"bots": ["random", "rule"]}, "at least 3 bots"),
        ({"format": "gauntlet", "candidates": ["random"], "references": ["rule"]}, "at least 2 references"),
        ({"bots": ["random", "rule", "search"], "sprt": {}}, "sprt"),
        ({"bots": ["random", "rule", "search"], "rooms": "shuffle"}, "rooms must be one of rotate, permute"),
        ({"bots": ["random", "rule", "search"], "rooms": 3}, "rooms"),
    ],
)
def test_what_a_match_of_three_cannot_do_is_refused_by_name(request_, words):
    with pytest.raises(SpecError, match=words):
        spec_of(**request_)


def test_rooms_is_checked_for_two_units_too():
    with pytest.raises(SpecError, match="rooms"):
        validate({"bots": ["random", "rule"], "rooms": "bogus"}, ROSTER)


def play(store, request, boards=6):
    return play_tournament(store, spec_of(boards=boards, **request), DEALS, boards)


def test_a_played_match_stores_every_board_once_with_scores_summing_to_zero(store):
    tid = play(store, {"bots": ["random", "rule", "search"]})
    [mid] = store.match_ids(tid)
    assert play_chunk_with(store, mid, 1, 6) == 0, "a rerun plays nothing"
    t = store.tournament(tid)
    assert t["status"] == "finished" and t["pairs_done"] == t["pairs_total"] == 6
    scores = store.entrant_scores(mid)
    assert sorted(scores) == list(range(1, 7))
    for board, board_scores in scores.items():
        assert len(board_scores) == 3 and abs(sum(board_scores)) < 1e-9
        record = store.pair(mid, board)
        assert record["entrant_scores"] == board_scores and len(record["rooms"]) == 3
        assert sorted(tuple(r["units"]) for r in record["rooms"]) == [
            ("P1", "P2", "P3"),
            ("P2", "P3", "P1"),
            ("P3", "P1", "P2"),
        ]
    assert store.scores(mid) == {b: s[0] for b, s in scores.items()}


def test_results_give_each_entrant_its_field_scores_and_pairwise_cross_table(store):
    tid = play(store, {"bots": ["random", "rule", "search"], "rooms": "permute"}, boards=4)
    [mid] = store.match_ids(tid)
    assert all(len(store.pair(mid, b)["rooms"]) == 6 for b in range(1, 5))
    res = results(store, tid)
    assert ResultsSchema().validate(res) == {}
    [m] = res["matches"]
    assert m["entrants"] == ["random", "rule", "search"] and [e["bot"] for e in m["entrant_stats"]] == m["entrants"]
    assert abs(sum(e["total"] for e in m["entrant_stats"])) < 1e-6
    scores = store.entrant_scores(mid)
    for j, e in enumerate(m["entrant_stats"]):
        assert e["boards"] == 4 and e["mean"] == round(sum(s[j] for s in scores.values()) / 4, 4)
    by_bot = {r["bot"]: r for r in res["standings"]}
    assert set(by_bot) == {"random", "rule", "search"} and all(r["matches"] == 1 for r in by_bot.values())
    assert by_bot["rule"]["mean"] == m["entrant_stats"][1]["mean"]
    for j, bot in enumerate(m["entrants"]):  # one match: the row's interval is the entrant's own
        assert (by_bot[bot]["ci_low"], by_bot[bot]["ci_high"]) == (
            m["entrant_stats"][j]["ci_low"],
            m["entrant_stats"][j]["ci_high"],
        )
        assert by_bot[bot]["ci_low"] <= by_bot[bot]["mean"] <= by_bot[bot]["ci_high"]
    diffs = [scores[b][1] - scores[b][2] for b in sorted(scores)]
    assert res["crosstable"]["rule"]["search"]["mean"] == pytest.approx(sum(diffs) / 4, abs=1e-4)
    assert res["crosstable"]["search"]["rule"]["mean"] == -res["crosstable"]["rule"]["search"]["mean"]


def test_ratings_take_each_two_entrants_once_and_rebuild_the_same(store):
    tid = play(store, {"bots": ["random", "rule", "search"]})
    match = store.match(store.match_ids(tid)[0])
    comparisons = [c for c, _ in FIELD.comparisons(store, match)]
    assert [(c["x"], c["y"]) for c in comparisons] == [("random", "rule"), ("random", "search"), ("rule", "search")]
    ratings = store.ratings("seven_up")
    assert {bot: r["matches"] for bot, r in ratings.items()} == {"random": 1, "rule": 1, "search": 1}, "one match each"
    assert not rate_match(store, match), "a match is rated once"
    rebuild_ratings(store, ["seven_up"])
    assert store.ratings("seven_up") == ratings


def test_the_api_match_view_and_pages_show_every_entrant(store, client):
    tid = play(store, {"bots": ["random", "rule", "search"]}, boards=3)
    [mid] = store.match_ids(tid)
    [view] = client.get(f"/api/v1/tournaments/{tid}/matches").get_json()
    assert view["entrants"] == ["random", "rule", "search"] and len(view["entrant_stats"]) == 3
    assert MatchSchema().validate(view) == {}
    pair = client.get(f"/api/v1/matches/{mid}/boards/2").get_json()
    assert pair["entrant_scores"] == store.entrant_scores(mid)[2] and all(len(r["units"]) == 3 for r in pair["rooms"])
    assert client.get(f"/api/v1/tournaments/{tid}/results").status_code == 200
    page = client.get(f"/matches/{mid}").get_data(as_text=True)
    assert 'id="entrants"' in page and all(f'data-bot="{b}"' in page for b in ("random", "rule", "search"))
    board = client.get(f"/matches/{mid}/boards/2").get_data(as_text=True)
    assert (
        board.count('<tr data-room="') == 3
        and board.count('<section class="room') == 3
        and board.count('class="board-score"') == 3
    )
    assert "rule, search" in client.get(f"/tournaments/{tid}").get_data(as_text=True)


def test_a_blind_movement_of_three_single_seats_scores_each_entrant_against_the_par_room(store):
    """An untrusted bot's one format works at every table shape: each entrant holds one
    seat among reference bots, turning through the three seats board by board, and its
    score is its net less the references' net at that seat in the par room."""
    from fractions import Fraction

    from server.arena.duplicate import entrant_side, net

    tid = play(store, {"format": "blind", "bots": ["random", "search"]}, boards=6)
    spec = store.tournament(tid)
    assert spec["status"] == "finished" and store.results(tid)["format"] == "blind"
    for mid in store.match_ids(tid):
        match = store.match(mid)
        sides = []
        for board in range(1, 7):
            record = store.pair(mid, board)
            room, par = record["rooms"]
            dealer = par["board"]["dealer"]
            side = entrant_side(make_ruleset("seven_up", {"players": 3}), dealer, board - 1, match["index"])
            assert record["side"] == side
            expected = net(room["result"]["delta"], side) - net(par["result"]["delta"], side)
            assert Fraction(record["score"]).limit_denominator(2) == expected
            sides.append(side)
        assert sorted(sides) == ["P1", "P1", "P2", "P2", "P3", "P3"], "every seat equally often"
    standings = store.results(tid)["standings"]
    assert [row["bot"] for row in standings] != [] and {row["bot"] for row in standings} == {"random", "search"}
