"""Wake-ups for long-polls: one pub/sub listener per API process instead of one Redis
connection per waiting request, and one channel per process, so a process reads the
wake-ups of its own long-polls rather than every decision of the arena.

A worker that asks a bot for a decision publishes the bot's name and the request on the
wake channel of each API process registered as holding the bot's long-polls
(``Store.ask``). A long-poll's read registers its process (``Interest.listener``) in the
same script as the read (``Store.open_requests``, ``Store.answer_decision``), so a decision
asked after the read reaches the process and one asked before is in what the read
returns; a registration lapses a minute after the last read that made it. Each API process
runs one listener (a greenlet under gunicorn's gevent workers, a daemon thread otherwise:
gevent patches ``threading``) that subscribes to its channel and sets the events of the
long-polls waiting for that bot. A waiting long-poll therefore holds a greenlet and an
event, not a pooled Redis connection, and a process keeps its promise of about a thousand
open long-polls. With one channel for all, every process read every wake message: with
a bot's connections spread over two processes, 0.16 ms more of the API's CPU a decision
(docs/speed.md).

The woken long-poll takes the request from its event (``Interest.take``) and serves it
without reading Redis again: one Lua round trip per decision instead of two. Only a
wake-up without a request (a lost message, a reconnect, a sibling's hand-off) sends it
back to Redis, which stays the one record of what is open.

Long-polls register before they read the bot's open decisions, so a decision published
between the read and the wait still wakes them. Pub/sub is fire-and-forget: a message
published while the listener is reconnecting (Redis restarting), or before it first
subscribed, is lost. So waiters wait in bounded slices and re-read after each (which
registers them again, should Redis have restarted empty), and every waiter is woken when
the listener loses its connection (its read then tells the bot, 503 if Redis is away)
and when it subscribes again; a lost message costs at most one slice.

Past ``capacity`` waiting long-polls the process registers no more (the caller answers
at once instead), so answers and every other call still find a free connection slot in
gunicorn.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from redis import Redis
from redis.client import PubSub
from redis.exceptions import ConnectionError, RedisError, TimeoutError

from server import logs
from server.metrics import LONG_POLLS

log = logs.logger("api.waker")

RECONNECT_PAUSE = 1.0  # seconds between attempts to resubscribe while Redis is away
LISTEN_TIMEOUT = 1.0  # seconds per read of the channel (health checks happen in between)


class Interest(threading.Event):
    """A long-poll's wake event, with the requests the wake-ups brought."""

    def __init__(self, lock: threading.Lock, listener: str) -> None:
        super().__init__()
        self._lock = lock  # the waker's: wake-ups fill the inbox under it
        self.listener = listener  # what the long-poll's reads register: its process's channel
        self.inbox: list[tuple[str, str, int, float]] = []  # (id, request up to deadline_in_ms, its ms, arrived)
        self.reread = False  # a wake-up without a request came: only Redis knows what is open

    def take(self, skip: Iterable[str] = ()) -> list[str] | None:
        """The requests brought since the last take, as the bot sees them (but those in
        ``skip``), each ``deadline_in_ms`` counted down from when it arrived; or None when
        Redis must be read (the wait ended without one, or a wake-up brought none). Clears
        the event."""
        with self._lock:
            inbox, reread = self.inbox, self.reread
            self.inbox, self.reread = [], False
            self.clear()
        if reread or not inbox:
            return None
        now, skipped = time.monotonic(), set(skip)
        return [
            f"{head}{max(0, left - int((now - arrived) * 1000))}}}"
            for did, head, left, arrived in inbox
            if did not in skipped
        ]


