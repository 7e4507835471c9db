"""A remote seat over a real Redis: relabeled rooms, answers mapped back, deadlines."""

import json
import threading

import pytest

from server import registry
from server.engine import HandState, generate_board, make_ruleset, observation
from server.engine.legality import check
from server.engine.relabel import relabeling_for, translate
from server.remote import DecisionTimeout, RemoteAgent


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


def test_the_bot_sees_the_room_relabeled_and_its_answer_comes_back_in_real_suits(store):
    state = HandState(make_ruleset("american62"), generate_board("remote", 2))
    view = observation(state, state.seat_to_act())
    agent = RemoteAgent(store, "far", "t1.m1", {"decision_ms": 10000})
    agent.new_hand("t1.m1/2/1")
    mapping = relabeling_for(store.secret(), "t1.m1/2/1")
    thread, out = _decide_in_thread(agent, view)
    request = _wait_open(store, "far")
    assert request["observation"] == translate(view, mapping)
    assert not {"match", "board", "room"} & set(request)
    shown_legal = request["legal"]
    token = registry.token_hash(registry.register(store, "far"))
    assert store.answer_decision(token, request["id"], "far", shown_legal[-1])[0] == "ok"
    thread.join(timeout=5)
    real = out["action"]
    check(real, view["legal"])                      # legal in the real suits
    assert translate(real, mapping) == shown_legal[-1]


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
        agent.decide(view)                          # no longer waited for
