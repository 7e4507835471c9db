"""A remote seat as an agent: a decision request in Redis, answered through the API.

The worker calls ``decide`` like any agent's. It publishes the request (an opaque id,
the observation, the legal actions and the deadline; no match, board or room), blocks
until the API has accepted a legal answer for it, and returns that answer.

Time: the bot is shown the per-decision limit only (``deadline`` = opened +
``decision_ms``), the same for every decision of every match, so how much of a match's
time bank is left cannot mark the match. The server really waits the limit plus what
is left of the bot's time bank for the match (a silent grace), and time used beyond
the limit is taken from the bank. A decision that passes that real deadline raises
``DecisionTimeout``, for which the match runner applies the default action and records
a fault; a bot with more than ``max_timeouts`` in a match is marked faulty and is no
longer waited for, so the match always completes.

Before each room of a duplicate board the match runner calls ``new_hand(key)``; the
agent then shows that room through the ``View`` that the arena's secret picks for the
key (a colour-preserving suit relabeling and a rotation of the table, so neither the
cards nor the seat mark the room) and maps the bot's answers back to the real suits
and seats. The decision is stored as shown: its seat and legal actions are in the
bot's frame, which is the frame its answer is judged in. Without ``new_hand`` (tables)
the bot sees the real table.
"""

from __future__ import annotations

import time
from typing import Any

from server import logs
from server.arena.settings import DEFAULT_LIMITS
from server.arena.store import Store
from server.engine.relabel import View, view_for
from server.metrics import DECISION_SECONDS, DECISION_TIMEOUTS, DECISIONS_ANSWERED, DECISIONS_SERVED

log = logs.logger("remote")


class DecisionTimeout(Exception):
    """The bot did not answer in time (or is faulty and no longer waited for: ``faulty``)."""

    def __init__(self, message: str, faulty: bool = False):
        super().__init__(message)
        self.faulty = faulty


class ViewedSeat:
    """A seat whose bot sees each room through the view the arena's secret picks for it
    (see the module docstring); subclasses ask their bot in ``_ask``, in the bot's frame.
    Local bots (``workers.local_bot``) share it, so they see what a remote bot sees."""

    def __init__(self, store: Store):
        self.store = store
        self.view: View | None = None

    def new_hand(self, key: str) -> None:
        """A new room begins: show it through the view the arena's secret picks for it."""
        self.view = view_for(self.store.secret(), key)

    def decide(self, observation: dict[str, Any]) -> dict[str, Any]:
        """The bot's answer in real suits and seats; the bot sees the room through its
        view (if ``new_hand`` gave one)."""
        if self.view is None:
            return self._ask(observation)
        return self.view.back(self._ask(self.view.show(observation)))

    def _ask(self, observation: dict[str, Any]) -> dict[str, Any]:
        raise NotImplementedError

    def close(self) -> None:
        """The job that made the seat is done with it (``workers.jobs``): release what it holds."""


class RemoteAgent(ViewedSeat):
    def __init__(self, store: Store, bot: str, match_id: str, limits: dict[str, int] | None = None):
        super().__init__(store)
        self.bot, self.match_id = bot, match_id
        self.limits = {**DEFAULT_LIMITS, **(limits or {})}

    def _ask(self, observation: dict[str, Any]) -> dict[str, Any]:
        store, bot, mid = self.store, self.bot, self.match_id
        opened = store.ask(bot, mid, observation, self.limits["decision_ms"], self.limits["bank_ms"])
        clock = time.monotonic()
        if opened is None:
            raise DecisionTimeout(f"{bot} is faulty in this match: default action", faulty=True)
        did, start, deadline = opened
        DECISIONS_SERVED.inc()
        answer = store.await_answer(did, bot, deadline, start)
        took = time.monotonic() - clock
        over = took - self.limits["decision_ms"] / 1000
        if over > 0:
            store.spend_bank(mid, bot, int(over * 1000))
        if answer is None:
            DECISION_TIMEOUTS.inc()
            timeouts = store.add_timeout(mid, bot)
            log.warning("bot %s did not answer decision %s in time (timeout %d of this match)", bot, did, timeouts)
            if timeouts > self.limits["max_timeouts"]:
                store.mark_faulty(mid, bot)
                log.warning("bot %s is faulty in this match after %d timeouts: no longer waited for", bot, timeouts)
            raise DecisionTimeout(f"{bot} did not answer in time")
        DECISIONS_ANSWERED.inc()
        DECISION_SECONDS.observe(took)
        return answer
