"""Everything the arena keeps in Redis: the only package that knows a key name.

One module per aggregate, each owning its keys (listed in its docstring) and its Lua
scripts (``.lua`` files beside it, read once at import and registered once per Store):

    base         the client, the prefix, the Lua loader; the server's secret
    deals        deal sets published for the workers
    tournaments  tournaments, their matches, leases, jobs, claims and board pairs
    listing      the indexes that list tournaments by page (filters, names, status, a
                 bot's matches, leaders), kept by ``tournaments``' writes
    ratings      rated comparisons, ratings and rating histories
    bots         bots and their tokens
    decisions    remote decisions, long-poll wake-ups, time banks and timeouts
    tables       casual tables
    archive      restoring exported tournaments in one transaction (owns no key)

``Store`` is all of them in one object, as callers have always used it: each repository
is a class over the same client and prefix, and ``Store`` inherits them all.
"""

from __future__ import annotations

from server.arena.store.archive import Archive, Restored
from server.arena.store.base import StoreError
from server.arena.store.bots import Bots
from server.arena.store.deals import Deals
from server.arena.store.decisions import Decisions
from server.arena.store.ratings import HISTORY_LENGTH, Ratings
from server.arena.store.tables import TableLimit, Tables, table_seats
from server.arena.store.tournaments import ACTIVE, MatchRead, Tournaments

__all__ = ["ACTIVE", "HISTORY_LENGTH", "MatchRead", "Restored", "Store", "StoreError", "TableLimit", "table_seats"]


class Store(Archive, Deals, Tournaments, Ratings, Bots, Decisions, Tables):
    """The arena's store: every aggregate's repository over one Redis client and prefix."""
