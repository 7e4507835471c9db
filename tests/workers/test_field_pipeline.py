"""End to end through real ``rq worker`` processes for the family's shapes: a round robin of
``seven_up`` with three single seats (matches of three entrants, nets against the field),
with two single seats and of ``sixty_three`` (two-room matches), and a worker killed in
the middle of a three-entrant match."""

import pytest
from support.replayed import check_played_by_workers, in_process, kill_a_busy_worker, stored, workers  # noqa: F401 (a fixture)
from support.waiting import watch_progressing

from server.arena import dealsets
from server.web.api.schemas import ResultsSchema
from workers.driver import cli_driver, start

pytestmark = pytest.mark.e2e

THREE = {"ruleset": "seven_up", "options": {"players": 3}}
DEALS_3P = dealsets.generate("field-pipeline-3p", 240, players=3)


def every_board_once(store, tid, rooms=3):
    """Each match holds each of its boards once, every board's entrant scores summing to zero."""
    for mid in store.match_ids(tid):
        match = store.match(mid)
        scores = store.entrant_scores(mid)
        assert sorted(scores) == list(range(match["first"], match["last"] + 1))
        for board, board_scores in scores.items():
            assert len(board_scores) == len(match["entrants"]) and abs(sum(board_scores)) < 1e-9
            assert len(store.pair(mid, board)["rooms"]) == rooms
    t = store.tournament(tid)
    assert t["pairs_done"] == t["pairs_total"]


@pytest.mark.slow
def test_seven_up_with_three_single_seats_round_robin_on_rq_workers(store, queue, workers):
    tid = start(
        store, queue, {**THREE, "bots": ["random", "rule", "search"], "boards": 60, "chunk": 15}, cli_driver(), DEALS_3P
    )
    results = watch_progressing(store, queue, tid, cli_driver())
    check_played_by_workers(queue, workers)
    every_board_once(store, tid)
    assert ResultsSchema().validate(results) == {}
    [match] = results["matches"]
    assert match["entrants"] == ["random", "rule", "search"] and match["stats"]["boards"] == 60
    assert abs(sum(e["total"] for e in match["entrant_stats"])) < 1e-6
    ranked = [row["bot"] for row in results["standings"]]
    assert ranked[-1] == "random", results["standings"]
    assert set(results["crosstable"]) == {"random", "rule", "search"}
    ratings = store.ratings("seven_up")
    assert {bot: r["matches"] for bot, r in ratings.items()} == {"random": 1, "rule": 1, "search": 1}, "one match each"


@pytest.mark.parametrize(
    "ruleset, options, deals",
    [
        ("seven_up", {"players": 2}, dealsets.generate("field-pipeline-2p", 8, players=2)),
        ("sixty_three", {}, dealsets.generate("field-pipeline-4p", 6)),
    ],
)
def test_two_room_family_round_robins_on_rq_workers_equal_an_in_process_run(
    store, queue, workers, ruleset, options, deals
):
    tid = start(
        store,
        queue,
        {"ruleset": ruleset, "options": options, "bots": ["random", "rule"], "boards": len(deals.boards), "chunk": 4},
        cli_driver(),
        deals,
    )
    results = watch_progressing(store, queue, tid, cli_driver())
    assert stored(store, tid) == in_process(store, tid, deals)
    assert [(m["x"], m["y"]) for m in results["matches"]] == [("random", "rule")]
    assert results["standings"][0]["boards"] == len(deals.boards)
    assert store.ratings(ruleset)["rule"]["matches"] == 1


@pytest.mark.slow
def test_sigkilled_worker_mid_three_entrant_match_still_stores_every_board_once(store, queue, workers):
    tid = start(
        store,
        queue,
        {**THREE, "bots": ["random", "rule", "search"], "boards": 48, "chunk": 12, "rooms": "permute"},
        cli_driver(),
        DEALS_3P,
    )
    kill_a_busy_worker(store, queue, workers, tid)
    assert store.tournament(tid)["pairs_done"] < 48, "the kill must land mid-match"
    results = watch_progressing(store, queue, tid, cli_driver())
    every_board_once(store, tid, rooms=6)
    assert [row["boards"] for row in results["standings"]] == [48, 48, 48]
