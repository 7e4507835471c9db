"""Test helpers for the SDK suite: a restartable API server, bot processes, the CLI command.

The server is gunicorn in its own process group (as in tests/server/web/api/conftest.py),
so a test can SIGKILL the whole group and start it again on the same port.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import requests

import sdk
from server.cli.serve_cmd import gunicorn_command
from server.engine.games.cinch_hand import IllegalAction as ServerIllegal
from server.engine.hand import IllegalAction as ServerIllegal
from server.engine.legality import check as server_check
from support.waiting import STALL

ROOT = Path(__file__).resolve().parents[2]
ADMIN = "sdk-test-admin-token"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ApiServer:
    """``gunicorn server.web.wsgi:app`` on a fixed port, startable again after a kill."""

    def __init__(self, redis_url: str, prefix: str, queue: str, log_dir: Path):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = {
            **os.environ,
            "REDIS_URL": redis_url,
            "CINCH_PREFIX": prefix,
            "CINCH_QUEUE": queue,
            "CINCH_ADMIN_TOKEN": ADMIN,
        }
        self.log_dir = log_dir
        self.proc: subprocess.Popen | None = None
        self.starts = 0

    def start(self, timeout: float = STALL) -> ApiServer:
        self.starts += 1
        log = open(self.log_dir / f"gunicorn-{self.starts}.log", "wb")
        self.proc = subprocess.Popen(
            gunicorn_command(f"127.0.0.1:{self.port}", graceful=2),
            env=self.env,
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=log,
            start_new_session=True,
        )
        deadline = time.monotonic() + timeout
        while True:
            try:
                if requests.get(f"{self.url}/api/v1/ready", timeout=2).status_code == 200:
                    return self
            except requests.RequestException:
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.kill()
                raise RuntimeError(f"API server did not start: {self.log()[-2000:]}")
            time.sleep(0.1)

    def log(self) -> str:
        return (self.log_dir / f"gunicorn-{self.starts}.log").read_text(errors="replace")

    def kill(self) -> None:
        """SIGKILL the master and its workers at once: a crash, not a shutdown."""
        if self.proc is None:
            return
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.proc.wait(timeout=10)
        self.proc = None

    def stop(self) -> None:
        """At the end of a test: nothing to save, so no graceful wait for open long-polls."""
        self.kill()


def cinch_command() -> list[str]:
    """``cinch`` as a subprocess: the full CLI once sdk_cmd is wired in, else sdk_cmd alone."""
    import server.cli

    if any(m.__name__.endswith(".sdk_cmd") for m in getattr(server.cli, "SUBCOMMANDS", ())):
        return [sys.executable, "-m", "server.cli"]
    return [sys.executable, "-m", "server.cli.sdk_cmd"]


def run_cli(*args: str, timeout: float = 60, without: tuple[str, ...] = ()) -> subprocess.CompletedProcess:
    """``cinch ARGS`` in the checkout, its environment less the variables ``without``."""
    env = {k: v for k, v in os.environ.items() if k not in without}
    return subprocess.run(
        [*cinch_command(), *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**env, "PYTHONUNBUFFERED": "1"},
    )


class BotProcess:
    """An SDK bot in its own process, its log in a file."""

    def __init__(self, name: str, command: list[str], log_dir: Path, env: dict[str, str] | None = None):
        self.name = name
        self.log_path = log_dir / f"bot-{name}.log"
        self._log = open(self.log_path, "wb")
        self.proc = subprocess.Popen(
            command,
            cwd=ROOT,
            stdin=subprocess.DEVNULL,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            env={**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})},
            start_new_session=True,
        )

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def wait_for_log(self, text: str, timeout: float = STALL) -> None:
        deadline = time.monotonic() + timeout
        while text not in self.log():
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"bot {self.name} never logged {text!r}:\n{self.log()[-3000:]}")
            time.sleep(0.05)

    def interrupt(self, timeout: float = 15) -> int:
        """Ctrl-C, as a user would stop it; returns the exit status."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
        try:
            return self.proc.wait(timeout=timeout)
        finally:
            self._log.close()

    def kill(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)
        self._log.close()


def check_legality_agrees(candidates, raw: dict) -> int:
    """Assert the SDK's legality check agrees with the server's on each of ``candidates``
    against the observation ``raw`` (its legal list and seat); returns how many were checked."""
    checked = 0
    for candidate in candidates:
        try:
            server_check(candidate, raw["legal"], raw["seat"])
            expected = True
        except ServerIllegal:
            expected = False
        assert sdk.is_legal(candidate, raw["legal"], raw["seat"]) is expected, (candidate, raw["legal"])
        checked += 1
    return checked
