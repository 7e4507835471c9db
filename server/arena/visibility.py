"""The one visibility rule: nothing derived from a board is shown before the board is
finished everywhere it is played.

A tournament's matches play the same boards (every pair of a round robin, every table of
a Progressive round, every entrant of a blind movement), so a score, a running total, a
won/tied/lost count or a table's result reveals a board as surely as its cards do. The read
model (API, pages, ``cinch remote``) reads a running tournament through ``gated``: the store
as it would look if only the boards finished in every match that plays them were stored.
Live progress may still count boards played; it never scores them.
"""

from __future__ import annotations

from typing import Any, cast

from server.arena.store import Store


def finished_boards(store: Store, tid: str) -> set[int]:
    """Boards stored by every match of the tournament that plays them (a match decided by
    its sequential test, ``complete`` short of its last board, never plays the rest)."""
    playing: dict[int, bool] = {}
    for mid in store.match_ids(tid):
        match = store.match(mid)
        stored = store.stored_boards(mid)
        for board in range(match["first"], match["last"] + 1):
            if board in stored:
                playing.setdefault(board, True)
            elif match["status"] != "complete":
                playing[board] = False
    return {board for board, done in playing.items() if done}


class _Gated:
    """A read-only view of the store that hides every board not yet finished everywhere."""

    def __init__(self, store: Store, visible: set[int]):
        self._store, self._visible = store, visible

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    def scores(self, mid: str) -> dict[int, int | float]:
        return {b: s for b, s in self._store.scores(mid).items() if b in self._visible}

    def entrant_scores(self, mid: str) -> dict[int, list[int | float]]:
        return {b: s for b, s in self._store.entrant_scores(mid).items() if b in self._visible}

    def lucks(self, mid: str) -> dict[int, float]:
        return {b: v for b, v in self._store.lucks(mid).items() if b in self._visible}

    def stored_boards(self, mid: str) -> set[int]:
        return self._store.stored_boards(mid) & self._visible

    def pair(self, mid: str, board: int) -> dict[str, Any] | None:
        return self._store.pair(mid, board) if board in self._visible else None


def gated(store: Store, tid: str) -> Store:
    """The store as anyone but the operator may read tournament ``tid``: a finished
    tournament whole, a running one only on its boards finished everywhere."""
    if store.tournament(tid)["status"] == "finished":
        return store
    return cast(Store, _Gated(store, finished_boards(store, tid)))
