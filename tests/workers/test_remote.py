"""A remote seat over a real Redis: rooms shown through secret views, answers mapped back,
the shown deadline and the silent time bank."""

import json
import threading
import time
from collections import Counter

import pytest

from server.arena import registry
from server.engine import SEATS, HandState, IllegalAction, generate_board, make_ruleset, observation
from server.engine.legality import check
from server.engine.relabel import View, relabeling_for, rotation_for, view_for
from workers.remote import DecisionTimeout, RemoteAgent


def _decide_in_thread(agent, view):
    out = {}
    thread = threading.Thread(target=lambda: out.update(action=agent.decide(view)), daemon=True)
    thread.start()
    return thread, out


def _wait_open(store, bot):
    for _ in range(200):
        pending = [json.loads(r) for r in store.open_requests(bot)]
        if pending:
            return pending[0]
        threading.Event().wait(0.02)
    pytest.fail("no decision was published")


def test_the_bot_sees_the_room_through_its_view_and_its_answer_comes_back_real(store):
    state = HandState(make_ruleset("american62"), generate_board("remote", 2))
    view = observation(state, state.seat_to_act())
    agent = RemoteAgent(store, "far", "t1.m1", {"decision_ms": 10000})
    agent.new_hand("t1.m1/2/1")
    room = view_for(store.secret(), "t1.m1/2/1")
    assert room == View(relabeling_for(store.secret(), "t1.m1/2/1"), rotation_for(store.secret(), "t1.m1/2/1"))
    thread, out = _decide_in_thread(agent, view)
    request = _wait_open(store, "far")
    assert request["observation"] == room.show(view)
    assert not {"match", "board", "room"} & set(request)
    shown_legal = request["legal"]
    token = registry.token_hash(registry.register(store, "far"))
    assert store.answer_decision(token, request["id"], "far", shown_legal[-1])[0] == "ok"
    thread.join(timeout=5)
    real = out["action"]
    check(real, view["legal"])  # legal in the real suits
    assert room.show(real) == shown_legal[-1]


def _key_rotated(store, odd: bool) -> str:
    """A room key whose view rotates the table (by an odd or an even, non-zero, amount)."""
    secret = store.secret()
    for n in range(1, 1000):
        r = rotation_for(secret, f"t1.m1/{n}/1") % 4  # a four-seat table's rotation
        if r and r % 2 == odd:
            return f"t1.m1/{n}/1"
    pytest.fail("no rotated room in 1000 keys")


@pytest.mark.parametrize("odd", [True, False])
def test_the_stored_seat_is_the_shown_one_and_an_answer_naming_it_comes_back_real(store, odd):
    state = HandState(make_ruleset("american62"), generate_board("remote", 5))
    real_view = observation(state, state.seat_to_act())
    agent = RemoteAgent(store, "turned", "t1.m1", {"decision_ms": 10000})
    key = _key_rotated(store, odd)
    agent.new_hand(key)
    room = view_for(store.secret(), key)
    thread, out = _decide_in_thread(agent, real_view)
    request = _wait_open(store, "turned")
    shown_seat = request["observation"]["seat"]
    assert shown_seat == SEATS[(SEATS.index(real_view["seat"]) + room.rotation) % 4] != real_view["seat"]
    assert list(request["observation"]["hand_sizes"]) == list(SEATS)  # keys in canonical order
    token = registry.token_hash(registry.register(store, "turned"))
    _, decision = store.answer_context(token, request["id"])
    assert decision["seat"] == shown_seat and decision["legal"] == request["legal"]
    answer = {**request["legal"][0], "seat": shown_seat}
    check(answer, decision["legal"], decision["seat"])  # what the API judges
    with pytest.raises(IllegalAction, match="out of turn"):
        check({**answer, "seat": real_view["seat"]}, decision["legal"], decision["seat"])
    assert store.answer_decision(token, request["id"], "turned", answer)[0] == "ok"
    thread.join(timeout=5)
    real = out["action"]
    assert real["seat"] == real_view["seat"]
    state.apply(real)  # the engine takes it


def test_the_seat_shown_is_not_a_function_of_the_room(store):
    """X sits N/S in room 1 and E/W in room 2; shown through the rooms' views, both rooms
    show X at every seat, about as often."""
    agent = RemoteAgent(store, "x", "t1.m1")
    shown = {1: Counter(), 2: Counter()}
    for n in range(1, 201):
        for room, seat in ((1, "N"), (2, "E")):
            agent.new_hand(f"t1.m1/{n}/{room}")
            obs = observation(HandState(make_ruleset("american62"), generate_board("rooms", n)), seat)
            shown[room][agent.view.show(obs)["seat"]] += 1
    for room in (1, 2):
        assert set(shown[room]) == set(SEATS)
        assert min(shown[room].values()) >= 20, shown  # 50 expected of each


