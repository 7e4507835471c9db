"""What a running bot shows its author, and when it is done.

``Progress`` watches a ``Runner`` from a thread: every ``every`` seconds it reads the
tournaments the bot is entered in (``GET /api/v1/tournaments``, the bot's name from
``GET /api/v1/bots/me``) and writes one short line when anything changed, e.g.::

    cinch: my-bot: 182 answered, 1 defaulted, 0 missed | t4 running 12/48, t3 finished

*Defaulted* counts decisions answered with the first legal action because the bot
raised or answered illegally; *missed* those whose answer did not arrive in time (the
server applied its default). With ``until_done`` it stops the runner once it has seen
a tournament of this run (one that was queued or running while it watched, or that
appeared after it started) and none the bot is entered in is queued or running any
more; tournaments that had ended before the runner started do not count, so a bot with
a history does not stop at once.
"""

from __future__ import annotations

import logging
import sys
import threading
from typing import TextIO

from sdk.client import Client
from sdk.errors import SdkError
from sdk.models import Tournament
from sdk.runner import Runner

log = logging.getLogger("cinch.sdk")

ACTIVE = ("queued", "running")  # every other status (finished, cancelled, failed, ...) has ended


def entered(tournaments: list[Tournament], name: str) -> list[Tournament]:
    return [t for t in tournaments if name in t.players]


def line(name: str, stats: dict[str, int], tournaments: list[Tournament]) -> str:
    """One line of progress: the runner's counters and the bot's tournaments, newest first."""
    defaulted = stats.get("illegal", 0) + stats.get("bot_errors", 0)
    missed = stats.get("expired", 0) + stats.get("undelivered", 0)
    text = f"{name}: {stats.get('answered', 0)} answered, {defaulted} defaulted, {missed} missed"
    shown = [
        f"{t.id} {t.status}" + (f" {t.pairs_done}/{t.pairs_total}" if t.status in ACTIVE else "")
        for t in reversed(tournaments[-5:])
    ]
    return text + (" | " + ", ".join(shown) if shown else " | no tournaments yet")


class Progress(threading.Thread):
    def __init__(
        self,
        runner: Runner,
        client: Client,
        *,
        every: float = 3.0,
        until_done: bool = False,
        out: TextIO | None = sys.stderr,
    ):
        """``out`` None: no lines (``until_done`` still works)."""
        super().__init__(name="cinch-progress", daemon=True)
        self.runner, self.client, self.every, self.until_done, self.out = runner, client, every, until_done, out
        self.done = False
        self._before: set[str] | None = None  # ids already over when the runner started
        self._ours: set[str] = set()  # ids of this run's tournaments

    def run(self) -> None:
        name, last = None, None
        while not self.runner.stopping:
            try:
                name = name or self.client.me().name
                mine = entered(self.client.tournaments(bot=name), name)
            except SdkError as exc:
                log.debug("progress: %s", exc)  # the runner reports connection trouble itself
            else:
                text = line(name, dict(self.runner.stats), mine)
                if text != last:
                    self._show(text)
                    last = text
                if self.until_done and self._finished(mine):
                    self._show(f"{name}: every tournament it is entered in has ended; stopping")
                    self.done = True
                    self.runner.stop()
                    return
            self.runner.wait_stop(self.every)

    def _show(self, text: str) -> None:
        if self.out is not None:
            print(f"cinch: {text}", file=self.out, flush=True)

    def _finished(self, mine: list[Tournament]) -> bool:
        """True once this run's tournaments exist and none is queued or running."""
        if self._before is None:
            self._before = {t.id for t in mine if t.status not in ACTIVE}
        self._ours.update(t.id for t in mine if t.status in ACTIVE or t.id not in self._before)
        return bool(self._ours) and not any(t.status in ACTIVE for t in mine)
