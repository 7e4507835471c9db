"""Supervising tournaments: every board not yet stored is being played or is queued.

RQ alone finds a dead ``SimpleWorker``'s job only after the job's timeout and a
maintenance pass (half an hour by default), and a job lost with a Redis write is never
found. So every live tournament has a supervisor that checks, every couple of seconds,
which of its boards are covered: by a job that a live worker holds, by a job whose
heartbeat is alive, or by a claim on the board itself. Whatever is not covered is
enqueued again. It also does the follow-ups of complete matches (ratings, results) that
a crashed job may have left, decides an SPRT tournament's matches whose test a crashed
job left undecided (cancelling their queued jobs), and marks a tournament failed when its
jobs keep failing with no progress.

A job is held while it is in the queue, in RQ's intermediate queue (a worker took it and
has not started it), or is the current job of a worker in RQ's registry, which lists an
arena worker only while it beats (``workers.worker``). A job is lost only when its worker
is gone, never for starting late or for a heartbeat delayed by load while its worker
beats:

* a worker killed while running a job: once both its heartbeat and its registration
  lapse, at most ``CLAIM_MS`` plus one pass after it died;
* a worker killed between taking a job and starting it: RQ records no owner for that
  moment, so the job is lost once it has sat in the intermediate queue for ``CLAIM_MS``
  (a live worker leaves it there for a few Redis commands);
* a job lost with a Redis write (queued, yet in neither queue): at the next pass.

Boards claimed by a job that was taken for lost but runs after all are not played twice:
the replacement and the late job claim each board, and only one claim succeeds.

A ``cinch tournament`` command supervises its own tournament (``workers.driver.watch``).
Tournaments created through the API belong to the service: ``python -m
workers.supervisor`` (started by ``cinch serve``, a service of its own in compose) holds
their leases and supervises them; of several such processes on one Redis, one leads.
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import sys
import threading
from datetime import UTC, datetime
from typing import NamedTuple

from redis import Redis
from redis.exceptions import RedisError
from rq import Queue, Worker
from rq.job import Job, JobStatus

from server import logs
from server.arena.match_sprt import decide
from server.arena.settings import CLAIM_MS, LEASE_MS, MAX_FAILURES, SUPERVISE_SECONDS
from server.arena.store import ACTIVE, Store
from server.arena.tournaments import after_match_progress, chunks, finish_if_complete
from server.config import Config
from server.metrics import JOBS_REQUEUED
from workers import monitor
from workers.jobs import WAITING, cancel_waiting, drop_waiting_jobs, enqueue_chunks, fetch_jobs, queue_for
from workers.worker import was_interrupted

log = logs.logger("supervisor")

SERVICE = "service"
"""The driver of tournaments created through the API."""


class Holders(NamedTuple):
    """Where RQ has a tournament's jobs, read in the order a job moves (see ``covered_boards``)."""

    queued: set[str]  # in the queue
    taken: set[str]  # in RQ's intermediate queue: a worker took it and has not started it
    running: set[str]  # the current jobs of the workers alive (``workers.worker``)

    @classmethod
    def read(cls, queue: Queue) -> Holders:
        queued = set(queue.get_job_ids())
        taken = set(queue.intermediate_queue.get_job_ids())
        workers = Worker.all(queue=queue)
        return cls(queued, taken, {e.job_id for w in workers for e in w.get_current_executions()})


def _taken_long_ago(queue: Queue, job_id: str) -> bool:
    """Whether the job has sat in RQ's intermediate queue for ``CLAIM_MS``, timed from the
    first pass that saw it there (RQ's own mark, which its clean-up reads too). A live
    worker moves it on within a few Redis commands; no RQ record says which worker took it,
    so this is the only sign that one died between taking and starting it."""
    taken = queue.intermediate_queue
    taken.set_first_seen(job_id)
    first = taken.get_first_seen(job_id)
    return first is not None and (datetime.now(UTC) - first).total_seconds() * 1000 >= CLAIM_MS


def _held(queue: Queue, job_id: str, status: JobStatus | None, holders: Holders) -> bool:
    """Whether a live worker has (or will take) the job, by RQ's records alone."""
    if status == JobStatus.QUEUED:
        return (
            job_id in holders.queued
            or job_id in holders.running
            or (job_id in holders.taken and not _taken_long_ago(queue, job_id))
        )
    if status == JobStatus.STARTED:
        return job_id in holders.running
    return status in WAITING


