"""The arena's RQ worker: ``python -m workers.worker --url URL --queue Q --name N``.

An RQ ``SimpleWorker`` (jobs run in the worker process: the forking worker re-imported
our modules for every job and measured slower) with the JSON serializer. ``cinch worker``,
the local workers of every command and docker-compose all run this. It differs from
``rq worker`` in three ways:

* **It outlives Redis.** rq's work loop quits on any Redis error outside its dequeue
  ("found an unhandled exception, quitting"), so a Redis restart used to end every worker.
  Here every Redis call that fails for want of a connection, the worker's own and those of
  the jobs it runs (they share its connection), raises ``RedisLost``, a ``SystemExit``
  that rq lets through. ``run()`` then logs one line, waits with backoff until Redis
  answers, registers the lost worker's death and works again under the same name.
* **It stops promptly.** On SIGINT or SIGTERM ``stopping()`` turns True at once (jobs
  check it between boards and return early). An idle worker stops at once; a busy one
  gives its job ``GRACE`` seconds, then interrupts it with ``Interrupted``: rq records the
  job as failed and its retry re-queues it, which is safe because board pairs are stored
  idempotently. A second signal interrupts at once.
* **No pubsub command channel** (rq's ``send_shutdown_command`` and friends): the arena
  stops workers with signals, and that channel's thread retries and logs forever once
  Redis is gone.
* **Its RQ registration says whether it is alive.** rq renews a worker's key only between
  jobs and gives it the job's timeout (a day here) while one runs, so a SIGKILLed worker
  stays listed for a day. Here a helper thread renews the key every ``HEARTBEAT_SECONDS``
  with a life of ``CLAIM_MS``, idle or busy: ``rq.Worker.all`` lists exactly the workers
  alive in the last ``CLAIM_MS``, and with each its current job, which is how the
  supervisor tells a job that is slow to start from one whose worker is gone.
"""

from __future__ import annotations

import argparse
import functools
import os
import signal
import socket
import threading
import time

from redis import Redis
from redis.client import Pipeline
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from rq import worker_registration
from rq.exceptions import StopRequested
from rq.serializers import JSONSerializer
from rq.worker import SimpleWorker, WorkerStatus

from server import logs
from server.arena.settings import CLAIM_MS, HEARTBEAT_SECONDS
from server.config import Config, masked
from workers import monitor

GRACE = 2.0  # seconds a running job gets after a stop signal
RECONNECT_MAX = 8.0  # longest wait between two attempts to reach a lost Redis

log = logs.logger("worker")
_stopping = False
_current: ArenaWorker | None = None  # the worker in its work loop, if any
_liveness = monitor.Liveness()  # its beats, for --metrics-port's /health and systemd's watchdog


def stopping() -> bool:
    """True once this process received SIGINT or SIGTERM: a job should return early."""
    return _stopping


class RedisLost(SystemExit):
    """Redis went away: rq's work loop lets a SystemExit through, where it logs and quits on others."""


class Interrupted(BaseException):
    """Raised in a job still running ``GRACE`` seconds after a stop signal (past ``except Exception``)."""


def was_interrupted(error: str) -> bool:
    """Whether a failed job's last error line is an ``Interrupted`` (named with or without
    its module, which is ``__main__`` when the worker runs as ``python -m workers.worker``):
    the job was cut short by its worker's stop, not broken."""
    return error.split(":", 1)[0].rsplit(".", 1)[-1] == "Interrupted" and "stop signal" in error


