"""End to end through real ``rq worker`` processes: a round robin of ``widow_cinch``, one
match of three entrants, each holding a side of two (one bot at both seats), the three
partnerships rotating through the three sides (docs/rules/duplicate.md#three-sides). Every board is stored
once with its three rooms, equal to the same boards played in this process; standings,
results and ratings take the three-sided scores."""

import json

import pytest
from support.replayed import check_played_by_workers, workers  # noqa: F401 (a fixture)
from support.waiting import watch_progressing

from server.arena import dealsets
from server.arena.duplicate import play_boards
from server.engine import make_ruleset
from server.web.api.schemas import ResultsSchema
from workers.bots import make_bot
from workers.driver import cli_driver, start

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

WIDOW = {"ruleset": "widow_cinch", "options": {}}
DEALS_6P = dealsets.generate("widow-pipeline-6p", 24, players=6)
SIDES = ["P1P4", "P2P5", "P3P6"]


def test_widow_cinch_three_sides_round_robin_on_rq_workers(store, queue, workers):
    tid = start(
        store, queue, {**WIDOW, "bots": ["random", "rule", "search"], "boards": 24, "chunk": 6}, cli_driver(), DEALS_6P
    )
    results = watch_progressing(store, queue, tid, cli_driver())
    check_played_by_workers(queue, workers)
    [mid] = store.match_ids(tid)
    match = store.match(mid)
    assert match["entrants"] == ["random", "rule", "search"] and match["rooms"] == "rotate"
    boards = [(n, DEALS_6P.board(n)) for n in range(1, 25)]
    here = play_boards(
        make_ruleset("widow_cinch"),
        boards,
        [make_bot(e, match["seed"]) for e in match["entrants"]],
        match["rooms"],
        mid,
    )
    for record in json.loads(json.dumps(list(here))):
        kept = store.pair(mid, record["board"])
        assert kept == record
        assert [room["units"] for room in kept["rooms"]] == [SIDES, SIDES[1:] + SIDES[:1], SIDES[2:] + SIDES[:2]]
        for room in kept["rooms"]:
            assert set(room["result"]["delta"]) == set(SIDES) and len({a["seat"] for a in room["actions"]}) == 6
        assert abs(sum(kept["entrant_scores"])) < 1e-9
    assert ResultsSchema().validate(results) == {}
    [row] = results["matches"]
    assert row["stats"]["boards"] == 24 and abs(sum(e["total"] for e in row["entrant_stats"])) < 1e-6
    assert [r["bot"] for r in results["standings"]][-1] == "random", results["standings"]
    assert set(results["crosstable"]) == {"random", "rule", "search"}
    ratings = store.ratings("widow_cinch")
    assert {bot: r["matches"] for bot, r in ratings.items()} == {"random": 1, "rule": 1, "search": 1}, "one match each"