def _last_error(job: Job) -> str:
    result = job.latest_result()
    text = (result.exc_string if result is not None else None) or "no error recorded"
    return text.strip().splitlines()[-1][:300]


def _lost(tid: str, job_id: str, status: JobStatus | None, holders: Holders) -> None:
    if status == JobStatus.QUEUED and job_id in holders.taken:
        log.warning(
            "tournament %s: job %s was taken by a worker that died before starting it; its boards go to another",
            tid,
            job_id,
        )
    elif status == JobStatus.QUEUED:
        log.warning(
            "tournament %s: job %s is queued nowhere (lost with a Redis write); its boards go to another", tid, job_id
        )
    elif status == JobStatus.STARTED:
        log.warning(
            "tournament %s: job %s lost its worker (no heartbeat, no live worker runs it); its boards go to another",
            tid,
            job_id,
        )


def covered_boards(store: Store, queue: Queue, tid: str) -> dict[str, set[int]]:
    """Boards of each match that a queued or live job will play; forgets ended jobs and
    counts failed ones (marking the tournament failed after too many in a row). A queued
    job of a complete match (decided by its sequential test) is cancelled.

    A job is lost only when no live worker holds it: neither its heartbeat nor RQ's records
    (queue, intermediate queue, the live workers' current jobs) place it, however late it
    starts. Those records are read after the jobs' statuses, in the order a job moves
    through them, so a job moving on during the pass is seen in a later place, never in
    none; one that seems held nowhere is looked up again, and if its status changed
    meanwhile it is left to the next pass."""
    ids = store.jobs(tid)
    jobs = fetch_jobs(store, ids)
    beating = store.jobs_alive(ids)
    holders = Holders.read(queue)
    complete = store.complete_matches(tid)
    status = {j: job.get_status(refresh=False) if job is not None else None for j, job in zip(ids, jobs)}
    held = {j for j in ids if j in beating or _held(queue, j, status[j], holders)}
    suspects = [j for j in ids if j not in held and status[j] in (JobStatus.QUEUED, JobStatus.STARTED)]
    held |= {
        j for j, job in zip(suspects, fetch_jobs(store, suspects)) if job and job.get_status(refresh=False) != status[j]
    }
    covered: dict[str, set[int]] = {}
    ended: list[str] = []
    failed: list[Job] = []
    for job_id, job in zip(ids, jobs):
        if job is not None and status[job_id] in WAITING and job.args[1] in complete:
            cancel_waiting([job])  # its match was decided: nothing of it is left to play
        elif job is not None and job_id in held:
            _, mid, first, last = job.args
            covered.setdefault(mid, set()).update(range(first, last + 1))
            continue
        ended.append(job_id)
        if job is not None and status[job_id] == JobStatus.FAILED and not was_interrupted(_last_error(job)):
            failed.append(job)  # a job cut short by its worker's stop is no failure
        else:
            _lost(tid, job_id, status[job_id], holders)
    store.forget_jobs(tid, ended)
    if failed:
        error = _last_error(failed[-1])
        log.warning("tournament %s: %d job(s) failed: %s", tid, len(failed), error)
        if store.count_failures(tid, len(failed)) >= MAX_FAILURES:
            halt(store, queue, tid, "failed", f"{MAX_FAILURES} jobs failed in a row; last: {error}")
    return covered


def supervise(store: Store, queue: Queue, tid: str) -> str:
    """One pass over tournament ``tid``; returns its status afterwards."""
    with logs.context(tournament=tid):
        return _supervise(store, queue, tid)


