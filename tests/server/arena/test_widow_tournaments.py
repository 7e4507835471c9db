"""Tournaments of widow_cinch (docs/rules/widow_cinch.md, docs/rules/duplicate.md#three-sides): matches of three entrants, each
holding one side of two, the three partnerships rotating through the three sides; what
such a match leaves in the store, results, ratings, API and pages, in process; and the
seating plans that cannot apply to sides of two, refused by name (API 422)."""

import pytest
from support.tournament_checks import client, play_tournament  # noqa: F401 (client is a fixture)

from server.arena import dealsets
from server.arena.formats.base import SpecError
from server.arena.registry import builtin_roster
from server.arena.tournaments import plan_matches, results, validate
from server.web.api.schemas import MatchSchema, ResultsSchema
from workers.bots import BUILTIN

WIDOW = {"ruleset": "widow_cinch"}
ROSTER = builtin_roster(BUILTIN)
DEALS = dealsets.generate("widow-test", 6, players=6)


def spec_of(**request):
    return validate({**WIDOW, "deals": DEALS.name, **request}, ROSTER)


def test_a_round_robin_of_three_bots_is_one_match_of_three_entrants_on_the_six_seat_deals():
    spec = validate({**WIDOW, "bots": ["random", "rule", "search"]}, ROSTER)
    assert spec["deals"] == "standard-6p" and spec["rooms"] == "rotate"
    [match] = plan_matches(spec)
    assert match["kind"] == "field" and match["entrants"] == ["random", "rule", "search"]


@pytest.mark.parametrize(
    "request_, words",
    [
        ({"bots": ["random", "rule", "search"], "rooms": "permute"}, "rooms: rooms=permute is for single seats"),
        ({"bots": ["random", "rule"]}, "at least 3 bots"),
    ],
)
def test_what_three_sides_cannot_do_is_refused_by_name(request_, words):
    with pytest.raises(SpecError, match=words):
        spec_of(**request_)


def play(store, boards=4):
    return play_tournament(store, spec_of(boards=boards, bots=["random", "rule", "search"]), DEALS, boards)


def test_each_partnership_holds_each_side_once_and_the_results_rate_every_two(store):
    tid = play(store)
    [mid] = store.match_ids(tid)
    for board, board_scores in store.entrant_scores(mid).items():
        record = store.pair(mid, board)
        assert len(board_scores) == 3 and abs(sum(board_scores)) < 1e-9
        assert [r["units"] for r in record["rooms"]] == [
            ["P1P4", "P2P5", "P3P6"],
            ["P2P5", "P3P6", "P1P4"],
            ["P3P6", "P1P4", "P2P5"],
        ]
        assert all(set(r["result"]["delta"]) == {"P1P4", "P2P5", "P3P6"} for r in record["rooms"])
    res = results(store, tid)
    assert ResultsSchema().validate(res) == {}
    assert {r["bot"] for r in res["standings"]} == {"random", "rule", "search"}
    ratings = store.ratings("widow_cinch")
    assert {bot: r["matches"] for bot, r in ratings.items()} == {"random": 1, "rule": 1, "search": 1}, "one match each"


def test_the_api_and_pages_show_a_three_sided_match(store, client):
    tid = play(store, boards=2)
    [mid] = store.match_ids(tid)
    [view] = client.get(f"/api/v1/tournaments/{tid}/matches").get_json()
    assert MatchSchema().validate(view) == {} and len(view["entrant_stats"]) == 3
    pair = client.get(f"/api/v1/matches/{mid}/boards/2").get_json()
    assert len(pair["rooms"]) == 3 and all(len(r["units"]) == 3 for r in pair["rooms"])
    board = client.get(f"/matches/{mid}/boards/2").get_data(as_text=True)
    assert board.count('<tr data-room="') == 3 and board.count('<section class="room') == 3
    assert client.get(f"/matches/{mid}").status_code == 200
    assert client.get(f"/tournaments/{tid}").status_code == 200


def test_a_blind_movement_seats_each_entrant_at_one_side_of_two_among_reference_sides(store):
    """The untrusted bot's format at three sides of two: the entrant holds one whole side
    (both its seats), the reference bot the two others, turning through the sides."""
    tid = play_tournament(store, spec_of(format="blind", bots=["random", "search"], boards=3), DEALS, 3)
    assert store.tournament(tid)["status"] == "finished"
    for mid in store.match_ids(tid):
        sides = [store.pair(mid, board)["side"] for board in range(1, 4)]
        assert sorted(sides) == ["P1P4", "P2P5", "P3P6"]
        for board in range(1, 4):
            room, par = store.pair(mid, board)["rooms"]
            assert set(room["result"]["delta"]) == set(par["result"]["delta"]) == {"P1P4", "P2P5", "P3P6"}
    assert {row["bot"] for row in results(store, tid)["standings"]} == {"random", "search"}
