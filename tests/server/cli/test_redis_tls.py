"""Across machines: the API and a worker reach a shared Redis over TLS with a password
(``rediss://``, the CA in ``ssl_ca_certs``), play a tournament through it, and never print
the password; a client that cannot verify the server is told so, without a traceback."""

import os
import signal
import subprocess
import sys

import pytest
import requests
from support.cliharness import free_port, wait_ready
from support.tls_redis import start_tls_redis
from support.waiting import wait_for

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

ADMIN = "tls-test-admin-token"


def _env(tmp_path, url):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("REDIS_", "CINCH_"))}
    return {**env, "REDIS_URL": url, "CINCH_HOME": str(tmp_path / "home"), "CINCH_ADMIN_TOKEN": ADMIN}


def _start(env, *args):
    return subprocess.Popen(
        [sys.executable, "-m", "server.cli", *args],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )


def _stop(proc):
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGINT)
    try:
        out, _ = proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, _ = proc.communicate()
    return out


def test_api_and_worker_play_a_tournament_through_redis_over_tls_with_a_password(tmp_path):
    redis = start_tls_redis(tmp_path / "redis")
    env = _env(tmp_path, redis.url)
    port = free_port()
    serve = _start(env, "serve", "--bind", f"127.0.0.1:{port}")
    worker = _start(env, "worker")
    try:
        base = f"http://127.0.0.1:{port}/api/v1"
        wait_ready(base)
        created = requests.post(
            f"{base}/tournaments",
            json={"bots": ["random", "rule"], "boards": 3},
            headers={"Authorization": f"Bearer {ADMIN}"},
            timeout=10,
        )
        assert created.status_code == 201, created.text
        tid = created.json()["id"]
        status = lambda: requests.get(f"{base}/tournaments/{tid}", timeout=5).json()
        wait_for(lambda: status()["status"] == "finished", "the tournament to finish over TLS", lambda: status())
        assert status()["pairs_done"] == 3
    finally:
        said = _stop(serve) + _stop(worker)
        redis.proc.terminate()
        redis.proc.wait(timeout=10)
    assert "rediss://" in said and "127.0.0.1" in said, said
    assert redis.password not in said, "the password is never printed"


def test_a_server_certificate_that_cannot_be_verified_is_a_clear_error(tmp_path):
    redis = start_tls_redis(tmp_path / "redis")
    try:
        run = subprocess.run(
            [sys.executable, "-m", "server.cli", "worker"],
            env=_env(tmp_path, redis.bare),
            capture_output=True,
            text=True,
            timeout=60,
        )
    finally:
        redis.proc.terminate()
        redis.proc.wait(timeout=10)
    assert run.returncode != 0
    assert "certificate" in run.stderr and "ssl_ca_certs" in run.stderr, run.stderr
    assert "Traceback" not in run.stderr and redis.password not in run.stderr + run.stdout, run.stderr