def test_a_silent_bot_times_out_and_becomes_faulty(store):
    state = HandState(make_ruleset("american62"), generate_board("remote", 3))
    view = observation(state, state.seat_to_act())
    agent = RemoteAgent(store, "mute", "t1.m2", {"decision_ms": 50, "bank_ms": 0, "max_timeouts": 1})
    for _ in range(2):
        with pytest.raises(DecisionTimeout):
            agent.decide(view)
    assert store.timeouts("t1.m2") == {"mute": 2}
    assert store.is_faulty("t1.m2", "mute")
    with pytest.raises(DecisionTimeout, match="faulty"):
        agent.decide(view)  # no longer waited for


def test_the_bot_is_shown_the_decision_limit_whatever_its_bank(store):
    """The same shown deadline in a match whose bank is full and in one whose bank is spent."""
    state = HandState(make_ruleset("american62"), generate_board("remote", 4))
    view = observation(state, state.seat_to_act())
    store.ask("banked", "t1.m1", view, 5000, 60000)
    store.ask("banked", "t1.m2", view, 5000, 60000)
    store.spend_bank("t1.m2", "banked", 60000)  # m2's bank is gone
    store.spend_bank("t1.m1", "banked", 1000)  # m1 has 59 s left
    rich = store.ask("banked", "t1.m1", view, 5000, 60000)
    poor = store.ask("banked", "t1.m2", view, 5000, 60000)
    assert rich[2] - rich[1] > 60 and poor[2] - poor[1] < 5.1  # the real deadlines differ
    requests = {r["id"]: r for r in map(json.loads, store.open_requests("banked"))}
    shown = [requests[rich[0]], requests[poor[0]]]
    assert abs(shown[0]["deadline_in_ms"] - shown[1]["deadline_in_ms"]) < 50
    assert all(4000 < r["deadline_in_ms"] <= 5000 for r in shown)
    for r, (_, opened, _) in zip(shown, (rich, poor)):
        assert r["deadline"] == pytest.approx(opened + 5, abs=1e-5)
    order = [json.loads(r)["id"] for r in store.open_requests("banked")]
    assert order.index(rich[0]) < order.index(poor[0])  # ordered as opened, not by the bank


def test_an_answer_after_the_shown_deadline_is_taken_until_the_real_one(store):
    state = HandState(make_ruleset("american62"), generate_board("remote", 6))
    view = observation(state, state.seat_to_act())
    agent = RemoteAgent(store, "slow", "t1.m3", {"decision_ms": 100, "bank_ms": 5000})
    token = registry.token_hash(registry.register(store, "slow"))
    thread, out = _decide_in_thread(agent, view)
    request = _wait_open(store, "slow")
    time.sleep(0.4)  # past the shown deadline
    late = json.loads(store.open_requests("slow")[0])
    assert late["id"] == request["id"] and late["deadline_in_ms"] == 0
    assert late["deadline"] == request["deadline"] < store.now()
    assert store.answer_decision(token, request["id"], "slow", request["legal"][0])[0] == "ok"
    thread.join(timeout=5)
    assert out["action"]["type"] == request["legal"][0]["type"]
    assert store.timeouts("t1.m3") == {}
    bank = int(store.redis.hget(store.key("match", "t1.m3", "bank"), "slow"))
    assert 5000 - 1000 < bank < 5000 - 250  # the grace used came from the bank
    # and the next decision of the match is shown the same limit again
    thread, out = _decide_in_thread(agent, view)
    again = _wait_open(store, "slow")
    assert 50 < again["deadline_in_ms"] <= 100
    assert store.answer_decision(token, again["id"], "slow", again["legal"][0])[0] == "ok"
    thread.join(timeout=5)


def test_an_answer_after_the_real_deadline_is_refused(store):
    state = HandState(make_ruleset("american62"), generate_board("remote", 7))
    view = observation(state, state.seat_to_act())
    token = registry.token_hash(registry.register(store, "late"))
    did, opened, deadline = store.ask("late", "t1.m4", view, 50, 150)
    assert deadline == pytest.approx(opened + 0.2, abs=1e-5)
    time.sleep(0.3)
    assert store.open_requests("late") == []
    assert store.answer_decision(token, did, "late", view["legal"][0])[0] == "expired"
