"""What the end-to-end tests share: what the store should hold for a tournament,
recomputed in this process (they compare it with what real workers stored), and two RQ
worker processes to store it."""

from __future__ import annotations

import json
import os
import signal
from typing import Any

import pytest
from rq import Worker
from rq.registry import FinishedJobRegistry, StartedJobRegistry

from server.arena.dealsets import DealSet
from server.arena.duplicate import play_match
from server.arena.store import Store
from server.engine import make_ruleset
from support.waiting import tournament_progress, wait_for
from workers.bots import make_bot
from workers.driver import cli_driver
from workers.local import LocalWorkers
from workers.luck import lucky_pair


@pytest.fixture
def workers(redis_url, queue):
    """Two real RQ workers, in processes of their own, on the test's queue."""
    pool = LocalWorkers(redis_url, queue.name, 2).start()
    wait_for(lambda: len(Worker.all(queue=queue)) == 2, "two rq workers to register")
    yield pool
    pool.stop()


def check_played_by_workers(queue, workers: LocalWorkers) -> None:
    """Some job finished, and every finished job was run by one of the rq worker processes."""
    names = {queue.fetch_job(j).worker_name for j in FinishedJobRegistry(queue=queue).get_job_ids()}
    assert names and names <= set(workers.procs), "chunks are played by the rq worker processes"


def in_process(store: Store, tid: str, deals: DealSet) -> dict[str, list[dict[str, Any]]]:
    """Every match of ``tid`` replayed here, as the board-pair records the store should
    hold (the luck of the draw included: it is a function of the rooms alone)."""
    out = {}
    for mid in store.match_ids(tid):
        m = store.match(mid)
        rules = make_ruleset(m["ruleset"], m["options"])
        boards = [(n, deals.board(n)) for n in range(m["first"], m["last"] + 1)]
        records = play_match(rules, boards, make_bot(m["x"], m["seed"]), make_bot(m["y"], m["seed"]), mid)
        by_number = dict(boards)
        out[mid] = json.loads(json.dumps([lucky_pair(rules, by_number[r["board"]], r) for r in records]))
    return out


def stored(store: Store, tid: str) -> dict[str, list[dict[str, Any] | None]]:
    """Every board-pair record of ``tid`` as stored, by match, in board order."""
    return {
        mid: [store.pair(mid, n) for n in range(store.match(mid)["first"], store.match(mid)["last"] + 1)]
        for mid in store.match_ids(tid)
    }


def kill_a_busy_worker(store: Store, queue, workers: LocalWorkers, tid: str, at: int = 4) -> None:
    """Once ``tid`` has stored ``at`` boards and a job is running, SIGKILL its worker in
    the middle of the job (the worker and its work horse), as a crash would."""

    def busy() -> list:
        jobs = [queue.fetch_job(j) for j in StartedJobRegistry(queue=queue).get_job_ids(cleanup=False)]
        return [job for job in jobs if job is not None and job.worker_name in workers.procs]

    # A loaded machine (CI beside other work) has taken over 30 s to store four boards of six rooms: longer
    # than the lease, so the wait renews it as the driver would, and lasts while boards are being stored.
    wait_for(
        lambda: store.tournament(tid)["pairs_done"] >= at and busy(),
        "the match to start",
        progress=tournament_progress(store, tid, cli_driver()),
    )
    victim = busy()[0].worker_name
    proc = workers.procs[victim]
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=10)
