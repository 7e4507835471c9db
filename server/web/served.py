"""What this API process needs to judge answers to the decisions it has served.

A decision's bot, legal actions and seat never change, so a process that handed a
decision to a bot can judge the bot's answer without reading the decision back from
Redis; a bot's keep-alive connection usually brings the answer to the same process.
The store still checks the token, the owner, the status and the deadline atomically
when it accepts the answer, so a stale or missing entry costs a round trip, never
correctness.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from typing import Any, NamedTuple


class Served(NamedTuple):
    bot: str
    legal: list[dict[str, Any]]
    seat: str


class ServedDecisions:
    """A bounded, thread-safe map from decision id to ``Served`` (oldest dropped first)."""

    def __init__(self, capacity: int = 10_000):
        self.capacity = capacity
        self._items: OrderedDict[str, Served] = OrderedDict()
        self._lock = threading.Lock()

    def remember(self, bot: str, requests: list[str]) -> list[str]:
        """Note each request (the JSON served to ``bot``) and pass the list on."""
        for raw in requests:
            request = json.loads(raw)
            entry = Served(bot, request["legal"], request["observation"]["seat"])
            with self._lock:
                self._items[request["id"]] = entry
                if len(self._items) > self.capacity:
                    self._items.popitem(last=False)
        return requests

    def get(self, did: str) -> Served | None:
        with self._lock:
            return self._items.get(did)

    def forget(self, did: str) -> None:
        with self._lock:
            self._items.pop(did, None)
