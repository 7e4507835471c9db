"""A tournament's life through real ``rq worker`` processes on a real Redis: cancel,
interruption (its driver gone), resume, failure, and what the supervisor repairs."""

import time

import pytest
from rq.registry import StartedJobRegistry
from support.replayed import in_process, stored
from support.waiting import tournament_progress, wait_for, watch_progressing

from server.arena import dealsets
from server.arena.settings import LEASE_MS
from workers.driver import TournamentStopped, cli_driver, resume, start, watch
from workers.supervisor import SERVICE, halt, supervise, supervise_service

DEALS = dealsets.generate("supervisor-test", 60)


REQUEST = {"bots": ["random", "rule"], "boards": 60, "chunk": 5, "seed": 4}


@pytest.mark.slow
@pytest.mark.e2e
def test_cancel_removes_queued_jobs_stops_running_ones_and_resume_finishes_exactly(store, queue, rq_workers):
    driver = cli_driver()
    tid = start(store, queue, REQUEST, driver, DEALS)
    assert store.tournament(tid)["status"] == "queued"
    wait_for(lambda: store.tournament(tid)["pairs_done"] >= 3, "play to start", tournament_progress(store, tid, driver))
    assert store.tournament(tid)["status"] == "running"
    assert halt(store, queue, tid, "cancelled")
    assert store.tournament(tid)["status"] == "cancelled"
    assert not [j for j in queue.get_job_ids() if j.startswith(f"{store.prefix}_{tid}_")], "queued jobs removed"
    time.sleep(1.0)  # a board in progress may still be stored
    frozen = store.tournament(tid)["pairs_done"]
    time.sleep(2.0)
    assert store.tournament(tid)["pairs_done"] == frozen < 60, "running jobs stop at their next board"
    with pytest.raises(TournamentStopped, match="cancelled"):
        watch(store, queue, tid, driver, timeout=5)
    resume(store, queue, tid, driver)
    results = watch_progressing(store, queue, tid, driver)
    t = store.tournament(tid)
    assert t["status"] == "finished" and t["pairs_done"] == t["pairs_total"] == 60
    assert stored(store, tid) == in_process(store, tid, DEALS)
    assert results["standings"][0]["boards"] == 60
    assert store.ratings("american62")["rule"]["boards"] == 60, "every board pair rated once"
    with pytest.raises(TournamentStopped, match="finished"):
        resume(store, queue, tid, driver)


@pytest.mark.slow
@pytest.mark.e2e
def test_a_tournament_whose_driver_died_is_interrupted_and_nobody_plays_it(store, queue, rq_workers):
    elsewhere = "cli:elsewhere:1"
    tid = start(store, queue, REQUEST, elsewhere, DEALS)
    wait_for(
        lambda: store.tournament(tid)["pairs_done"] >= 3, "play to start", tournament_progress(store, tid, elsewhere)
    )
    store.redis.delete(store.key("tournament", tid, "lease"))  # as if its lease lapsed
    assert store.tournament(tid)["status"] == "interrupted"
    time.sleep(1.0)
    frozen = store.tournament(tid)["pairs_done"]
    time.sleep(2.0)
    assert store.tournament(tid)["pairs_done"] == frozen < 60, "workers do not play an interrupted tournament"
    supervise_service(store, queue, "supervisor:test")  # the service records it, and does not adopt it
    assert store.tournament(tid)["status"] == "interrupted"
    assert tid not in store.active_tournaments()
    driver = cli_driver()
    resume(store, queue, tid, driver)
    watch_progressing(store, queue, tid, driver)
    assert stored(store, tid) == in_process(store, tid, DEALS)


@pytest.mark.slow
@pytest.mark.e2e
def test_the_service_supervisor_replays_a_dead_workers_boards_within_a_minute(store, queue, rq_workers):
    tid = start(store, queue, {**REQUEST, "chunk": 60}, SERVICE, DEALS)
    wait_for(lambda: store.tournament(tid)["pairs_done"] >= 3, "play to start", tournament_progress(store, tid))
    job_id = StartedJobRegistry(queue=queue).get_job_ids(cleanup=False)[0]
    victim = queue.fetch_job(job_id).worker_name
    rq_workers.procs[victim].kill()
    rq_workers.procs[victim].wait()
    rq_workers.replace_dead()
    killed = time.monotonic()
    finished = lambda: store.tournament(tid)["status"] == "finished"
    wait_for(finished, "the tournament to finish", tournament_progress(store, tid))
    assert time.monotonic() - killed < 60
    t = store.tournament(tid)
    assert t["pairs_done"] == 60 and len(store.scores(store.match_ids(tid)[0])) == 60
    assert stored(store, tid) == in_process(store, tid, DEALS)


@pytest.mark.slow
@pytest.mark.e2e
def test_jobs_that_keep_failing_fail_the_tournament_with_the_error(store, queue, rq_workers):
    driver = cli_driver()
    tid = start(store, queue, {**REQUEST, "boards": 4, "chunk": 4}, driver, DEALS)
    store.redis.delete(store.key("deals", DEALS.name))  # every job now fails to load its boards
    with pytest.raises(TournamentStopped, match="failed: 5 jobs failed in a row; last: .*no board"):
        watch_progressing(store, queue, tid, driver)
    t = store.tournament(tid)
    assert t["status"] == "failed" and "no board" in t["error"]


def test_a_supervisor_pass_is_idempotent(store, queue):
    """Without workers nothing is played: passes enqueue each board once and no more."""
    tid = start(store, queue, {**REQUEST, "boards": 12, "chunk": 5}, cli_driver(), DEALS)
    before = sorted(queue.get_job_ids())
    assert len(before) == 3
    for _ in range(3):
        assert supervise(store, queue, tid) == "queued"
    assert sorted(queue.get_job_ids()) == before
    assert store.tournament(tid)["status"] == "queued"
    assert LEASE_MS >= 10_000


@pytest.mark.e2e
def test_a_job_cut_short_by_its_workers_stop_is_not_a_failure(store, queue, rq_workers):
    driver = cli_driver()
    tid = start(store, queue, {"bots": ["search", "rule"], "boards": 8, "chunk": 8, "seed": 2}, driver, DEALS)
    wait_for(lambda: store.tournament(tid)["pairs_done"] >= 1, "play to start", tournament_progress(store, tid, driver))

    def busy():
        """The worker playing the job, once RQ has its name on the started job (under load
        the registry and the job's worker name are written a moment apart)."""
        jobs = [queue.fetch_job(j) for j in StartedJobRegistry(queue=queue).get_job_ids()]
        return [n for n in rq_workers.procs if n in {job.worker_name for job in jobs if job is not None}]

    wait_for(busy, "the job's worker to be known", tournament_progress(store, tid, driver))
    assert store.tournament(tid)["pairs_done"] < 8, "the job finished before it could be stopped"
    worker = rq_workers.procs[busy()[0]]
    worker.terminate()  # a stop: the job is interrupted after its grace
    worker.wait(timeout=20)
    rq_workers.replace_dead()
    watch_progressing(store, queue, tid, driver)
    assert int(store.redis.hget(store.key("tournament", tid), "failures") or 0) == 0
    assert store.tournament(tid)["pairs_done"] == 8
