"""The arena's worker process and the embedded Redis's ownership, with real processes.

A worker outlives a Redis restart and stops within seconds of SIGTERM even in a long
job; embedded Redis users on one home share one server, the last one stops it, and
files left by a crash do not stop the next start.
"""

import os
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest
from redis import Redis
from rq import Queue, Worker
from rq.serializers import JSONSerializer

from workers.embedded import EmbeddedRedis, server_binary

pytestmark = pytest.mark.e2e


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(predicate, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.1)


class TcpRedis:
    """A throw-away redis-server on a free port, in a directory of the test's own."""

    def __init__(self, directory: Path):
        self.port, self.directory = free_port(), directory
        self.proc: subprocess.Popen | None = None

    def start(self) -> "TcpRedis":
        self.proc = subprocess.Popen(
            [
                server_binary(),
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--dir",
                str(self.directory),
                "--save",
                "",
            ],
            stdout=subprocess.DEVNULL,
        )
        wait_for(self.answers, 10, "redis-server")
        return self

    def answers(self) -> bool:
        try:
            return Redis(port=self.port, socket_timeout=1).ping()
        except Exception:
            return False

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=10)

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"


@pytest.fixture
def tcp_redis(tmp_path):
    server = TcpRedis(tmp_path).start()
    yield server
    server.stop()


def start_worker(url: str, queue: str, name: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "workers.worker", "--url", url, "--queue", queue, "--name", name],
        stderr=subprocess.PIPE,
        text=True,
    )


def test_a_worker_waits_for_a_restarted_redis_and_works_again(tcp_redis):
    worker = start_worker(tcp_redis.url, "q", "survivor")
    try:
        queue = Queue("q", connection=Redis.from_url(tcp_redis.url), serializer=JSONSerializer)
        wait_for(lambda: Worker.all(queue=queue), 30, "the worker to register")
        tcp_redis.stop()
        time.sleep(1)
        tcp_redis.start()
        job = Queue("q", connection=Redis.from_url(tcp_redis.url), serializer=JSONSerializer).enqueue("math.sqrt", 16)
        wait_for(lambda: job.get_status(refresh=True) == "finished", 30, "the job to be done")
        assert job.latest_result().return_value == 4.0
        assert worker.poll() is None
    finally:
        worker.terminate()
        assert worker.wait(timeout=10) == 0
    log = worker.stderr.read()
    assert log.count("lost Redis") == 1 and "Traceback" not in log, log


def test_sigterm_stops_a_worker_in_a_long_job_within_seconds(tcp_redis):
    worker = start_worker(tcp_redis.url, "q", "sleeper")
    try:
        queue = Queue("q", connection=Redis.from_url(tcp_redis.url), serializer=JSONSerializer)
        job = queue.enqueue("time.sleep", 60)
        wait_for(lambda: job.get_status(refresh=True) == "started", 30, "the job to start")
    finally:
        began = time.monotonic()
        worker.terminate()
        status = worker.wait(timeout=20)
    assert status == 0 and time.monotonic() - began < 6
    assert job.get_status(refresh=True) == "failed"  # so that a retry or the supervisor re-runs it
    assert "interrupted" in worker.stderr.read()


def server_pid(home: Path) -> int:
    return int((home / "redis.pid").read_text())


def running(pid: int) -> bool:
    """Alive and not a zombie (the daemonized server is reaped by init, whenever it gets to it)."""
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def test_embedded_redis_users_share_one_server_and_the_last_one_stops_it(tmp_path):
    first, second = EmbeddedRedis(tmp_path), EmbeddedRedis(tmp_path)
    url = first.acquire()
    assert second.acquire() == url
    pid = server_pid(tmp_path)
    Redis.from_url(url).set("kept", "yes")
    assert first.release() is False
    assert Redis.from_url(url).ping()
    assert second.release() is True
    assert not running(pid)
    with EmbeddedRedis(tmp_path) as url:  # saved at shutdown, loaded again
        assert Redis.from_url(url).get("kept") == b"yes"


def test_files_left_by_a_crash_do_not_prevent_the_next_start(tmp_path):
    (tmp_path / "redis.sock").write_text("")  # a stale socket path
    (tmp_path / "redis.pid").write_text(str(os.getpid()))  # a live pid that is no redis-server
    with EmbeddedRedis(tmp_path) as url:
        assert Redis.from_url(url).ping()
    assert running(os.getpid())
