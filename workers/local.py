"""Processes a command runs on this machine: a group of children that live and die with it.

Every child a ``cinch`` command starts (gunicorn, RQ workers, anything added later) goes
through ``ProcessGroup.spawn``, which gives it three properties:

* its own session: a Ctrl-C at the terminal reaches only the ``cinch`` command, which
  then stops its children itself, in order, with data saved;
* ``PR_SET_PDEATHSIG`` = SIGTERM (Linux): if the command is SIGKILLed, the kernel sends
  its children SIGTERM and they stop by themselves. (The signal follows the *thread* that
  spawned the child, so spawn from the main thread.);
* no inherited file descriptors (the default ``close_fds``), so no child keeps the
  embedded Redis's lock files (see ``workers.embedded``) alive.

``stop()`` sends SIGTERM to every child, waits up to ``grace`` seconds, then SIGKILLs what
is left together with its process group (gunicorn's own workers, say). Our RQ workers stop
within a few seconds of SIGTERM even in the middle of a job (``workers.worker``).
"""

from __future__ import annotations

import ctypes
import os
import secrets
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rq import Queue, Worker

GRACE = 8.0  # seconds a child gets after SIGTERM: gunicorn's graceful timeout (5 s) fits


def die_with_parent() -> Callable[[], None] | None:
    """A ``preexec_fn`` that sets PR_SET_PDEATHSIG to SIGTERM in the child (Linux; None elsewhere)."""
    if not sys.platform.startswith("linux"):
        return None
    prctl = ctypes.CDLL(None, use_errno=True).prctl  # looked up before the fork, not in the child
    parent = os.getpid()

    def preexec() -> None:
        prctl(1, signal.SIGTERM)  # 1 = PR_SET_PDEATHSIG
        if os.getppid() != parent:  # the parent died before the line above
            os._exit(1)

    return preexec


@contextmanager
def signals_deferred() -> Iterator[None]:
    """Ignore SIGINT and SIGTERM for the duration: clean-up is bounded and must not be cut short.

    A second Ctrl-C while children are being stopped would otherwise leave some running.
    Only the main thread can change handlers; elsewhere this does nothing.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    saved = {sig: signal.signal(sig, signal.SIG_IGN) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, handler in saved.items():
            signal.signal(sig, handler)


class ProcessGroup:
    """Child processes by name, started and stopped as described in the module docstring."""

    def __init__(self, grace: float = GRACE):
        self.grace = grace
        self.procs: dict[str, subprocess.Popen] = {}

    def __enter__(self) -> ProcessGroup:
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    def spawn(self, name: str, command: list[str], **popen) -> subprocess.Popen:
        """Start ``command`` as the child ``name`` (``popen``: env, stdout, ... for ``subprocess.Popen``)."""
        popen.setdefault("stdin", subprocess.DEVNULL)
        proc = subprocess.Popen(command, start_new_session=True, preexec_fn=die_with_parent(), **popen)
        self.procs[name] = proc
        return proc

    def exited(self) -> dict[str, int]:
        """Children that have exited, with their exit status; they leave the group."""
        done = {name: proc.returncode for name, proc in self.procs.items() if proc.poll() is not None}
        for name in done:
            del self.procs[name]
        return done

    def stop(self) -> None:
        """SIGTERM to every child, up to ``grace`` seconds to exit, then SIGKILL to each one's group."""
        with signals_deferred():
            for proc in self.procs.values():
                if proc.poll() is None:
                    proc.terminate()
            deadline = time.monotonic() + self.grace
            for proc in self.procs.values():
                try:
                    proc.wait(timeout=max(0.0, deadline - time.monotonic()))
                except subprocess.TimeoutExpired:
                    try:
                        os.killpg(proc.pid, signal.SIGKILL)
                    except ProcessLookupError:
                        proc.kill()
                    proc.wait()
            self.procs.clear()


def worker_command(url: str, queue: str, name: str, logging_level: str = "WARNING") -> list[str]:
    """The command line of one arena worker (``workers.worker``): a command's own workers
    log warnings only (a job's start and end would interleave with its progress bars)."""
    return [
        sys.executable, "-m", "workers.worker", "--url", url, "--queue", queue, "--name", name,
        "--logging-level", logging_level,
    ]  # fmt: skip


class LocalWorkers(ProcessGroup):
    """A set of arena worker processes on this machine, kept at strength."""

    def __init__(
        self,
        url: str,
        queue: str,
        count: int,
        grace: float = GRACE,
        env: dict[str, str] | None = None,
        logging_level: str = "WARNING",
    ):
        super().__init__(grace)
        self.url, self.queue, self.count, self.env, self.level = url, queue, count, env, logging_level
        self._started = 0
        self._tag = secrets.token_hex(3)  # worker names must be unique in Redis

    def _spawn(self) -> None:
        self._started += 1
        name = f"cinch-{os.getpid()}-{self._tag}-{self._started}"
        self.spawn(
            name, worker_command(self.url, self.queue, name, self.level), stdout=subprocess.DEVNULL, env=self.env
        )

    def start(self) -> LocalWorkers:
        while len(self.procs) < self.count:
            self._spawn()
        return self

    def __enter__(self) -> LocalWorkers:
        return self.start()

    def replace_dead(self) -> list[str]:
        """Restart workers that died; returns the names of the dead ones."""
        dead = list(self.exited())
        for _ in dead:
            self._spawn()
        return dead


def live_workers(queue: Queue) -> int:
    return len(Worker.all(queue=queue))
