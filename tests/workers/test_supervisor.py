"""A tournament's life through real ``rq worker`` processes on a real Redis: cancel,
interruption (its driver gone), resume, failure, and what the supervisor repairs; and,
in-process, each step of a worker taking a job, where the supervisor must see the job
as held however slowly the step goes, and lost once its worker is gone."""

import contextlib
import logging
import os
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta

import pytest
from rq import Queue
from rq.registry import FinishedJobRegistry, StartedJobRegistry
from rq.serializers import JSONSerializer
from support.backend import back_end
from support.replayed import in_process, stored
from support.waiting import tournament_progress, wait_for, watch_progressing

from server.arena import dealsets
from server.arena.settings import CLAIM_MS, LEASE_MS
from workers.driver import TournamentStopped, cli_driver, resume, start, watch
from workers.supervisor import SERVICE, halt, supervise, supervise_service
from workers.worker import ArenaWorker

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


REPLAYED = "its boards go to another"


@contextlib.contextmanager
def worker_in_process(store):
    """An arena worker registered and beating in this process, whose steps the test takes
    one at a time (``Queue.dequeue_any``, ``prepare_execution``, ...) as its work loop would."""
    worker = ArenaWorker(
        [store.queue_name], connection=store.redis, name=f"test-{store.prefix}", serializer=JSONSerializer
    )
    worker.register_birth()
    try:
        yield worker
    finally:
        worker.register_death()


def take(queue):
    """The worker's dequeue: the job moves to RQ's intermediate queue, still queued."""
    job, _ = Queue.dequeue_any([queue], None, connection=queue.connection, serializer=JSONSerializer)
    return job


def passes(store, queue, tid, n=3):
    for _ in range(n):
        assert supervise(store, queue, tid) == "queued"


def test_a_job_its_worker_is_slow_to_start_is_never_taken_for_lost(store, queue, caplog):
    """The race of issue 27: a job off the queue but not started (then started but not yet
    beating) is held by its live worker, for as long as the worker takes."""
    caplog.set_level(logging.INFO, "cinch.supervisor")
    tid = start(store, queue, {**REQUEST, "boards": 10, "chunk": 5}, cli_driver(), DEALS)
    ids = sorted(store.jobs(tid))
    with worker_in_process(store) as worker:
        job = take(queue)
        assert job.get_status() == "queued" and job.id in queue.intermediate_queue.get_job_ids()
        passes(store, queue, tid)
        worker.prepare_execution(job)  # RQ's record of who runs it
        passes(store, queue, tid)
        worker.prepare_job_execution(job, remove_from_intermediate_queue=True)
        assert job.get_status() == "started" and not store.jobs_alive([job.id]), "no heartbeat yet"
        assert 0 < store.redis.ttl(worker.key) <= CLAIM_MS // 1000, "not rq's day-long life for a busy worker"
        passes(store, queue, tid)
        assert sorted(store.jobs(tid)) == ids and len(queue.get_job_ids()) == 1
        assert REPLAYED not in caplog.text and "nobody is playing" not in caplog.text

        worker.stop_beating()  # as if SIGKILLed: its registration lapses
        store.redis.delete(worker.key)
        supervise(store, queue, tid)
        assert f"job {job.id} lost its worker" in caplog.text
        assert len(queue.get_job_ids()) == 2, "its boards were enqueued again"


def test_a_job_whose_worker_died_before_starting_it_is_replayed_after_a_claims_life(store, queue, caplog):
    tid = start(store, queue, {**REQUEST, "boards": 5, "chunk": 5}, cli_driver(), DEALS)
    job = take(queue)  # and its worker died: no RQ record says whose it was
    passes(store, queue, tid)
    assert REPLAYED not in caplog.text and queue.get_job_ids() == []
    taken = queue.intermediate_queue
    past = datetime.now(UTC) - timedelta(milliseconds=CLAIM_MS + 1000)
    store.redis.set(taken.get_first_seen_key(job.id), past.timestamp())
    supervise(store, queue, tid)
    assert f"job {job.id} was taken by a worker that died before starting it" in caplog.text
    assert len(queue.get_job_ids()) == 1 and job.id not in store.jobs(tid)


def test_a_job_lost_with_a_redis_write_is_replayed_at_once(store, queue, caplog):
    tid = start(store, queue, {**REQUEST, "boards": 5, "chunk": 5}, cli_driver(), DEALS)
    [job_id] = queue.get_job_ids()
    store.redis.lrem(queue.key, 1, job_id)  # still "queued", in no list
    supervise(store, queue, tid)
    assert f"job {job_id} is queued nowhere" in caplog.text
    assert len(queue.get_job_ids()) == 1 and job_id not in store.jobs(tid)


@contextlib.contextmanager
def cpu_burners():
    """Two busy loops per core, at the workers' own priority: a machine at load 4 on two cores."""
    burners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(2 * (os.cpu_count() or 1))]
    try:
        yield
    finally:
        for burner in burners:
            burner.kill()
            burner.wait()


@pytest.mark.slow
@pytest.mark.e2e
def test_on_a_loaded_machine_no_job_is_taken_for_lost(redis_url, store, queue, caplog, monkeypatch):
    """Workers that start, and take their first jobs, under load are slow to start them:
    nothing is enqueued twice and nothing is reported lost. The driver supervises every
    20 ms rather than every 2 s, to look inside as many of those windows as it can."""
    caplog.set_level(logging.INFO, "cinch.supervisor")
    monkeypatch.setattr("workers.driver.SUPERVISE_SECONDS", 0.0)
    driver = cli_driver()
    with cpu_burners(), back_end(redis_url, store):
        tid = start(store, queue, {**REQUEST, "boards": 40}, driver, DEALS)
        enqueued = sorted(store.jobs(tid))
        watch_progressing(store, queue, tid, driver, poll=0.02)
    assert REPLAYED not in caplog.text and "nobody is playing" not in caplog.text
    assert sorted(FinishedJobRegistry(queue=queue).get_job_ids()) == enqueued, "every job ran once, none was added"
    assert store.tournament(tid)["pairs_done"] == 40
    assert stored(store, tid) == in_process(store, tid, DEALS)
