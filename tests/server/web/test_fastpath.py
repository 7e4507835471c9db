"""The decisions' fast path (``server.web.fastpath``): what it answers itself is what Flask
would have answered, and everything else reaches Flask as it was sent.

Each test sees which path answered by counting the calls that reach Flask's own
``wsgi_app`` (the middleware's ``flask``). The refusal matrix through the whole app is in
``api/test_decisions.py``; here, the joins: the headers, the request id, the metrics, the
body replayed to Flask, and Redis failing on either side of the acceptance.
"""

import json
import time

import pytest
from prometheus_client import REGISTRY
from redis.exceptions import ConnectionError as RedisDown

from server.arena import registry
from server.engine import HandState, generate_board, make_ruleset, observation
from server.web.app import create_app
from server.web.fastpath import DecisionFastPath

pytestmark = pytest.mark.e2e

ROUTE = "/api/v1/decisions/<decision_id:decision_id>"


class Arena:
    """One app, its fast path, a bot and the calls that reached Flask."""

    def __init__(self, redis_url, store):
        self.store = store
        self.app = create_app({"REDIS_URL": redis_url, "CINCH_PREFIX": store.prefix, "CINCH_QUEUE": store.queue_name})
        self.fast: DecisionFastPath = self.app.wsgi_app
        self.to_flask = 0
        flask = self.fast.flask

        def counted(environ, start_response):
            self.to_flask += 1
            return flask(environ, start_response)

        self.fast.flask = counted
        self.client = self.app.test_client()
        self.token = registry.register(store, "alice")
        self.auth = {"Authorization": f"Bearer {self.token}"}

    def serve(self, board=1):
        """A decision asked of alice and served to her by this process; its observation."""
        state = HandState(make_ruleset("american62"), generate_board("fastpath", board))
        seen = observation(state, state.seat_to_act())
        did = self.store.ask("alice", "m1", seen, 20000, 0)[0]
        got = self.client.get("/api/v1/decisions/next?wait=0", headers=self.auth).get_json()
        assert got["id"] == did
        return did, seen

    def answer(self, did, body, query="", headers=None, content_type="application/json"):
        before = self.to_flask
        response = self.client.post(
            f"/api/v1/decisions/{did}{query}",
            data=body if isinstance(body, (str, bytes)) else json.dumps(body),
            headers={**self.auth, **(headers or {})},
            content_type=content_type,
        )
        return response, self.to_flask > before

    def still_open(self, did):
        return did in [json.loads(r)["id"] for r in self.store.open_requests("alice")]


@pytest.fixture
def arena(redis_url, store):
    return Arena(redis_url, store)


def test_an_accepted_answer_skips_flask_and_carries_what_flask_would(arena):
    did, seen = arena.serve(1)
    fast, to_flask = arena.answer(did, seen["legal"][0], headers={"X-Request-Id": "bot-7f3a-0001"})
    assert not to_flask and fast.status_code == 200
    assert fast.get_json() == {"accepted": True, "next": []}
    assert arena.store.await_answer(did, "alice", time.time() + 5, time.time()) == seen["legal"][0]
    assert fast.headers["X-Request-Id"] == "bot-7f3a-0001"

    # the same answer through Flask: a decision this process did not serve
    other, seen2 = arena.serve(2)
    arena.app.extensions["cinch"].served.forget(other)
    slow, to_flask = arena.answer(other, seen2["legal"][0])
    assert to_flask and slow.status_code == 200 and slow.get_json() == fast.get_json()
    assert len(slow.headers["X-Request-Id"]) == 32  # ours: none was sent
    same = ("Content-Type", "X-Content-Type-Options", "X-Frame-Options", "Referrer-Policy", "Content-Security-Policy")
    assert {k: fast.headers[k] for k in same} == {k: slow.headers[k] for k in same}
    assert sorted(k for k, _ in fast.headers) == sorted(k for k, _ in slow.headers)


def test_the_fast_path_is_counted_under_the_routes_template(arena):
    labels = {"route": ROUTE, "method": "POST", "status": "2xx"}
    before = REGISTRY.get_sample_value("cinch_http_responses_total", labels) or 0.0
    did, seen = arena.serve()
    assert not arena.answer(did, seen["legal"][0])[1]
    assert REGISTRY.get_sample_value("cinch_http_responses_total", labels) == before + 1