class Waker:
    def __init__(self, redis: Redis, channel_of: Callable[[str], str], capacity: int):
        """``channel_of``: the wake channel of a listener's name (``Store.wake_channel``)."""
        self.redis, self.channel_of, self.capacity = redis, channel_of, capacity
        self.listener = ""  # this process's name on the wake channels, made with its listener
        self._waiting: dict[str, list[Interest]] = {}  # per bot, oldest first
        self._count = 0
        self._lock = threading.Lock()
        self._listener: threading.Thread | None = None

    @property
    def waiting(self) -> int:
        """How many long-polls wait in this process now."""
        return self._count

    @contextmanager
    def interest(self, bot: str) -> Iterator[Interest | None]:
        """An event set when a decision may have been published for ``bot``, for the
        duration of the block; None (nothing registered) when the process is full."""
        with self._lock:
            if self._count >= self.capacity:
                event = None
            else:
                if self._listener is None:  # started on first use: after gunicorn's fork
                    self.listener = uuid.uuid4().hex
                    self._listener = threading.Thread(target=self._listen, name="cinch-waker", daemon=True)
                    self._listener.start()
                event = Interest(self._lock, self.listener)
                self._count += 1
                self._waiting.setdefault(bot, []).append(event)
        if event is None:
            yield None
            return
        LONG_POLLS.inc()
        try:
            yield event
        finally:
            LONG_POLLS.dec()
            with self._lock:
                self._count -= 1
                events = self._waiting[bot]
                events.remove(event)
                if not events:
                    del self._waiting[bot]
            if event.is_set():
                # a wake-up came after this long-poll's last read (it had cleared its event
                # and was on its way out with another decision): hand it to a sibling, or a
                # decision published meanwhile would wait for a sibling's slice to end
                self.wake(bot)

    def wake(self, bot: str | None = None, request: tuple[str, str, int] | None = None) -> None:
        """Wake one of ``bot``'s waiting long-polls per new decision: the newest not woken
        yet (the least likely to belong to a client that has gone), as BLPOP would hand a
        push to one waiter; any of them returns the new decision, and waking all of a
        bot's long-polls (a runner often has two) would send it twice. ``request`` (its id,
        the request up to its ``deadline_in_ms``, and that) goes with the wake-up; when every
        long-poll of the bot is woken already, to the newest, which has not served it yet
        or will hand its wake-up on (``interest``). With no ``bot``, every waiter, to read
        Redis again."""
        with self._lock:
            if bot is None:
                events = [e for group in self._waiting.values() for e in group]
            else:
                group = self._waiting.get(bot, [])
                events = [e for e in reversed(group) if not e.is_set()][:1] or group[-1:]
            for event in events:
                if request is None:
                    event.reread = True
                else:
                    event.inbox.append((*request, time.monotonic()))
                event.set()

    def _dispatch(self, data: str) -> None:
        """A wake message (``Store.ask``): the bot's name, then the decision's id, the
        milliseconds the bot is given and the request up to them, a line each."""
        bot, *request = data.split("\n", 3)
        self.wake(bot, (request[0], request[2], int(request[1])) if len(request) == 3 else None)

    @staticmethod
    def _next_message(pubsub: PubSub) -> dict[str, Any] | None:
        """The next message, or None after ``LISTEN_TIMEOUT`` without one.

        ``pubsub.get_message(timeout=...)`` first polls the socket (``can_read``), which
        under gevent costs about as much as the read itself: 150-170 against 82 µs of CPU
        a message (``benchmarks/listener.py``), paid once per decision in steady play.
        This reads with the timeout on the socket instead, as redis-py's own non-blocking
        read does once the poll says yes: a timeout keeps what part of a message came in
        the parser for the next read (``disconnect_on_error=False``), and the pub/sub
        health check still runs between reads."""
        pubsub.check_health()
        connection = pubsub.connection
        if connection is None:
            raise ConnectionError("the wake channel's connection is gone")
        try:
            response = connection.read_response(disconnect_on_error=False, push_request=True, timeout=LISTEN_TIMEOUT)
        except TimeoutError:
            return None
        if pubsub.is_health_check_response(response):
            pubsub.health_check_response_counter -= 1
            return None
        message: dict[str, Any] | None = pubsub.handle_message(response, ignore_subscribe_messages=True)
        return message

    def _listen(self) -> None:
        """Subscribe and dispatch, for the life of the process; resubscribe after errors."""
        failing = False
        while True:
            pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
            try:
                pubsub.subscribe(self.channel_of(self.listener))
                if failing:
                    log.warning("wake channel subscribed again")
                failing = False
                self.wake()  # anything published while away: look again
                while True:
                    message = self._next_message(pubsub)
                    if message is not None and message["type"] == "message":
                        self._dispatch(message["data"].decode())
            except RedisError as exc:
                if not failing:
                    log.warning(
                        "wake channel lost (%s); long-polls fall back to re-reading until it is back",
                        type(exc).__name__,
                    )
                    self.wake()  # they read now: answered at once, with a 503 if Redis is away
                failing = True
            except Exception:
                log.exception("wake listener failed; restarting it")
                failing = True
            finally:
                pubsub.close()
            time.sleep(RECONNECT_PAUSE)
