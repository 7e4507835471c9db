"""End to end through a real Redis and real ``rq worker`` processes.

The stored results must be identical to an in-process run of the same matches, and a
worker SIGKILLed in the middle of a match must not lose or double-count a board pair.
"""

import time

import pytest
from rq.registry import FinishedJobRegistry
from support.replayed import in_process, kill_a_busy_worker, stored, workers  # noqa: F401 (a fixture)
from support.waiting import watch_progressing

from server.arena import dealsets
from workers.driver import cli_driver, start

pytestmark = pytest.mark.e2e

DEALS = dealsets.generate("pipeline-test", 80)


def test_round_robin_on_two_workers_equals_in_process_run(store, queue, workers):
    tid = start(store, queue, {"bots": ["random", "rule"], "boards": 16, "chunk": 2, "seed": 7}, cli_driver(), DEALS)
    results = watch_progressing(store, queue, tid, cli_driver())
    assert stored(store, tid) == in_process(store, tid, DEALS)
    assert results["standings"][0]["boards"] == 16
    names = {queue.fetch_job(j).worker_name for j in FinishedJobRegistry(queue=queue).get_job_ids()}
    assert names and names <= set(workers.procs), "chunks are played by the rq worker processes"
    assert store.ratings("american62")["rule"]["matches"] == 1


def test_gauntlet_candidates_meet_the_same_references_on_the_same_boards(store, queue, workers):
    tid = start(
        store,
        queue,
        {"format": "gauntlet", "candidates": ["random"], "references": ["rule"], "boards": 6, "chunk": 3},
        cli_driver(),
        DEALS,
    )
    results = watch_progressing(store, queue, tid, cli_driver())
    assert [(m["x"], m["y"]) for m in results["matches"]] == [("random", "rule")]
    assert stored(store, tid) == in_process(store, tid, DEALS)


@pytest.mark.slow
def test_sigkilled_worker_mid_match_still_counts_every_pair_once(store, queue, workers):
    tid = start(store, queue, {"bots": ["random", "rule"], "boards": 80, "chunk": 20, "seed": 3}, cli_driver(), DEALS)
    kill_a_busy_worker(store, queue, workers, tid)
    assert store.tournament(tid)["pairs_done"] < 80, "the kill must land mid-match"
    # No RQ sweep is forced: the driver sees the dead job's heartbeat lapse and re-enqueues.
    killed = time.monotonic()
    results = watch_progressing(store, queue, tid, cli_driver())
    assert time.monotonic() - killed < 60, "the dead worker's boards were played again within a minute"
    t = store.tournament(tid)
    assert t["pairs_done"] == t["pairs_total"] == 80
    assert len(store.scores(store.match_ids(tid)[0])) == 80
    assert stored(store, tid) == in_process(store, tid, DEALS)
    assert results["standings"][0]["boards"] == 80
    assert store.ratings("american62")["random"]["matches"] == 1
