"""The waker hands a woken long-poll the request its wake message brought, so the long-poll
serves it without reading Redis; any wake-up it cannot vouch for sends it to Redis."""

import json
import threading
import time

from redis import Redis

from server.engine import HandState, generate_board, make_ruleset, observation
from server.web.waker import Waker


def waker() -> Waker:
    """A waker whose listener never starts: the tests hand it the wake messages."""
    w = Waker(Redis(unix_socket_path="/nonexistent"), "unused", capacity=10)
    w._listener = threading.Thread()
    return w


def message(bot: str, did: str, left: int, head: str) -> str:
    return f"{bot}\n{did}\n{left}\n{head}"


def test_a_wake_message_brings_its_request_counted_down_and_skips_ids_in_hand():
    w = waker()
    with w.interest("b1") as woken:
        assert woken is not None
        w._dispatch(message("b1", "d1", 5000, '{"id": "d1", "deadline": 1.5, "deadline_in_ms":'))
        w._dispatch(message("b1", "d2", 5000, '{"id": "d2", "deadline": 1.5, "deadline_in_ms":'))
        assert woken.is_set()
        time.sleep(0.05)
        first, second = (json.loads(r) for r in woken.take())
        assert (first["id"], second["id"]) == ("d1", "d2")  # one waiter: both go to it
        assert 4800 < first["deadline_in_ms"] <= 4950  # counted down from its arrival
        assert not woken.is_set()
        w._dispatch(message("b1", "d3", 5000, '{"id": "d3", "deadline_in_ms":'))
        assert woken.take(skip=["d3"]) == []  # in hand already: nothing new
    with w.interest("b2") as other:
        w._dispatch(message("b1", "d4", 5000, '{"id": "d4", "deadline_in_ms":'))
        assert not other.is_set()  # another bot's decision never reaches it


def test_a_wake_up_without_a_request_or_none_at_all_means_read_redis():
    w = waker()
    with w.interest("b1") as woken:
        assert woken.take() is None  # the wait ran out
        w._dispatch(message("b1", "d1", 5000, '{"id": "d1", "deadline_in_ms":'))
        w._dispatch("b1")  # a wake message of old, or a reconnect: Redis knows
        assert woken.take() is None
        w._dispatch(message("b1", "d2", 5000, '{"id": "d2", "deadline_in_ms":'))
        w.wake()  # every waiter, to read again (the listener reconnected)
        assert woken.take() is None


def test_a_long_poll_leaving_with_a_request_untaken_hands_its_sibling_a_read():
    w = waker()
    with w.interest("b1") as staying:
        with w.interest("b1") as leaving:
            w._dispatch(message("b1", "d1", 5000, '{"id": "d1", "deadline_in_ms":'))
            assert leaving.is_set() and not staying.is_set()  # the newest is woken
        assert staying.is_set()
        assert staying.take() is None  # d1 left with the other: read it from Redis


def test_the_published_request_is_the_one_redis_serves(store):
    state = HandState(make_ruleset("american62"), generate_board("waker", 1))
    pubsub = store.redis.pubsub(ignore_subscribe_messages=True)
    pubsub.subscribe(store.wake_channel)
    did, _, _ = store.ask("b1", "m1", observation(state, state.seat_to_act()), 5000, 0)
    w = waker()
    with w.interest("b1") as woken:
        while not woken.is_set():
            got = pubsub.get_message(timeout=1.0)
            if got is not None:
                w._dispatch(got["data"].decode())
        served = json.loads(woken.take()[0])
    pubsub.close()
    stored = json.loads(store.open_requests("b1")[0])
    assert served["id"] == did
    assert abs(served.pop("deadline_in_ms") - stored.pop("deadline_in_ms")) < 1000
    assert served == stored
