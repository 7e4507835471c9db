"""A real API server (gunicorn, separate process) on a real Redis, with real RQ workers."""

import os
import socket
import subprocess
import time

import pytest
import requests
from apiclient import ADMIN, Api

from server.cli.serve_cmd import gunicorn_command



def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def api(redis_url, store):
    port = free_port()
    env = {**os.environ, "REDIS_URL": redis_url, "CINCH_PREFIX": store.prefix, "CINCH_QUEUE": store.queue_name,
           "CINCH_ADMIN_TOKEN": ADMIN}
    proc = subprocess.Popen(gunicorn_command(f"127.0.0.1:{port}"), env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    client = Api(f"http://127.0.0.1:{port}")
    deadline = time.monotonic() + 30
    while True:
        try:
            if client.call("GET", "/api/v1/ready").status_code == 200:
                break
        except requests.ConnectionError:
            pass
        if time.monotonic() > deadline or proc.poll() is not None:
            proc.kill()
            pytest.fail(f"API server did not start: {proc.stderr.read().decode()[-2000:]}")
        time.sleep(0.1)
    client.proc = proc
    yield client
    proc.terminate()
    proc.wait(timeout=20)


@pytest.fixture
def remote_bots():
    bots = []
    yield bots
    for bot in bots:
        bot.stop.set()
    for bot in bots:
        bot.join(timeout=5)


