"""What a request handler needs from the app: the store, the job queue, configuration,
what this process served and the wake-ups of its long-polls."""

from __future__ import annotations

from typing import NamedTuple

from flask import current_app
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


def arena() -> ArenaContext:
    return current_app.extensions["cinch"]
