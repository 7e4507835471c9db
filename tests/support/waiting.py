"""Waits bounded by progress, not by the clock.

On a loaded machine (CI beside other jobs, two cores shared by several test runs) the same
work takes many times as long as on an idle one, so a fixed total deadline fails tests that
were getting there. A wait here fails only once what it watches has stopped moving: ``STALL``
seconds without a change in its progress (boards stored, a status, a log that grows). A wait
with nothing to watch but its own condition gets ``STALL`` seconds in all.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, TypeVar

from server.arena.settings import LEASE_MS
from server.arena.store import Store
from workers.driver import watch

STALL = 60.0

T = TypeVar("T")


class Stall:
    """Shown the progress of a wait again and again, fails the test once it has not
    changed for ``stall`` seconds."""

    def __init__(self, what: str, stall: float = STALL):
        self.what, self.stall = what, stall
        self.last: object = Stall  # no progress seen yet: the first one shown is a change
        self.moved = time.monotonic()

    def __call__(self, progress: object) -> None:
        now = time.monotonic()
        if progress != self.last:
            self.last, self.moved = progress, now
        elif now - self.moved > self.stall:
            raise AssertionError(
                f"timed out waiting for {self.what}: nothing moved for {self.stall:.0f} s (at {progress!r})"
            )


def wait_for(
    done: Callable[[], T],
    what: str,
    progress: Callable[[], object] | None = None,
    stall: float = STALL,
    poll: float = 0.05,
) -> T:
    """Poll ``done`` until it is truthy and return its value; fail once ``progress`` has
    returned the same value for ``stall`` seconds (without it, once ``stall`` seconds pass)."""
    stalled = Stall(what, stall)
    while not (value := done()):
        stalled(progress() if progress is not None else None)
        time.sleep(poll)
    return value


def tournament_progress(store: Store, tid: str, driver: str | None = None) -> Callable[[], tuple[str, int]]:
    """A tournament's progress (its status and board pairs stored) for ``wait_for``. Given
    its ``driver``, each look also renews that driver's lease, as the driver's own ``watch``
    would: a test waiting longer than ``LEASE_MS`` before it watches would otherwise see the
    tournament interrupted and its workers stop playing it."""

    def progress() -> tuple[str, int]:
        if driver is not None:
            store.hold_lease(tid, driver, LEASE_MS)
        t = store.tournament(tid)
        return t["status"], t["pairs_done"]

    return progress


def watch_progressing(
    store: Store,
    queue,
    tid: str,
    driver: str,
    on_progress: Callable[[dict[str, Any]], None] | None = None,
    stall: float = STALL,
    **kwargs: Any,
) -> dict[str, Any]:
    """``workers.driver.watch`` to the end, failing the test once the tournament has stored
    no board pair (nor changed status) for ``stall`` seconds rather than after a fixed total."""
    stalled = Stall(f"tournament {tid} to finish", stall)

    def look(t: dict[str, Any]) -> None:
        stalled((t["status"], t["pairs_done"]))
        if on_progress is not None:
            on_progress(t)

    return watch(store, queue, tid, driver, on_progress=look, **kwargs)
