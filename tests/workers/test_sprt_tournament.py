"""An SPRT tournament through the queue: each match stops when its own test decides,
its queued jobs go, and the others play on (real ``rq worker`` processes, real Redis)."""

import time

import pytest
from support.waiting import watch_progressing

from server.arena import dealsets
from workers.driver import cli_driver, start
from workers.supervisor import supervise

DEALS = dealsets.generate("sprt-tournament-test", 60)
GAUNTLET = {
    "format": "gauntlet",
    "candidates": ["rule"],
    "references": ["random", "search"],
    "boards": 60,
    "sprt": {"delta0": 0, "delta1": 5},
}


def queued(queue):
    return queue.get_job_ids()


def test_the_supervisor_decides_what_a_dead_job_stored_and_drops_the_matchs_queued_jobs(store, queue):
    tid = start(store, queue, {**GAUNTLET, "references": ["random"]}, cli_driver(), DEALS)
    [mid] = store.match_ids(tid)
    assert len(queued(queue)) == 6, "chunks of 10 boards"
    match = store.match(mid)  # as a job that died right after storing boards 1-20 left them
    store.record_pairs(match, [{"board": n, "score": 40 + n % 5, "rooms": []} for n in range(1, 21)])
    assert supervise(store, queue, tid) == "finished"
    assert queued(queue) == [] and store.jobs(tid) == []
    assert store.results(tid)["matches"][0]["sprt"]["decision"] == "H1"
    assert store.tournament(tid)["pairs_done"] == 20


@pytest.mark.e2e
def test_a_lopsided_match_stops_early_while_the_other_plays_on(store, queue, rq_workers):
    driver = cli_driver()
    tid = start(store, queue, GAUNTLET, driver, DEALS)
    lopsided, other = store.match_ids(tid)
    seen = {}

    def look(t):
        if lopsided in store.complete_matches(tid) and "decided" not in seen:
            seen.update(decided=time.monotonic(), other_then=len(store.stored_boards(other)), status_then=t["status"])

    results = watch_progressing(store, queue, tid, driver, on_progress=look)
    first, second = results["matches"]
    assert first["x"] == "rule" and first["y"] == "random"
    assert first["sprt"]["decision"] == "H1" and first["sprt"]["boards"] < 20
    assert first["sprt"]["boards"] <= first["stats"]["boards"] < 60, "stopped well before its 60 boards"
    assert seen["status_then"] == "running" and seen["other_then"] < 20, "decided while rule-search was young"
    assert second["sprt"]["decision"] is not None, "rule-search went on to its own end"
    assert second["stats"]["boards"] >= second["sprt"]["boards"] > 0
    assert queued(queue) == [], "no job of a decided match is left in the queue"
    assert store.tournament(tid)["pairs_done"] == first["stats"]["boards"] + second["stats"]["boards"] < 120
