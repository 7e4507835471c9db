"""A worker's or the supervisor's own endpoint: liveness, readiness and metrics, on any machine.

The API's ``GET /metrics`` adds up the processes of its own machine only (their files in
``PROMETHEUS_MULTIPROC_DIR``), and a worker elsewhere has no API beside it; nor can a
service manager tell from outside whether a worker's loop still turns. So ``--metrics-port
PORT`` (``cinch worker``, ``cinch supervisor``, ``python -m workers.worker`` or
``workers.supervisor``) serves, on ``--metrics-host`` (default ``127.0.0.1``):

* ``GET /health``: 200 while the process's loop beats (the worker's registration thread,
  the supervisor's pass), whether or not Redis answers: a worker waiting for Redis is
  alive, and restarting it would not bring Redis back; 503 once no beat came for
  ``LIVE_SECONDS``. No token: it says nothing but ``ok``.
* ``GET /ready``: 200 while the last beat reached Redis within ``CLAIM_MS`` (a worker is
  then listed in RQ's registry and takes jobs; the supervisor supervises), else 503.
* ``GET /metrics``: the Prometheus text of this process (or, with
  ``PROMETHEUS_MULTIPROC_DIR``, of every process writing there), with the admin's bearer
  token when ``CINCH_ADMIN_TOKEN`` is set in the process's environment, as the API's
  ``/metrics`` asks; one scrape config serves both. Listening on an address other than
  the loopback without that token is refused at start: the counts would be open to the
  network.

Under systemd (``Type=notify``, ``NOTIFY_SOCKET`` set) the process also says ``READY=1``
once it runs and ``WATCHDOG=1`` at every beat, so ``WatchdogSec=`` restarts a process
whose loop stopped (``deploy/systemd/``). ``cinch health worker|supervisor|api`` asks
these endpoints and exits 0 or 1, for a compose ``healthcheck`` or a probe.
"""

from __future__ import annotations

import hmac
import ipaddress
import json
import os
import socket
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any
from wsgiref.simple_server import WSGIRequestHandler, make_server

from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from prometheus_client.exposition import ThreadingWSGIServer

from server.arena.settings import CLAIM_MS
from server.metrics import scraped

LIVE_SECONDS = 3 * CLAIM_MS / 1000
"""A process whose loop has not beaten for this long is not alive. It beats every 2 to 5 s;
a supervisor's pass may wait up to 30 s on a Redis that hangs, which is Redis's trouble,
not a reason to restart the supervisor."""


def notify(message: str) -> None:
    """Tell systemd (``sd_notify``) when it asked to be told (``NOTIFY_SOCKET``); else nothing."""
    path = os.environ.get("NOTIFY_SOCKET")
    if not path:
        return
    address = "\0" + path[1:] if path.startswith("@") else path  # an abstract socket
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
            sock.sendto(message.encode(), address)
    except OSError:
        pass  # systemd gone: nothing to tell


class Liveness:
    """When the process's loop last beat, and when a beat last reached Redis."""

    def __init__(self, clock: Callable[[], float] = time.monotonic):
        self.clock = clock
        self._beat: float | None = None
        self._reached: float | None = None

    def beat(self, reached_redis: bool) -> None:
        now = self.clock()
        self._beat = now
        if reached_redis:
            self._reached = now
        notify("WATCHDOG=1")

    def alive(self) -> bool:
        return self._beat is not None and self.clock() - self._beat < LIVE_SECONDS

    def ready(self) -> bool:
        return self.alive() and self._reached is not None and self.clock() - self._reached < CLAIM_MS / 1000


class MonitorError(ValueError):
    """An endpoint this process may not open (its message says why)."""


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def app(role: str, liveness: Liveness, token: str | None, metrics_dir: Path | None) -> Callable[..., Iterable[bytes]]:
    """The endpoint's WSGI application (see the module docstring)."""

    def respond(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        path = environ.get("PATH_INFO", "")
        if path in ("/health", "/ready"):
            good = liveness.alive() if path == "/health" else liveness.ready()
            body = json.dumps({"role": role, "status": ("ok" if path == "/health" else "ready") if good else "down"})
            start_response("200 OK" if good else "503 Service Unavailable", [("Content-Type", "application/json")])
            return [body.encode()]
        if path != "/metrics":
            start_response("404 Not Found", [("Content-Type", "text/plain")])
            return [b"/health, /ready or /metrics\n"]
        if token is not None:
            scheme, _, given = environ.get("HTTP_AUTHORIZATION", "").partition(" ")
            if scheme.lower() != "bearer" or not hmac.compare_digest(given.strip().encode(), token.encode()):
                start_response("401 Unauthorized", [("Content-Type", "text/plain"), ("WWW-Authenticate", "Bearer")])
                return [b"the admin token is required (Authorization: Bearer <token>)\n"]
        start_response("200 OK", [("Content-Type", CONTENT_TYPE_LATEST)])
        return [generate_latest(scraped(metrics_dir))]

    return respond


def check_exposure(role: str, host: str, token: str | None) -> None:
    """``MonitorError`` for metrics that would be open to the network: an address other
    than the loopback needs the admin token."""
    if not token and not _loopback(host):
        raise MonitorError(
            f"--metrics-host {host} would show this {role}'s metrics to the network without a token: "
            "set CINCH_ADMIN_TOKEN (the API's admin token) in its environment, or listen on 127.0.0.1"
        )


class _Quiet(WSGIRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        """Nothing: a probe every few seconds is not worth a log line."""


class Monitor:
    """The endpoint, served by a daemon thread, and the process's liveness it reports."""

    def __init__(
        self, role: str, host: str, port: int, token: str | None, metrics_dir: Path | None, liveness: Liveness
    ):
        check_exposure(role, host, token)
        self.liveness = liveness
        try:
            self.server = make_server(
                host, port, app(role, liveness, token, metrics_dir), ThreadingWSGIServer, handler_class=_Quiet
            )
        except OSError as exc:
            raise MonitorError(f"cannot listen on {host}:{port} for the {role}'s metrics: {exc}") from None
        self.thread = threading.Thread(target=self.server.serve_forever, name=f"{role}-monitor", daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def start(
    role: str, liveness: Liveness, host: str, port: int | None, token: str | None, metrics_dir: Path | None
) -> None:
    """Serve the process's ``liveness`` on ``port``, if given (raises ``MonitorError``), and
    tell systemd the process is ready either way (a no-op outside systemd)."""
    if port is not None:
        Monitor(role, host, port, token, metrics_dir, liveness)
    notify("READY=1")


def add_arguments(parser: Any) -> None:
    """The endpoint's options, the same on every process that has one."""
    parser.add_argument(
        "--metrics-port", type=int, help="serve /health, /ready and /metrics on this port (see workers.monitor)"
    )
    parser.add_argument(
        "--metrics-host",
        default="127.0.0.1",
        help="address of that endpoint (default 127.0.0.1; another needs CINCH_ADMIN_TOKEN)",
    )
