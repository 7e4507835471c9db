"""Capacity: hundreds of open long-polls in one server process hold no Redis connection
each, and a bot in play is served as fast as ever meanwhile; past the configured
capacity a long-poll is a 503 with Retry-After at once."""

import http.client
import json
import threading
import time
from random import Random

import pytest
from support.apiserver import start_api, stop_api

from server.arena import registry
from server.engine import HandState, generate_board, make_ruleset, observation
from server.engine.playout import random_action

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

LONG_POLLS = 500


def long_poll(port, token, wait, results):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=wait + 30)
    try:
        connection.request("GET", f"/api/v1/decisions/next?wait={wait}", headers={"Authorization": f"Bearer {token}"})
        response = connection.getresponse()
        results.append((response.status, response.getheader("Retry-After"), response.read()))
    except OSError as exc:
        results.append((0, None, repr(exc).encode()))
    finally:
        connection.close()


def views(n):
    for board in range(1, n + 1):
        state = HandState(make_ruleset("american62"), generate_board("capacity", board))
        yield observation(state, state.seat_to_act())


class PlayingBot(threading.Thread):
    """A bot in steady play over one keep-alive connection: each answer's response
    carries its next decision."""

    def __init__(self, port, token):
        super().__init__(daemon=True)
        self.port, self.token, self.stop, self.statuses = port, token, threading.Event(), []

    def run(self):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        auth = {"Authorization": f"Bearer {self.token}", "Content-Type": "application/json"}
        pending = []
        while not self.stop.is_set():
            if not pending:
                connection.request("GET", "/api/v1/decisions/next?wait=1", headers=auth)
                response = connection.getresponse()
                body = response.read()
                self.statuses.append(response.status)
                pending = [json.loads(body)] if response.status == 200 else []
                continue
            decision = pending.pop()
            action = random_action(decision["legal"], Random(0))
            connection.request(
                "POST", f"/api/v1/decisions/{decision['id']}?wait=1", body=json.dumps(action), headers=auth
            )
            response = connection.getresponse()
            body = response.read()
            self.statuses.append(response.status)
            if response.status == 200:
                pending = json.loads(body)["next"]
        connection.close()


def test_500_long_polls_in_one_process_and_a_bot_in_play_stays_fast(redis_url, store):
    api = start_api(redis_url, store, processes=1)
    try:
        tokens = [registry.register(store, f"idle{i}") for i in range(10)]
        player_token = registry.register(store, "busy")
        results = []
        polls = [
            threading.Thread(target=long_poll, args=(api.port, tokens[i % 10], 12, results), daemon=True)
            for i in range(LONG_POLLS)
        ]
        for thread in polls:
            thread.start()
        time.sleep(3)  # every long-poll is in and waiting
        assert not results, results[:3]

        bot = PlayingBot(api.port, player_token)
        bot.start()
        round_trips = []
        for view in views(150):  # the worker's side, as benchmarks/remote.py measures it
            started = time.monotonic()
            did, now, deadline = store.ask("busy", "m1", view, 10000, 0)
            assert store.await_answer(did, "busy", deadline, now) is not None
            round_trips.append(time.monotonic() - started)
            assert api.call("GET", "/api/v1/ready").status_code == 200 if len(round_trips) % 30 == 0 else True
        bot.stop.set()
        for thread in polls:
            thread.join(timeout=30)
        bot.join(timeout=10)
    finally:
        stop_api(api)
    assert len(results) == LONG_POLLS
    assert sorted({status for status, _, _ in results}) == [204], [r for r in results if r[0] != 204][:3]
    assert all(status < 500 for status in bot.statuses)
    round_trips.sort()
    p99 = round_trips[int(len(round_trips) * 0.99) - 1]
    assert p99 < 0.05, f"round trip p99 {p99 * 1000:.1f} ms with {LONG_POLLS} long-polls open"


def test_past_capacity_a_long_poll_is_503_with_retry_after_and_answers_still_pass(redis_url, store):
    api = start_api(redis_url, store, processes=1, CINCH_LONG_POLLS="3")
    try:
        token = registry.register(store, "crowded")
        results = []
        polls = [threading.Thread(target=long_poll, args=(api.port, token, 6, results)) for _ in range(3)]
        for thread in polls:
            thread.start()
        time.sleep(1)
        started = time.monotonic()
        refused = api.call("GET", "/api/v1/decisions/next", token, params={"wait": 5})
        assert time.monotonic() - started < 1
        assert refused.status_code == 503 and int(refused.headers["Retry-After"]) > 0
        assert refused.headers["Content-Type"] == "application/problem+json" and "long-polls" in refused.text
        assert api.call("GET", "/api/v1/decisions/next", token, params={"wait": 0}).status_code == 204

        for view in views(3):  # each wakes one of the three
            store.ask("crowded", "m1", view, 10000, 0)
        started = time.monotonic()
        for thread in polls:
            thread.join(timeout=10)
        assert [status for status, _, _ in results] == [200] * 3 and time.monotonic() - started < 2
        decision = json.loads(results[0][2])
        answered = api.call(
            "POST", f"/api/v1/decisions/{decision['id']}", token, json=decision["legal"][0], params={"wait": 2}
        )
        assert answered.status_code == 200 and len(answered.json()["next"]) == 2
    finally:
        stop_api(api)
