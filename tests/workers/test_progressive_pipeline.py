"""End to end through real ``rq worker`` processes: a Progressive Cinch of 8 entrants over
4 rounds (docs/rules/progressive.md) whose stored rounds move exactly as docs/rules/progressive.md says given the
tables' stored results, with a worker SIGKILLed in the middle of a table."""

import pytest
from rq.registry import FinishedJobRegistry
from support.replayed import kill_a_busy_worker, workers  # noqa: F401 (a fixture)
from support.waiting import watch_progressing

from server.arena import dealsets
from server.arena.progressive import TableResult, boards_of, first_seating, move, standings
from server.web.api.schemas import ResultsSchema
from workers.driver import cli_driver, start

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

ENTRANTS = ["random", "rule", "search", "rule#2", "random#2", "search#2", "rule#3", "random#3"]
DEALS = dealsets.generate("progressive-pipeline", 16)


def stored_rounds(store, tid):
    """Each round's tables as stored (head first), their table scores summed from the
    stored rooms' hand score changes, independently of the server's own reading."""
    rounds = {}
    for mid in store.match_ids(tid):
        m = store.match(mid)
        assert store.stored_boards(mid) == set(range(*boards_of(m["round"]))) | {boards_of(m["round"])[1]}
        ns = ew = 0
        for board in range(m["first"], m["last"] + 1):
            [room] = store.pair(mid, board)["rooms"]
            ns, ew = ns + room["result"]["delta"]["NS"], ew + room["result"]["delta"]["EW"]
        rounds.setdefault(m["round"], []).append(TableResult(m["round"], m["table"], tuple(m["entrants"]), ns, ew))
    return [sorted(rounds[r], key=lambda t: t.table) for r in sorted(rounds)]


def test_eight_entrants_over_four_rounds_on_rq_workers_move_as_section_11_says(store, queue, workers):
    tid = start(store, queue, {"format": "progressive", "bots": ENTRANTS, "rounds": 4}, cli_driver(), DEALS)
    kill_a_busy_worker(store, queue, workers, tid, at=10)
    assert store.tournament(tid)["pairs_done"] < 32, "the kill must land before the end"
    results = watch_progressing(store, queue, tid, cli_driver())
    t = store.tournament(tid)
    assert t["status"] == "finished" and t["pairs_done"] == t["pairs_total"] == 32 and t["matches_total"] == 8
    names = {queue.fetch_job(j).worker_name for j in FinishedJobRegistry(queue=queue).get_job_ids()}
    assert names and names <= set(workers.procs), "tables are played by the rq worker processes"

    rounds = stored_rounds(store, tid)
    assert [len(tables) for tables in rounds] == [2, 2, 2, 2]
    seating = first_seating(DEALS.seed, ENTRANTS)  # 11.5
    for r, tables in enumerate(rounds, 1):
        assert [table.seats for table in tables] == seating, f"round {r} is seated as 11.6 and 11.7 say"
        assert sorted(e for table in tables for e in table.seats) == sorted(ENTRANTS)
        seating = move(seating, [table.winner(DEALS.seed) for table in tables])  # 11.4, 11.6, 11.7

    assert ResultsSchema().validate(results) == {}
    expected = standings(DEALS.seed, ENTRANTS, [table for tables in rounds for table in tables])  # 11.8
    assert [(r["bot"], r["match_wins"], r["total"], r["last_table"]) for r in results["standings"]] == [
        (r["bot"], r["rounds_won"], r["net"], r["last_table"]) for r in expected
    ]
    assert sum(r["match_wins"] for r in results["standings"]) == 4 * 2 * 2, "two winners a table"
    assert [[tb["winner"] for tb in rd["tables"]] for rd in results["rounds"]] == [
        [table.winner(DEALS.seed) for table in tables] for tables in rounds
    ]
    assert store.ratings("foster51") == {}, "progressive results are not rated"