def test_the_next_decision_comes_back_in_the_fast_answer(arena):
    first, seen = arena.serve(1)
    state = HandState(make_ruleset("american62"), generate_board("fastpath", 2))
    later = arena.store.ask("alice", "m1", observation(state, state.seat_to_act()), 20000, 0)[0]
    response, to_flask = arena.answer(first, seen["legal"][0], query="?wait=2")
    assert not to_flask and [d["id"] for d in response.get_json()["next"]] == [later]
    response, to_flask = arena.answer(later, response.get_json()["next"][0]["legal"][0])
    assert not to_flask and response.status_code == 200  # served by the answer, so judged here too


@pytest.mark.parametrize(
    "body, query, headers, content_type, status",
    [
        ("LEGAL", "", {"Authorization": ""}, "application/json", 401),
        ("LEGAL", "", {"Authorization": "Bearer cinch_not-a-token"}, "application/json", 401),
        ({"type": "play", "card": "2C", "extra": 1}, "", {}, "application/json", 422),
        ("ILLEGAL", "", {}, "application/json", 422),
        ("{not json", "", {}, "application/json", 400),
        ('{"type": "pass", "seat": "N\\u0000"}', "", {}, "application/json", 400),
        ("LEGAL", "", {}, "text/plain", 415),
        ("LEGAL", "?wait=26", {}, "application/json", 422),
        ("LEGAL", "?wait=1&wait=2", {}, "application/json", 200),
        ("LEGAL", "?skip=nope", {}, "application/json", 422),
        ("LEGAL", "?later=1", {}, "application/json", 200),
        ("LEGAL", "", {"X-Long": "x" * 9000}, "application/json", 431),
    ],
    ids=[
        "no-token",
        "wrong-token",
        "unknown-field",
        "illegal",
        "bad-json",
        "nul-in-string",
        "not-json",
        "wait-too-long",
        "wait-twice",
        "bad-skip",
        "unknown-query",
        "long-header",
    ],
)
def test_every_other_request_reaches_flask_with_its_body(arena, body, query, headers, content_type, status):
    did, seen = arena.serve()
    legal = seen["legal"][0]
    illegal = {"type": "play", "card": "2C"} if legal["type"] != "play" else {"type": "bid", "amount": 14}
    body = {"LEGAL": legal, "ILLEGAL": illegal}.get(body, body) if isinstance(body, str) else body
    response, to_flask = arena.answer(did, body, query=query, headers=headers, content_type=content_type)
    assert to_flask and response.status_code == status, response.get_json()
    if status >= 400:
        assert response.content_type == "application/problem+json"
        assert arena.still_open(did)  # refused, nothing changed
    else:
        assert not arena.still_open(did)


def test_refused_by_the_store_is_answered_by_flask(arena):
    did, seen = arena.serve()
    assert not arena.answer(did, seen["legal"][0])[1]
    served = {"id": did, "legal": seen["legal"], "observation": {"seat": seen["seat"]}}
    arena.app.extensions["cinch"].served.remember("alice", [json.dumps(served)])  # as if still open
    again, to_flask = arena.answer(did, seen["legal"][0])
    assert to_flask and again.status_code == 409 and again.content_type == "application/problem+json"


def test_redis_failing_before_the_acceptance_is_flasks_503(arena, monkeypatch):
    did, seen = arena.serve()

    def down(*_args, **_kwargs):
        raise RedisDown("gone")

    monkeypatch.setattr(arena.app.extensions["cinch"].store, "answer_decision", down)
    response, to_flask = arena.answer(did, seen["legal"][0])
    assert to_flask and response.status_code == 503 and response.headers["Retry-After"]
    assert response.content_type == "application/problem+json"
    monkeypatch.undo()
    assert arena.still_open(did)


def test_redis_failing_after_the_acceptance_still_says_accepted(arena, monkeypatch):
    did, seen = arena.serve()

    def down(*_args, **_kwargs):
        raise RedisDown("gone")

    monkeypatch.setattr(arena.app.extensions["cinch"].store, "open_requests", down)  # the wait's read
    response, to_flask = arena.answer(did, seen["legal"][0], query="?wait=0.2")
    assert not to_flask and response.status_code == 200
    assert response.get_json() == {"accepted": True, "next": []}
    assert arena.store.await_answer(did, "alice", time.time() + 5, time.time()) == seen["legal"][0]
