"""An arena seeded for page tests by really playing: small tournaments of every format (round
robin, gauntlet, blind, progressive) in several rulesets and table sizes (american62, snoozer at
four and five, widow_cinch, auction_cinch at five), one tournament left half played (boards
played in some matches only, so hidden), and finished tables. Everything is played in the
test's process by the workers' own functions (``play_chunk_with``, ``play_table_with``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rq import Queue

from server.arena.settings import LEASE_MS
from server.arena.store import Store
from workers.driver import start
from workers.jobs import play_chunk_with
from workers.table import play_table_with

TOURNAMENTS: dict[str, dict[str, Any]] = {
    "round robin american62": {"ruleset": "american62", "bots": ["random", "rule", "search"], "boards": 2, "chunk": 2},
    "round robin snoozer at four": {
        "ruleset": "snoozer",
        "options": {"players": 4},
        "bots": ["random", "rule", "search", "search-play"],
        "boards": 1,
    },
    "gauntlet widow_cinch": {
        "format": "gauntlet",
        "ruleset": "widow_cinch",
        "candidates": ["random"],
        "references": ["rule", "search"],
        "boards": 1,
    },
    "blind snoozer at five": {
        "format": "blind",
        "ruleset": "snoozer",
        "options": {"players": 5},
        "bots": ["random", "search"],
        "boards": 1,
    },
    "blind auction_cinch at five": {
        "format": "blind",
        "ruleset": "auction_cinch",
        "options": {"players": 5},
        "bots": ["random"],
        "boards": 1,
    },
    # five entrants: a table of four and a table filled with house bots (rule#h1 ...)
    "progressive": {"format": "progressive", "bots": ["random", "rule", "search", "random#2", "rule#2"], "rounds": 2},
}
DRIVER = "test"  # who the seeding holds each lease as
HALF_PLAYED = {"bots": ["random", "rule", "search-play"], "boards": 2, "chunk": 1}
TABLES = [
    ("snoozer", {"players": 5}, {"P1": "rule", "P2": "random", "P3": "rule", "P4": "random", "P5": "search"}),
    ("american62", {}, {"N": "rule", "E": "random", "S": "rule", "W": "random"}),
]


@dataclass
class Seeded:
    tournaments: dict[str, str]  # name in TOURNAMENTS: id, each finished
    half: str  # the half-played round robin
    hidden_match: str  # its match whose boards are played but hidden
    tables: list[str] = field(default_factory=list)  # finished tables

    @property
    def all_tournaments(self) -> list[str]:
        return [*self.tournaments.values(), self.half]


def play_out(store: Store, queue: Queue, tid: str) -> None:
    """Play every match of ``tid`` to the end in this process, Progressive's later rounds as
    they are seated (``play_chunk_with`` seats a round's successors when it completes it).
    The lease is renewed before each match, as a driver's watch does: on a loaded machine the
    seeding outlasts one lease, and a lapsed one reads as interrupted."""
    for _ in range(20):
        if store.tournament(tid)["status"] == "finished":
            return
        for mid in store.match_ids(tid):
            store.hold_lease(tid, DRIVER, LEASE_MS)
            match = store.match(mid)
            play_chunk_with(store, mid, match["first"], match["last"], queue=queue)
    raise AssertionError(f"tournament {tid} did not finish: {store.tournament(tid)['status']}")


def seed(store: Store, queue: Queue, create_table: Callable[[str, dict[str, Any], dict[str, str]], str]) -> Seeded:
    """Fill the store; ``create_table(ruleset, options, seats)`` creates a table (over the API)
    and answers its id."""
    tids = {}
    for name, request in TOURNAMENTS.items():  # each started when it is played: its lease runs from then
        tids[name] = start(store, queue, request, DRIVER)
        play_out(store, queue, tids[name])
    half = start(store, queue, HALF_PLAYED, DRIVER)
    first, second, _ = store.match_ids(half)
    play_chunk_with(store, first, 1, 2)  # boards 1 and 2 played in one match, board 1 in another: hidden
    play_chunk_with(store, second, 1, 1)
    seeded = Seeded(tids, half, first)
    for ruleset, options, seats in TABLES:
        tid = create_table(ruleset, options, seats)
        play_table_with(store, tid)
        if store.table(tid)["status"] != "finished":
            raise AssertionError(f"table {tid} did not finish")
        seeded.tables.append(tid)
    return seeded
