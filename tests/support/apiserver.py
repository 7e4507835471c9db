"""A real API server for tests: gunicorn in its own process, as ``cinch serve`` runs it,
on a real Redis. (A module of its own, not the conftest: test modules import these, and
more than one conftest.py is on the path.)"""

import os
import signal
import socket
import subprocess
import tempfile
import time

import pytest
import requests

from server.cli.serve_cmd import gunicorn_command
from support.apiclient import ADMIN, Api
from support.waiting import STALL


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_api(redis_url, store, processes=2, **env):
    """A gunicorn server as ``cinch serve`` runs it, ready; stop it with ``stop_api``.
    ``env`` adds to (or overrides) the server's environment. Failed authentications and
    registrations are not limited unless a test says so: tests of refusals and the
    schemathesis run make hundreds from one address (test_rate_limits tests the limits)."""
    port = free_port()
    env = {
        **os.environ,
        "REDIS_URL": redis_url,
        "CINCH_PREFIX": store.prefix,
        "CINCH_QUEUE": store.queue_name,
        "CINCH_ADMIN_TOKEN": ADMIN,
        "CINCH_LIMIT_FAILED_AUTH": "1000000/minute",
        "CINCH_LIMIT_REGISTRATIONS": "1000000/hour",
        **env,
    }
    log = tempfile.TemporaryFile()  # not a pipe: a server that logs much must never block on it
    proc = subprocess.Popen(
        gunicorn_command(f"127.0.0.1:{port}", processes),
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=log,
        start_new_session=True,
    )
    client = Api(f"http://127.0.0.1:{port}")
    client.port = port
    deadline = time.monotonic() + STALL
    while True:
        try:
            if client.call("GET", "/api/v1/ready").status_code == 200:
                break
        except requests.ConnectionError:
            pass
        if time.monotonic() > deadline or proc.poll() is not None:
            proc.kill()
            client.proc, client.log = proc, log
            pytest.fail(f"API server did not start: {server_log(client)[-2000:]}")
        time.sleep(0.1)
    client.proc, client.log = proc, log
    return client


def server_log(client):
    client.log.seek(0)
    return client.log.read().decode(errors="replace")


def stop_api(client):
    """Stop the server at once, then fail if any response it gave broke the OpenAPI document.
    A test's server has nothing to save, and a graceful stop waits seconds on the
    keep-alive connections (3-4 s a server, sixty servers a run); the graceful stop is
    tested where it is the point (``cinch serve`` and Ctrl-C, tests/server/cli)."""
    client.http.close()
    try:
        os.killpg(client.proc.pid, signal.SIGKILL)  # the master and its workers (a session of their own)
    except ProcessLookupError:
        pass
    client.proc.wait(timeout=20)
    assert not client.violations, "responses that break the OpenAPI document:\n" + "\n".join(client.violations)
