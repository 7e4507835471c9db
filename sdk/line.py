"""The line protocol: a bot in any language as a child process, one JSON object a line.

The program reads one decision per line on its standard input (the object a remote bot
gets from ``GET /api/v1/decisions/next``: ``id``, ``observation``, ``legal``,
``deadline``, ``deadline_in_ms``) and writes one action per line on its standard output
(the body a remote bot posts). The arena plays such a program as a ``cmd:COMMAND``
entrant (``workers.cmd_bot``) and ``cinch bot run --cmd COMMAND`` connects it to a
server (``LineBot``); both drive it through ``LineProgram``, so the protocol has one
implementation and a program behaves the same in either place (docs/line-protocol.md).

Why a child process kept for many decisions and restarted after a fault: starting an
interpreter for each decision would cost most of a decision's time, and after silence
or garbage nobody knows which line would answer which decision, so only a fresh
process is in step again. The child runs in a session of its own, so that killing it
also kills whatever it started (a shell's children, ``npm start``'s node), and without
the ``CINCH_*`` and ``REDIS_*`` variables: a bot needs no token, and a Redis address
would let it read what its seat may not see.
"""

from __future__ import annotations

import json
import os
import selectors
import shlex
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from sdk.bot import Bot
from sdk.errors import SdkError
from sdk.models import Decision
from sdk.observation import Action

MAX_LINE = 1 << 20
"""The longest answer read (bytes): a program that writes without a newline is cut off here."""
EXIT_GRACE = 0.5
"""Seconds a program gets to exit by itself once its input is closed, before it is killed."""
HIDDEN_ENV = ("CINCH_", "REDIS_")
"""Environment variables the child never gets (see the module docstring)."""


class LineError(SdkError):
    """The program gave no usable answer: it crashed, wrote garbage or was silent. The
    message says which; the program is stopped and the next question starts it again."""


class LineTimeout(LineError):
    """The program was silent until the deadline."""


def parse_command(command: str, cwd: str | None = None) -> list[str]:
    """The argument list of ``command`` (shell-like quoting, no shell), after checking that
    its program exists; LineError saying what is wrong. A relative program path (``./bot``)
    is taken from ``cwd``; a bare name is looked up on ``PATH``."""
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        raise LineError(f"command {command!r}: {exc}") from None
    if not argv:
        raise LineError("the command is empty: give the program to run, as in cmd:python3 my_bot.py")
    program = argv[0]
    if os.sep in program:
        path = Path(cwd or os.getcwd(), program)
        if not path.is_file() or not os.access(path, os.X_OK):
            raise LineError(f"command {command!r}: {path} is not an executable file")
    elif shutil.which(program) is None:
        raise LineError(f"command {command!r}: no program {program!r} on PATH")
    return argv


