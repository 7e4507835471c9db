"""The decision protocol in one API process (Flask's test client, real Redis).

One process means one served-decisions cache, so both ways an answer is judged are
tested deterministically: a decision this process served (judged from the cache) and
one it did not (read back from Redis). Each must give the same answers for every kind
of refusal, in the same order: token, ownership, status, legality.
"""

import json
import threading
import time

import pytest

from server.arena import registry
from server.engine import HandState, generate_board, make_ruleset, observation
from server.engine.legality import check
from server.web.app import create_app

pytestmark = pytest.mark.e2e


@pytest.fixture
def arena(redis_url, store):
    def app():
        return create_app(
            {"REDIS_URL": redis_url, "CINCH_PREFIX": store.prefix, "CINCH_QUEUE": store.queue_name}
        ).test_client()

    tokens = {name: registry.register(store, name) for name in ("alice", "bob")}
    return app, tokens


def view(board=1):
    state = HandState(make_ruleset("american62"), generate_board("decisions", board))
    return observation(state, state.seat_to_act())


def ask(store, bot="alice", board=1, decision_ms=20000):
    return store.ask(bot, "m1", view(board), decision_ms, 0)[0]


def post(client, token, did, action, **query):
    return client.post(
        f"/api/v1/decisions/{did}",
        json=action,
        query_string=query,
        headers={"Authorization": f"Bearer {token}"} if token else {},
    )


def get(client, token, path, **query):
    return client.get(f"/api/v1/decisions{path}", query_string=query, headers={"Authorization": f"Bearer {token}"})


def illegal_for(legal):
    return {"type": "play", "card": "2C"} if legal[0]["type"] != "play" else {"type": "bid", "amount": 14}


@pytest.mark.parametrize("served_here", [True, False], ids=["served-by-this-process", "served-elsewhere"])
def test_every_refusal_is_the_same_whichever_process_served_the_decision(arena, store, served_here):
    app, tokens = arena
    client = app()
    did = ask(store)
    if served_here:
        assert get(client, tokens["alice"], "/next", wait=0).get_json()["id"] == did
    else:
        get(app(), tokens["alice"], "/next", wait=0)  # another process served it
    legal = view()["legal"]
    assert post(client, None, did, legal[0]).status_code == 401
    assert post(client, "cinch_not-a-token", did, legal[0]).status_code == 401
    assert post(client, "cinch_not-a-token", did, illegal_for(legal)).status_code == 401  # 401 before 422
    stolen = post(client, tokens["bob"], did, legal[0])
    assert stolen.status_code == 404 and stolen.content_type == "application/problem+json"
    assert post(client, tokens["bob"], did, illegal_for(legal)).status_code == 404
    refused = post(client, tokens["alice"], did, illegal_for(legal))
    assert refused.status_code == 422 and refused.content_type == "application/problem+json"
    assert json.loads(store.open_requests("alice")[0])["id"] == did  # nothing above changed anything
    accepted = post(client, tokens["alice"], did, legal[0])
    assert accepted.status_code == 200 and accepted.get_json() == {"accepted": True, "next": []}
    assert store.await_answer(did, "alice", time.time() + 5, time.time()) == legal[0]
    assert post(client, tokens["alice"], did, legal[0]).status_code == 409
    assert post(app(), tokens["alice"], did, legal[0]).status_code == 409


def test_an_answer_brings_back_the_next_decision_published_while_it_waits(arena, store):
    app, tokens = arena
    client = app()
    first = ask(store, board=1)
    get(client, tokens["alice"], "/next", wait=0)
    later = {}
    publisher = threading.Timer(0.3, lambda: later.update(id=ask(store, board=2)))
    publisher.start()
    started = time.monotonic()
    response = post(client, tokens["alice"], first, view(1)["legal"][0], wait=5)
    publisher.join()
    assert 0.25 < time.monotonic() - started < 4
    found = response.get_json()["next"]
    assert [d["id"] for d in found] == [later["id"]]
    decision = found[0]
    assert decision["observation"] == view(2) and decision["legal"] == view(2)["legal"]
    assert 0 < decision["deadline_in_ms"] <= 20000 and decision["deadline"] > time.time()
    check(decision["legal"][0], decision["legal"], decision["observation"]["seat"])
    assert post(client, tokens["alice"], later["id"], decision["legal"][0]).status_code == 200


def test_skip_leaves_out_decisions_in_hand_and_does_not_wait_for_them(arena, store):
    app, tokens = arena
    client = app()
    in_hand, answering = ask(store, board=1), ask(store, board=2)
    listed = get(client, tokens["alice"], "").get_json()
    assert {d["id"] for d in listed} == {in_hand, answering}
    started = time.monotonic()
    response = post(client, tokens["alice"], answering, view(2)["legal"][0], wait=0.5, skip=in_hand)
    assert response.get_json()["next"] == [] and time.monotonic() - started >= 0.45
    third = ask(store, board=3)
    response = post(client, tokens["alice"], in_hand, view(1)["legal"][0], wait=5)
    assert [d["id"] for d in response.get_json()["next"]] == [third]


def test_other_bots_decisions_never_come_back_with_an_answer(arena, store):
    app, tokens = arena
    client = app()
    mine = ask(store, "alice", board=1)
    ask(store, "bob", board=2)
    get(client, tokens["alice"], "/next", wait=0)
    response = post(client, tokens["alice"], mine, view(1)["legal"][0], wait=0.2)
    assert response.get_json()["next"] == []


def test_bad_wait_and_skip_are_refused_before_anything_changes(arena, store):
    app, tokens = arena
    client = app()
    did = ask(store)
    for query in ({"wait": 26}, {"wait": -1}, {"wait": "soon"}, {"skip": "x" * 65}):
        r = post(client, tokens["alice"], did, view()["legal"][0], **query)
        assert r.status_code == 422 and r.content_type == "application/problem+json", query
    assert json.loads(store.open_requests("alice")[0])["id"] == did
