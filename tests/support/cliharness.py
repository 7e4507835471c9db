"""Running ``cinch`` commands as a user does, and finding every process they started.

Commands run without ``REDIS_URL`` on a ``CINCH_HOME`` of the test's own, so each test
has its own embedded Redis, found by its socket in that home.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import psutil
import requests

from support.waiting import STALL
from workers.embedded import socket_path


def cli_env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "CINCH_ADMIN_TOKEN")}
    env["CINCH_HOME"] = str(home)
    return env


def cinch(*args: str, home: Path, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "server.cli", *args], capture_output=True, text=True, timeout=timeout, env=cli_env(home)
    )


def start(*args: str, home: Path, **popen) -> subprocess.Popen:
    """A ``cinch`` command in its own session, so that the signals the test sends reach it alone."""
    popen.setdefault("stdout", subprocess.PIPE)
    popen.setdefault("stderr", subprocess.PIPE)
    return subprocess.Popen(
        [sys.executable, "-m", "server.cli", *args], text=True, env=cli_env(home), start_new_session=True, **popen
    )


def redis_servers(home: Path) -> list[psutil.Process]:
    """The redis-server processes serving ``home`` (daemonized: not anyone's child)."""
    sock = str(socket_path(Path(home).resolve()))
    found = []
    for proc in psutil.process_iter(["cmdline"]):
        line = " ".join(proc.info["cmdline"] or [])
        if "redis-server" in line and sock in line and running(proc):
            found.append(proc)
    return found


def processes_of(pid: int, home: Path) -> list[psutil.Process]:
    """A command, every process under it, and its home's redis-server."""
    root = psutil.Process(pid)
    return [root, *root.children(recursive=True), *redis_servers(home)]


def cmdline(proc: psutil.Process) -> str:
    """A process's command line, "" once it has gone or is a zombie (a process listed a
    moment ago may end before it is read)."""
    try:
        return " ".join(proc.cmdline())
    except (psutil.NoSuchProcess, psutil.ZombieProcess):
        return ""


def command_lines(procs: list[psutil.Process]) -> str:
    return "\n".join(cmdline(p) for p in procs if p.is_running())


def running(proc: psutil.Process) -> bool:
    """Alive and not a zombie: a daemonized redis-server is reaped by init, whenever init gets to it."""
    try:
        return proc.is_running() and proc.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def assert_all_gone(procs: list[psutil.Process], timeout: float = 15) -> None:
    deadline = time.monotonic() + timeout
    while (alive := [p for p in procs if running(p)]) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not alive, f"left running: {[cmdline(p) for p in alive]}"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_ready(base: str, timeout: float = STALL) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            if requests.get(f"{base}/ready", timeout=2).status_code == 200:
                return
        except (requests.ConnectionError, requests.Timeout):  # not up yet, or slow on a busy machine
            pass
        assert time.monotonic() < deadline, "cinch serve did not come up"
        time.sleep(0.2)
