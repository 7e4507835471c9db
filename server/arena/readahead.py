"""A read-only view of the store that answers the reads of many matches from a few round trips.

A page that shows many matches (a tournament's, a bot's page of them) serves each one as
``match_view`` does, which reads the match's spec, scores, lucks, timeouts and faulty
bots, its tournament and the arena's secret one round trip at a time: about a dozen a
match, some 240 for a bot's page of 20, which was most of its time on a busy machine.
``read_ahead`` reads all of them first (``Store.match_reads``, ``Store.remote_reads``,
``Store.tournaments_of``: one pipeline each) and answers those reads from what it read;
every other read, and any match it was not given, goes to the store.

It is a snapshot of one request, never kept: what it answers was stored when the
request began, as a read one round trip at a time would have found it a little later.
The visibility gate (``server.arena.visibility.gated``) wraps it like the store, and
computes the boards finished everywhere from the same snapshot it filters.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, cast

from server.arena.store import MatchRead, Store


class _ReadAhead:
    """The store, with the per-match reads of ``match_view`` answered from one snapshot."""

    def __init__(
        self,
        store: Store,
        matches: dict[str, MatchRead],
        remote: dict[str, tuple[dict[str, int], set[str]]],
        tournaments: dict[str, dict[str, Any]],
        secret: bytes,
    ):
        self._store, self._matches, self._remote = store, matches, remote
        self._tournaments, self._secret = tournaments, secret

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    def match(self, mid: str) -> dict[str, Any]:
        read = self._matches.get(mid)
        return self._store.match(mid) if read is None else {**read.match}

    def entrant_scores(self, mid: str) -> dict[int, list[int | float]]:
        read = self._matches.get(mid)
        return self._store.entrant_scores(mid) if read is None else dict(read.entrant_scores)

    scores = Store.scores
    """The store's own: X's score of each board, from ``entrant_scores`` above."""

    def lucks(self, mid: str) -> dict[int, float]:
        read = self._matches.get(mid)
        return self._store.lucks(mid) if read is None else dict(read.lucks)

    def stored_boards(self, mid: str) -> set[int]:
        read = self._matches.get(mid)
        return self._store.stored_boards(mid) if read is None else set(read.entrant_scores)

    def timeouts(self, mid: str) -> dict[str, int]:
        remote = self._remote.get(mid)
        return self._store.timeouts(mid) if remote is None else dict(remote[0])

    def is_faulty(self, mid: str, bot: str) -> bool:
        remote = self._remote.get(mid)
        return self._store.is_faulty(mid, bot) if remote is None else bot in remote[1]

    def tournament(self, tid: str) -> dict[str, Any]:
        t = self._tournaments.get(tid)
        return self._store.tournament(tid) if t is None else {**t}

    def secret(self) -> bytes:
        return self._secret


def read_ahead(store: Store, mids: Iterable[str]) -> Store:
    """The store as ``match_view`` reads it for these matches, read in a few round trips
    (a match that names nothing is left to the store, which says so when it is read)."""
    wanted = list(dict.fromkeys(mids))
    matches = store.match_reads(wanted)
    remote = store.remote_reads(list(matches))
    tids = sorted({read.match["tournament"] for read in matches.values()})
    tournaments = dict(zip(tids, store.tournaments_of(tids)))
    return cast(Store, _ReadAhead(store, matches, remote, tournaments, store.secret()))