def _lost_when_disconnected(method):
    @functools.wraps(method)
    def call(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except (RedisConnectionError, RedisTimeoutError) as exc:
            raise RedisLost(f"{type(exc).__name__}: {exc}") from exc

    return call


class _Pipeline(Pipeline):
    execute_command = _lost_when_disconnected(Pipeline.execute_command)
    execute = _lost_when_disconnected(Pipeline.execute)


class WorkerRedis(Redis):
    """A client whose lost connections raise ``RedisLost`` (pipelines and scripts included)."""

    execute_command = _lost_when_disconnected(Redis.execute_command)

    def pipeline(self, transaction: bool = True, shard_hint=None) -> Pipeline:
        return _Pipeline(self.connection_pool, self.response_callbacks, transaction, shard_hint)


class ArenaWorker(SimpleWorker):
    """rq's SimpleWorker without its signal handlers and pubsub channel, registered only
    while its beat runs (see the module docstring); ``run()`` drives it."""

    LIFE_SECONDS = CLAIM_MS // 1000

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._dead = threading.Event()
        self._beat_thread = threading.Thread(target=self._beat, name=f"rq-heartbeat-{self.name}", daemon=True)

    def heartbeat(self, timeout: int | None = None, pipeline: Pipeline | None = None) -> None:
        """Every heartbeat of rq's, and the beat's, gives the worker ``CLAIM_MS`` to live."""
        super().heartbeat(self.LIFE_SECONDS, pipeline)

    def register_birth(self) -> None:
        super().register_birth()
        self.heartbeat()
        _liveness.beat(reached_redis=True)
        self._beat_thread.start()

    def _beat(self) -> None:
        """Renew the worker's key; re-register it too, in case it lapsed while the process
        was frozen and a reader of the registry dropped it."""
        while not self._dead.wait(HEARTBEAT_SECONDS):
            try:
                with self.connection.pipeline() as pipeline:
                    worker_registration.register(self, pipeline)
                    self.heartbeat(pipeline=pipeline)
                    pipeline.execute()
                _liveness.beat(reached_redis=True)
            except (Exception, SystemExit):  # Redis away for a moment (RedisLost: see Heartbeat in workers.jobs)
                _liveness.beat(reached_redis=False)

    def stop_beating(self) -> None:
        self._dead.set()
        if self._beat_thread.is_alive():
            self._beat_thread.join(timeout=1.0)

    def register_death(self) -> None:
        self.stop_beating()  # else the beat would register the dead worker again
        super().register_death()

    def _install_signal_handlers(self) -> None:
        """Nothing: ``run()`` installs the handlers once, for the worker's whole life."""

    def subscribe(self) -> None:
        """Nothing: no pubsub command channel (see the module docstring)."""

    def unsubscribe(self) -> None:
        """Nothing: no pubsub command channel (see the module docstring)."""

    def execute_job(self, job, queue) -> None:
        """Run the job with its ids on every line logged meanwhile, rq's own included."""
        fields = {"job": job.id}
        if job.func_name.endswith("play_chunk") and len(job.args) == 4:
            fields["match"] = job.args[1]  # (prefix, match, first, last)
            if job.meta.get("tournament"):  # enqueued by this version (workers.jobs.enqueue_chunks)
                fields["tournament"] = job.meta["tournament"]
        with logs.context(**fields):
            super().execute_job(job, queue)

    def handle_exception(self, job, *exc_info) -> None:
        """A job interrupted by a stop is expected: one line instead of rq's traceback."""
        if isinstance(exc_info[1], Interrupted):
            self.log.warning("Worker %s: job %s interrupted (%s); it will be re-run", self.name, job.id, exc_info[1])
        else:
            super().handle_exception(job, *exc_info)


def _on_stop_signal(signum, frame) -> None:
    global _stopping
    again, _stopping = _stopping, True
    worker = _current
    if worker is None:  # waiting for Redis: run()'s loop sees stopping()
        return
    if worker.get_state() != WorkerStatus.BUSY:
        raise StopRequested()
    worker._stop_requested = True  # rq's loop ends after this job
    if again:
        raise Interrupted("a second stop signal")
    timer = threading.Timer(GRACE, os.kill, (os.getpid(), signal.SIGUSR1))
    timer.daemon = True  # a worker whose job ended in time does not wait for it
    timer.start()


def _on_grace_over(signum, frame) -> None:
    worker = _current
    if worker is not None and worker.get_state() == WorkerStatus.BUSY:
        raise Interrupted(f"still running {GRACE:g} s after a stop signal")


def _wait_for(redis: Redis) -> None:
    """Until ``redis`` answers or a stop signal came, with backoff."""
    delay = 0.25
    while not _stopping:
        _liveness.beat(reached_redis=False)  # alive, waiting: /health stays 200, /ready 503
        try:
            redis.ping()
            return
        except RedisLost:
            pass
        deadline = time.monotonic() + delay
        while not _stopping and time.monotonic() < deadline:
            time.sleep(0.05)
        delay = min(2 * delay, RECONNECT_MAX)


def run(url: str, queue: str, name: str, logging_level: str = "WARNING") -> int:
    """Work on ``queue`` until SIGINT or SIGTERM; 0 when stopped, 1 if rq quit on its own."""
    global _current
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, _on_stop_signal)
    signal.signal(signal.SIGUSR1, _on_grace_over)
    where = masked(url)  # no password in the logs
    lost: ArenaWorker | None = None
    while not _stopping:
        connection = WorkerRedis.from_url(url)
        worker = None
        try:
            if lost is not None:
                lost.register_death()  # frees its name, which the next worker takes
                log.warning("worker %s: Redis at %s is back", name, where)
                lost = None
            worker = ArenaWorker([queue], connection=connection, name=name, serializer=JSONSerializer)
            _current = worker
            worker.work(logging_level=logging_level)
            return 0 if _stopping else 1
        except RedisLost as exc:
            _current = None
            lost = worker or lost
            log.warning("worker %s: lost Redis at %s (%s); reconnecting", name, where, exc)
            _wait_for(connection)
        except StopRequested:  # a signal while the worker was registering or tearing down
            break
        finally:
            if worker is not None:
                worker.stop_beating()  # a lost worker's registration lapses: it runs nothing now
            _current = None
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m workers.worker", description=__doc__.splitlines()[0])
    parser.add_argument("--url", required=True, help="Redis URL")
    parser.add_argument("--queue", required=True)
    parser.add_argument(
        "--name",
        default=f"{socket.gethostname()}-{os.getpid()}",
        help="unique worker name (default: host and process id)",
    )
    parser.add_argument("--logging-level", default="WARNING", help="rq's lines and the arena's (cinch.*)")
    monitor.add_arguments(parser)
    args = parser.parse_args(argv)
    config = Config.from_env()
    logs.configure(config.log_format, args.logging_level)
    try:
        monitor.start("worker", _liveness, args.metrics_host, args.metrics_port, config.admin_token, config.metrics_dir)
    except monitor.MonitorError as exc:
        parser.error(str(exc))
    return run(args.url, args.queue, args.name, args.logging_level)


if __name__ == "__main__":
    raise SystemExit(main())
