"""Jobs' heartbeat: it must outlive a Redis outage, or the supervisor would take a
running job for dead and hand its boards to another (seen when Redis was restarted
under a ``cinch tournament``: the heartbeat thread died on the worker's RedisLost)."""

import threading
import time

from server.arena import dealsets, registry
from server.arena.tournaments import plan_matches, validate
from workers import jobs
from workers.bots import BUILTIN


class RedisLost(SystemExit):
    """What a worker run as ``python -m workers.worker`` raises: ``__main__.RedisLost``,
    not the class ``workers.worker`` defines, so only its SystemExit base can catch it."""


class FlakyStore:
    """Raises a RedisLost on the first beats, as during a Redis restart."""

    def __init__(self, failures):
        self.failures, self.beats = failures, 0
        self.lock = threading.Lock()

    def job_alive(self, job_id, ttl_ms):
        pass

    def job_key(self, job_id):
        return f"job:{job_id}"

    def keep(self, holder, keys, ttl_ms):
        with self.lock:
            self.beats += 1
            if self.beats <= self.failures:
                raise RedisLost("ConnectionError: Connection refused")


def test_the_heartbeat_beats_on_after_redis_comes_back(monkeypatch):
    monkeypatch.setattr(jobs, "HEARTBEAT_SECONDS", 0.01)
    store = FlakyStore(failures=3)
    with jobs.Heartbeat(store, "j1") as beat:
        deadline = time.monotonic() + 5
        while store.beats < 6 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert beat._thread.is_alive() and store.beats >= 6
    assert not beat._thread.is_alive()


def test_closing_during_an_outage_leaves_the_claims_to_expire(monkeypatch):
    monkeypatch.setattr(jobs, "HEARTBEAT_SECONDS", 60)
    store = FlakyStore(failures=10)
    with jobs.Heartbeat(store, "j2"):
        pass  # the closing keep() meets RedisLost: no error
    assert store.beats == 1


def test_a_job_notices_between_rooms_that_its_tournament_was_cancelled(store, monkeypatch):
    monkeypatch.setattr(jobs.Halted, "LIVE_CHECK_SECONDS", 0.05)
    deals = dealsets.generate("halted", 2)
    spec = validate({"bots": ["random", "rule"], "boards": 2, "deals": deals.name}, registry.builtin_roster(BUILTIN))
    store.put_dealset(deals)
    tid = store.create_tournament(spec, plan_matches(spec), "test", 60_000)
    worker_stopping = []
    halted = jobs.Halted(store, tid, lambda: bool(worker_stopping))
    assert not halted() and store.is_live(tid)
    store.stop_tournament(tid, "cancelled")
    time.sleep(0.1)
    assert halted() and not store.is_live(tid)
    assert jobs.Halted(store, tid, lambda: True)(), "a stopping worker halts at once"
