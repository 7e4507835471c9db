"""What pages drew (sparklines, rating charts, the head-to-head table), kept by the
version of what it was drawn from, so a page draws it again only when that changes.

A leaderboard draws a sparkline for each of its hundred bots and a bot's page a chart of
up to 200 points for each of its rulesets, from rating histories that change only when
the ratings are refreshed, a few times an hour in a busy league, while the pages are
read far more often. ``Store.ratings_versions`` gives a random token that every refresh
replaces in its own transaction; a drawing kept under the token it was drawn at is
therefore the drawing of the current histories exactly when the token is still current,
and is drawn again otherwise. The token is random, so a drawing kept from another store
(tests start many, with the same prefix) is never taken for this one's. A drawing that
is a function of a few values alone (a bot's head-to-head rows) is kept with those
values as its version.

Kept in the process (each of gunicorn's has its own), the least recently used dropped
past ``MOST`` drawings.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from typing import TypeVar

T = TypeVar("T")

MOST = 5000
"""Drawings kept: a sparkline and a chart for each of 100 bots in a few rulesets, with room."""

_kept: OrderedDict[Hashable, tuple[str, object]] = OrderedDict()
_lock = threading.Lock()


def drawn(wanted: Sequence[tuple[Hashable, str]], draw: Callable[[list[int]], list[T]]) -> list[T]:
    """For each (key, version) wanted, the drawing kept under the key if it was drawn at
    that version; the others drawn by ``draw`` (given their places in ``wanted``, it
    answers their drawings in that order: one read for all of them) and kept."""
    found: list[object] = []
    missing: list[int] = []
    with _lock:  # a server's threads share what is kept; drawing is done outside the lock
        for i, (key, version) in enumerate(wanted):
            kept = _kept.get(key)
            if kept is not None and kept[0] == version:
                _kept.move_to_end(key)
                found.append(kept[1])
            else:
                found.append(None)
                missing.append(i)
    values = draw(missing) if missing else []
    with _lock:
        for i, value in zip(missing, values):
            key, version = wanted[i]
            found[i] = value
            _kept[key] = (version, value)
            _kept.move_to_end(key)
        while len(_kept) > MOST:
            _kept.popitem(last=False)
    return found  # type: ignore[return-value]
