"""Jobs' heartbeat: it must outlive a Redis outage, or the supervisor would take a
running job for dead and hand its boards to another (seen when Redis was restarted
under a ``cinch tournament``: the heartbeat thread died on the worker's RedisLost)."""

import threading
import time

from workers import jobs
from workers.worker import RedisLost


class FlakyStore:
    """Raises the worker's RedisLost on the first beats, as during a Redis restart."""

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
        pass                                  # the closing keep() meets RedisLost: no error
    assert store.beats == 1
