"""What a request handler needs from the app: the store, the job queue, configuration,
what this process served, the wake-ups of its long-polls, and the Redis client ``/ready``
asks (a pool of its own: a probe never queues behind a burst of requests for a connection)."""

from __future__ import annotations

from typing import NamedTuple

from flask import current_app
from redis import Redis
from rq import Queue

from server.arena.store import Store
from server.config import Config
from server.web.served import ServedDecisions
from server.web.waker import Waker


class ArenaContext(NamedTuple):
    store: Store
    queue: Queue
    config: Config
    served: ServedDecisions
    waker: Waker
    health: Redis


def arena() -> ArenaContext:
    return current_app.extensions["cinch"]