def _supervise(store: Store, queue: Queue, tid: str) -> str:
    t = store.tournament(tid)
    if t["status"] not in ACTIVE:
        return t["status"]
    covered = covered_boards(store, queue, tid)
    if store.tournament(tid)["status"] == "failed":
        return "failed"
    for mid in store.match_ids(tid):
        match = store.match(mid)
        decided = match["status"] != "complete" and decide(store, match)
        if decided:  # the job that stored the deciding pair died before deciding
            drop_waiting_jobs(store, match)
        if decided or match["status"] == "complete":
            after_match_progress(store, match)
            continue
        every = set(range(match["first"], match["last"] + 1))
        open_boards = every - store.stored_boards(mid) - covered.get(mid, set())
        open_boards -= store.claimed_boards(mid, sorted(open_boards))
        ranges = chunks(match, t["chunk"], skip=every - open_boards)
        if ranges:
            ids = enqueue_chunks(store, queue, tid, mid, ranges)
            JOBS_REQUEUED.inc(len(ids))
            with logs.context(tournament=tid, match=mid):
                log.info("tournament %s: enqueued %d job(s) for boards nobody is playing in %s", tid, len(ids), mid)
    return "finished" if finish_if_complete(store, tid) else store.tournament(tid)["status"]


def halt(store: Store, queue: Queue, tid: str, status: str, error: str = "") -> bool:
    """Stop a tournament (cancelled, interrupted, failed): its queued jobs are removed,
    and its running jobs end at their next board, since a claim needs a live tournament."""
    stopped = store.stop_tournament(tid, status, error)
    ids = store.jobs(tid)
    cancel_waiting(fetch_jobs(store, ids))
    store.forget_jobs(tid, ids)
    return stopped


def supervise_service(store: Store, queue: Queue, me: str) -> None:
    """One pass of the service's supervisor, if it leads: every live API tournament."""
    if not store.lead(me, LEASE_MS):
        return
    for tid in store.active_tournaments():
        t = store.tournament(tid)
        if t["driver"] != SERVICE:
            # a CLI's tournament whose command died: record it as interrupted
            store.stop_tournament(tid, "interrupted", only_if_driverless=True)
            continue
        if store.hold_lease(tid, SERVICE, LEASE_MS) is None:
            supervise(store, queue, tid)


def run_service(
    store: Store,
    queue: Queue,
    stop: threading.Event,
    interval: float = SUPERVISE_SECONDS,
    liveness: monitor.Liveness | None = None,
) -> None:
    """Supervise until ``stop`` is set, riding out Redis restarts; every pass beats
    ``liveness`` (``workers.monitor``: the /health of ``--metrics-port``, systemd's watchdog)."""
    me = f"supervisor:{socket.gethostname()}:{os.getpid()}"
    liveness = liveness or monitor.Liveness()
    down = False
    while not stop.is_set():
        try:
            supervise_service(store, queue, me)
            liveness.beat(reached_redis=True)
            if down:
                log.warning("Redis is back; supervising again")
                down = False
        except RedisError as exc:
            liveness.beat(reached_redis=False)
            if not down:
                log.warning("Redis unreachable (%s); retrying every %.0f s", exc, interval)
                down = True
        stop.wait(interval)


def supervisor_command(url: str, prefix: str, queue: str) -> list[str]:
    """The command line of the service's supervisor process."""
    return [sys.executable, "-m", "workers.supervisor", "--url", url, "--prefix", prefix, "--queue", queue]


def main(argv: list[str] | None = None, config: Config | None = None) -> int:
    """The supervisor process: its Redis, prefix and queue from the command line, each
    defaulting to the arena's configuration (``config``, or the environment's)."""
    config = config or Config.from_env()
    parser = argparse.ArgumentParser(
        prog="python -m workers.supervisor", description="Supervise the tournaments created through the API."
    )
    parser.add_argument("--url", default=config.service_redis_url)
    parser.add_argument("--prefix", default=config.prefix)
    parser.add_argument("--queue", default=config.queue)
    parser.add_argument("--interval", type=float, default=SUPERVISE_SECONDS)
    monitor.add_arguments(parser)
    args = parser.parse_args(argv)
    logs.configure(config.log_format)
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    liveness = monitor.Liveness()
    try:
        monitor.start(
            "supervisor", liveness, args.metrics_host, args.metrics_port, config.admin_token, config.metrics_dir
        )
    except monitor.MonitorError as exc:
        parser.error(str(exc))
    store = Store(Redis.from_url(args.url, socket_connect_timeout=5, socket_timeout=30), args.prefix)
    run_service(store, queue_for(store, args.queue), stop, args.interval, liveness)
    log.info("supervisor stopped")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
