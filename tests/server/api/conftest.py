"""A real API server (gunicorn, separate process) on a real Redis, with real RQ workers."""

import os
import socket
import subprocess
import tempfile
import time

import pytest
import requests
from apiclient import ADMIN, Api

from server.cli.serve_cmd import gunicorn_command


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
    env = {**os.environ, "REDIS_URL": redis_url, "CINCH_PREFIX": store.prefix, "CINCH_QUEUE": store.queue_name,
           "CINCH_ADMIN_TOKEN": ADMIN, "CINCH_LIMIT_FAILED_AUTH": "1000000/minute",
           "CINCH_LIMIT_REGISTRATIONS": "1000000/hour", **env}
    log = tempfile.TemporaryFile()      # not a pipe: a server that logs much must never block on it
    proc = subprocess.Popen(gunicorn_command(f"127.0.0.1:{port}", processes), env=env, stdout=subprocess.DEVNULL,
                            stderr=log, start_new_session=True)
    client = Api(f"http://127.0.0.1:{port}")
    client.port = port
    deadline = time.monotonic() + 30
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
    client.proc.terminate()
    client.proc.wait(timeout=20)


@pytest.fixture
def api(redis_url, store):
    client = start_api(redis_url, store)
    yield client
    stop_api(client)


@pytest.fixture
def api_with(redis_url, store):
    """Start servers with their own environment (``api_with(CINCH_X="1")``); stopped after."""
    servers = []

    def start(**env):
        servers.append(start_api(redis_url, store, **env))
        return servers[-1]
    yield start
    for server in servers:
        stop_api(server)


@pytest.fixture
def remote_bots():
    bots = []
    yield bots
    for bot in bots:
        bot.stop.set()
    for bot in bots:
        bot.join(timeout=5)