def child_environment(environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment a line program runs with: ours, without ``HIDDEN_ENV``."""
    return {k: v for k, v in (os.environ if environ is None else environ).items() if not k.startswith(HIDDEN_ENV)}


class LineProgram:
    """One child process speaking the line protocol, started on the first question.

    ``ask`` is not thread-safe: one caller at a time (``LineBot`` holds a lock).
    ``preexec_fn`` is passed to ``subprocess.Popen`` (the arena's workers make the child
    die with them).
    """

    def __init__(
        self,
        argv: list[str],
        cwd: str | None = None,
        preexec_fn: Callable[[], None] | None = None,
    ):
        self.argv, self.cwd, self.preexec_fn = argv, cwd, preexec_fn
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0
        self._buffer = b""

    @property
    def pid(self) -> int | None:
        return None if self.proc is None else self.proc.pid

    def _start(self) -> subprocess.Popen[bytes]:
        try:
            proc = subprocess.Popen(
                self.argv,
                cwd=self.cwd,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=None,  # not read: it goes where ours goes, for the author's debugging
                env=child_environment(),
                start_new_session=True,
                preexec_fn=self.preexec_fn,
            )
        except OSError as exc:
            raise LineError(f"cannot start {shlex.join(self.argv)}: {exc.strerror or exc}") from None
        assert proc.stdout is not None
        os.set_blocking(proc.stdout.fileno(), False)
        self.proc, self._buffer = proc, b""
        self.starts += 1
        return proc

    def ask(self, message: dict[str, Any], timeout: float) -> dict[str, Any]:
        """Write ``message`` as one line and return the object of the next non-blank line
        the program writes within ``timeout`` seconds. Lines it wrote before the question
        are dropped (they answer nothing). LineError (LineTimeout for silence) on any
        other outcome, after stopping the program."""
        proc = self.proc if self.proc is not None and self.proc.poll() is None else None
        if proc is None:
            self.close()  # a program that exited between questions is reaped before its successor
            proc = self._start()
        assert proc.stdin is not None and proc.stdout is not None
        self._drain(proc)
        self._buffer = b""
        try:
            proc.stdin.write(json.dumps(message, separators=(",", ":")).encode() + b"\n")
            proc.stdin.flush()
        except OSError:
            raise self._fail(f"exited before reading its input ({self._status()})") from None
        line = self._read_line(proc, time.monotonic() + timeout, timeout)
        try:
            answer = json.loads(line.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            raise self._fail(f"wrote a line that is not JSON: {_shown(line)}") from None
        if not isinstance(answer, dict):
            raise self._fail(f"wrote {type(answer).__name__} {_shown(line)}, not a JSON object")
        return answer

    def _read_line(self, proc: subprocess.Popen[bytes], deadline: float, timeout: float) -> bytes:
        assert proc.stdout is not None
        with selectors.DefaultSelector() as sel:
            sel.register(proc.stdout, selectors.EVENT_READ)
            while True:
                while b"\n" in self._buffer:
                    line, self._buffer = self._buffer.split(b"\n", 1)
                    if line.strip():
                        return line.strip()
                if len(self._buffer) > MAX_LINE:
                    raise self._fail(f"wrote more than {MAX_LINE} bytes without a newline")
                left = deadline - time.monotonic()
                if left <= 0:
                    raise self._fail(f"did not answer within {timeout:g} s", LineTimeout)
                if not sel.select(left):
                    continue
                chunk = self._read(proc)
                if chunk == b"":
                    try:  # its exit status says why
                        proc.wait(timeout=EXIT_GRACE)
                    except subprocess.TimeoutExpired:
                        pass
                    raise self._fail(f"closed its output without answering ({self._status()})")
                self._buffer += chunk or b""

    @staticmethod
    def _read(proc: subprocess.Popen[bytes]) -> bytes | None:
        """What the pipe holds now; b"" at its end, None when empty for the moment."""
        assert proc.stdout is not None
        try:
            return os.read(proc.stdout.fileno(), 65536)
        except BlockingIOError:
            return None

    def _drain(self, proc: subprocess.Popen[bytes]) -> None:
        while self._read(proc):
            pass

    def _status(self) -> str:
        code = None if self.proc is None else self.proc.poll()
        if code is None:
            return "still running"
        if code < 0:
            return f"killed by {signal.Signals(-code).name}"
        return f"exit status {code}"

    def _fail(self, why: str, error: type[LineError] = LineError) -> LineError:
        """The error to raise, after stopping the program: the next question starts afresh."""
        self.close()
        return error(f"{shlex.join(self.argv)} {why}")

    def close(self) -> None:
        """Stop the program (and everything in its session) and reap it: closing its input
        first lets a well-behaved program end by itself."""
        proc, self.proc = self.proc, None
        if proc is None:
            return
        for pipe in (proc.stdin, proc.stdout):
            try:
                if pipe is not None:
                    pipe.close()
            except OSError:
                pass
        try:
            proc.wait(timeout=EXIT_GRACE if proc.poll() is None else 0)
        except subprocess.TimeoutExpired:
            pass
        try:
            os.killpg(proc.pid, signal.SIGKILL)  # the session's leader is gone or going: its group too
        except (ProcessLookupError, PermissionError):
            pass
        proc.wait()


def _shown(line: bytes) -> str:
    text = line.decode("utf-8", "replace")
    return repr(text if len(text) <= 60 else text[:57] + "...")


class LineBot(Bot):
    """A line program served through the runner (``cinch bot run --cmd COMMAND``): each
    decision as the server sent it goes to the program, whose reply is posted as the
    action. Decisions are put to the program one at a time (the runner answers several
    at once), each with the time its deadline leaves, at least ``min_seconds``."""

    def __init__(self, command: str, cwd: str | None = None, min_seconds: float = 0.5):
        super().__init__()
        self.name = command
        self.program = LineProgram(parse_command(command, cwd), cwd)
        self.min_seconds = min_seconds
        self._lock = threading.Lock()

    def respond(self, decision: Decision) -> Action:
        with self._lock:
            message = {
                "id": decision.id,
                "observation": dict(decision.observation),
                "legal": decision.legal,
                "deadline": decision.deadline,
                "deadline_in_ms": max(0, int(decision.seconds_left() * 1000)),
            }
            return self.program.ask(message, max(decision.seconds_left(), self.min_seconds))

    def close(self) -> None:
        with self._lock:
            self.program.close()
