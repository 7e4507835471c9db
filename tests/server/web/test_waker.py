"""The waker hands a woken long-poll the request its wake message brought, so the long-poll
serves it without reading Redis; any wake-up it cannot vouch for sends it to Redis."""

import json
import socket
import threading
import time
import uuid

from redis import Redis

from server.arena import registry
from server.arena.store.decisions import LISTEN_SECONDS
from server.engine import HandState, generate_board, make_ruleset, observation
from server.web import waker as waker_module
from server.web.api.decisions import await_open
from server.web.waker import Waker


def waker() -> Waker:
    """A waker whose listener never starts: the tests hand it the wake messages."""
    w = Waker(Redis(unix_socket_path="/nonexistent"), lambda name: name, capacity=10)
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
    pubsub.subscribe(store.wake_channel("p1"))
    assert store.open_requests("b1", listener="p1") == []  # a long-poll of process p1 reads, and waits
    did, _, _ = store.ask("b1", "m1", observation(state, state.seat_to_act()), 5000, 0)
    w = waker()
    with w.interest("b1") as woken:
        while not woken.is_set():
            got = Waker._next_message(pubsub)
            if got is not None:
                w._dispatch(got["data"].decode())
        served = json.loads(woken.take()[0])
    pubsub.close()
    stored = json.loads(store.open_requests("b1")[0])
    assert served["id"] == did
    assert abs(served.pop("deadline_in_ms") - stored.pop("deadline_in_ms")) < 1000
    assert served == stored


def test_the_listener_reads_messages_not_health_checks_and_resumes_a_message_cut_by_its_timeout(redis_url, monkeypatch):
    """The listener reads with a timeout on the socket rather than polling it first: an
    empty read is None, the pub/sub health check's reply is no message, and a message of
    which only part came before the timeout is whole at the next read."""
    monkeypatch.setattr(waker_module, "LISTEN_TIMEOUT", 0.2)
    redis = Redis.from_url(redis_url, health_check_interval=1)
    channel = f"waker-test-{uuid.uuid4().hex}"
    pubsub = redis.pubsub(ignore_subscribe_messages=True)
    pubsub.subscribe(channel)
    assert Waker._next_message(pubsub) is None  # the subscription's confirmation
    started = time.monotonic()
    assert Waker._next_message(pubsub) is None
    assert 0.15 < time.monotonic() - started < 2
    redis.publish(channel, "b1")
    assert Waker._next_message(pubsub)["data"] == b"b1"
    pubsub.connection.next_health_check = 0  # due now: the next read sends PING first
    redis.publish(channel, "b2")
    got = [Waker._next_message(pubsub) for _ in range(3)]
    assert [m["data"] for m in got if m is not None] == [b"b2"]
    assert pubsub.health_check_response_counter == 0  # the PONG was read and set aside

    # a message cut in two: the first part arrives, the read times out, the rest follows
    payload = b"x" * 100
    frame = b"*3\r\n$7\r\nmessage\r\n$%d\r\n%s\r\n$%d\r\n%s\r\n" % (
        len(channel),
        channel.encode(),
        len(payload),
        payload,
    )
    parser = pubsub.connection._parser
    sock = pubsub.connection._sock
    a, b = socket.socketpair()
    pubsub.connection._sock = a
    parser.on_connect(pubsub.connection)
    try:
        b.sendall(frame[:20])
        assert Waker._next_message(pubsub) is None
        b.sendall(frame[20:])
        assert Waker._next_message(pubsub)["data"] == payload
    finally:
        pubsub.connection._sock = sock
        parser.on_connect(pubsub.connection)
        a.close()
        b.close()
    pubsub.close()


def test_a_decision_wakes_only_the_processes_whose_long_polls_wait_for_its_bot(store):
    """Each process listens on a channel of its own, registered by its long-polls' reads
    and answers; a registration lapses (``LISTEN_SECONDS``) and is then forgotten."""
    state = HandState(make_ruleset("american62"), generate_board("waker", 2))
    view = observation(state, state.seat_to_act())
    channels = {name: store.redis.pubsub(ignore_subscribe_messages=True) for name in ("p1", "p2", "p3")}
    for name, pubsub in channels.items():
        pubsub.subscribe(store.wake_channel(name))
        assert Waker._next_message(pubsub) is None  # the subscription's confirmation

    def woken() -> dict[str, list[str]]:
        return {
            name: [m["data"].decode().split("\n")[:2] for m in iter(lambda p=p: Waker._next_message(p), None)]
            for name, p in channels.items()
        }

    store.open_requests("b1", listener="p1")  # p1 waits for b1
    store.open_requests("b2", listener="p2")  # p2 for b2
    store.open_requests("b1")  # a read that does not wait registers nothing
    first, _, _ = store.ask("b1", "m1", view, 5000, 0)
    assert woken() == {"p1": [["b1", first]], "p2": [], "p3": []}

    token = registry.register(store, "b1")
    assert store.answer_decision(registry.token_hash(token), first, "b1", view["legal"][0], listener="p3")[0] == "ok"
    second, _, _ = store.ask("b1", "m1", view, 5000, 0)
    assert woken() == {"p1": [["b1", second]], "p2": [], "p3": [["b1", second]]}

    listeners = store.key("bot", "b1", "listeners")
    assert 0 < store.redis.ttl(listeners) <= LISTEN_SECONDS
    store.redis.hset(listeners, "p1", "1.0")  # p1's registration has lapsed
    third, _, _ = store.ask("b1", "m1", view, 5000, 0)
    assert woken() == {"p1": [], "p2": [], "p3": [["b1", third]]}
    assert store.redis.hkeys(listeners) == [b"p3"]  # the lapsed one forgotten
    for pubsub in channels.values():
        pubsub.close()


def test_a_long_poll_registers_its_process_with_each_read(store):
    """What the API passes: the waker's name for its process, on every read of a wait."""
    w = Waker(store.redis, store.wake_channel, capacity=10)
    w._listener = threading.Thread()  # no listener: only the registration is looked at
    w.listener = "proc"
    with w.interest("b1") as event:
        assert event.listener == "proc"
        assert await_open(store, "b1", 0.01, event) == []
    assert store.redis.hkeys(store.key("bot", "b1", "listeners")) == [b"proc"]
    assert await_open(store, "b2", 0.0, None) == []  # no wait: no registration
    assert not store.redis.exists(store.key("bot", "b2", "listeners"))
