"""A remote seat as an agent: a decision request in Redis, answered through the API.

The worker calls ``decide`` like any agent's. It publishes the request (an opaque id,
the observation, the legal actions and the deadline; no match, board or room), blocks
until the API has accepted a legal answer for it, and returns that answer. Time: each
decision gets the per-decision limit plus what is left of the bot's time bank for the
match; time used beyond the limit is taken from the bank. A decision that passes its
deadline raises ``DecisionTimeout``, for which the match runner applies the default
action and records a fault; a bot with more than ``max_timeouts`` in a match is marked
faulty and is no longer waited for, so the match always completes.

Before each room of a duplicate board the match runner calls ``new_hand(key)``; the
agent then shows that room under the colour-preserving suit relabeling that the
arena's secret picks for the key, and maps the bot's answers back to real suits.
"""

from __future__ import annotations

import time
from typing import Any

from .engine.relabel import inverse, relabeling_for, translate
from .store import Store

DEFAULT_LIMITS = {"decision_ms": 5000, "bank_ms": 60000, "max_timeouts": 3}


class DecisionTimeout(Exception):
    """The bot did not answer in time (or is faulty and no longer waited for)."""


class RemoteAgent:
    def __init__(self, store: Store, bot: str, match_id: str, limits: dict[str, int] | None = None):
        self.store, self.bot, self.match_id = store, bot, match_id
        self.limits = {**DEFAULT_LIMITS, **(limits or {})}
        self.mapping: dict[str, str] | None = None

    def new_hand(self, key: str) -> None:
        """A new room begins: show it under the suit relabeling the arena's secret picks for it."""
        self.mapping = relabeling_for(self.store.secret(), key)

    def decide(self, observation: dict[str, Any]) -> dict[str, Any]:
        """The bot's answer in real suits; the bot sees the room relabeled (if ``new_hand`` said so)."""
        if self.mapping is None:
            return self._ask(observation)
        return translate(self._ask(translate(observation, self.mapping)), inverse(self.mapping))

    def _ask(self, observation: dict[str, Any]) -> dict[str, Any]:
        store, bot, mid = self.store, self.bot, self.match_id
        opened = store.ask(bot, mid, observation, self.limits["decision_ms"], self.limits["bank_ms"])
        clock = time.monotonic()
        if opened is None:
            raise DecisionTimeout(f"{bot} is faulty in this match: default action")
        did, start, deadline = opened
        answer = store.await_answer(did, bot, deadline, start)
        over = time.monotonic() - clock - self.limits["decision_ms"] / 1000
        if over > 0:
            store.spend_bank(mid, bot, int(over * 1000))
        if answer is None:
            if store.add_timeout(mid, bot) > self.limits["max_timeouts"]:
                store.mark_faulty(mid, bot)
            raise DecisionTimeout(f"{bot} did not answer in time")
        return answer
