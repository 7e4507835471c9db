"""Running a tournament to the end: create it, enqueue its chunks, watch and supervise.

The watcher is what the CLI shows as a progress bar. It also keeps the run alive: local
workers that die are restarted and the chunk they held is enqueued again under a new
attempt, and if nothing has progressed for a while the abandoned-job registry is swept
(RQ retries abandoned jobs that have retries left) and every unstored board range is
enqueued again. All of this is safe because storing a board pair is idempotent.
"""

from __future__ import annotations

import time
from typing import Any, Callable

from rq import Queue
from rq.registry import FailedJobRegistry, StartedJobRegistry

from server.dealsets import DealSet
from server.registry import active_names, ensure_builtins
from server.store import Store
from server.tournaments import plan_matches, validate
from workers.bots import BUILTIN
from workers.jobs import enqueue_missing
from workers.local import LocalWorkers, jobs_of_dead_workers

STALL_SECONDS = 90
MAX_ATTEMPTS = 5


def last_failure(queue: Queue) -> str | None:
    """The last line of the newest failed job's error on ``queue``, if any."""
    ids = FailedJobRegistry(queue=queue).get_job_ids(desc=True)
    job = queue.fetch_job(ids[0]) if ids else None
    info = job.latest_result().exc_string if job is not None and job.latest_result() else None
    return info.strip().splitlines()[-1] if info else None


def start(store: Store, queue: Queue, request: dict[str, Any], deals: DealSet) -> str:
    """Validate a request, publish its deal set, store the tournament and enqueue its jobs."""
    ensure_builtins(store, BUILTIN)
    spec = validate({**request, "deals": deals.name}, active_names(store), len(deals.boards))
    store.put_dealset(deals)
    tid = store.create_tournament(spec, plan_matches(spec))
    enqueue_missing(store, queue, tid, spec["chunk"])
    return tid


def watch(store: Store, queue: Queue, tid: str, workers: LocalWorkers | None = None,
          on_progress: Callable[[int, int], None] | None = None, poll: float = 0.2,
          timeout: float | None = None) -> dict[str, Any]:
    """Wait for tournament ``tid`` to finish, supervising as described above."""
    chunk = store.tournament(tid)["chunk"]
    attempt, last_done, last_change = 0, -1, time.monotonic()
    start = time.monotonic()
    while True:
        t = store.tournament(tid)
        if on_progress:
            on_progress(t["pairs_done"], t["pairs_total"])
        if t["status"] == "finished":
            return store.results(tid)
        now = time.monotonic()
        if t["pairs_done"] != last_done:
            last_done, last_change = t["pairs_done"], now
        dead = workers.replace_dead() if workers else []
        if dead and jobs_of_dead_workers(queue, dead):
            attempt += 1
            enqueue_missing(store, queue, tid, chunk, attempt)
        elif now - last_change > STALL_SECONDS:
            if attempt >= MAX_ATTEMPTS:
                raise RuntimeError(f"tournament {tid} made no progress in {attempt} attempts; "
                                   f"last job error: {last_failure(queue) or 'none recorded'}")
            StartedJobRegistry(queue=queue).cleanup()
            attempt += 1
            enqueue_missing(store, queue, tid, chunk, attempt)
            last_change = now
        if timeout is not None and now - start > timeout:
            raise TimeoutError(f"tournament {tid} did not finish in {timeout:.0f} s")
        time.sleep(poll)
