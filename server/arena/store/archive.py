"""Restoring exported tournaments in one transaction. This module owns no key: each
aggregate queues the writes of its own keys (``restore_tournament``, ``restore_match_remote``,
``restore_comparisons``, ``restore_dealset``, ``restore_bot``), and ``restore`` runs them
all in one MULTI/EXEC under a WATCH of every key it decided on, so a restore is written
whole or not at all, and a tournament stored meanwhile under one of its ids makes it
check again (and refuse) rather than overwrite it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from server.arena.dealsets import DealSet
from server.arena.store.bots import Bots
from server.arena.store.deals import Deals
from server.arena.store.decisions import Decisions
from server.arena.store.ratings import Ratings
from server.arena.store.tournaments import Tournaments
from server.errors import Conflict


@dataclass
class Restored:
    """One tournament to restore: its dump (``Tournaments.tournament_dump``), its matches
    (``match_dump`` with ``timeouts`` and ``faulty`` from ``match_remote_dump``) and its
    rated comparisons (``Ratings.comparisons_of``) under its ruleset."""

    tournament: dict[str, Any]
    matches: list[dict[str, Any]]
    ruleset: str
    comparisons: list[dict[str, Any]] = field(default_factory=list)

    @property
    def id(self) -> str:
        return str(self.tournament["id"])


class Archive(Deals, Tournaments, Ratings, Bots, Decisions):
    def restore(
        self, tournaments: list[Restored], bots: list[dict[str, Any]], deals: list[DealSet], skip_existing: bool = False
    ) -> list[str]:
        """Store ``tournaments`` under their own ids, the ``bots`` not stored yet (without
        tokens) and the deal sets not stored yet, in one transaction; returns the ids
        written. A tournament id (or one of its match ids) already stored is refused with
        Conflict and nothing is written, or with ``skip_existing`` left as it is (and its
        comparisons too). A different deal set stored under a name is refused likewise.
        The ratings are not refitted here: the caller refreshes them (``refresh_ratings``)."""
        guarded = [k for t in tournaments for k in self.tournament_keys(t.id, [m["id"] for m in t.matches])]
        watched = [
            *guarded,
            self.counter_key(),
            *(self.bot_key(b["name"]) for b in bots),
            *(self.dealset_key(d.name) for d in deals),
        ]

        written: list[str] = []

        def attempt(pipe: Any) -> None:
            taken = [
                t.id for t in tournaments if pipe.exists(*self.tournament_keys(t.id, [m["id"] for m in t.matches]))
            ]
            if taken and not skip_existing:
                raise Conflict(
                    f"tournament {', '.join(taken)} is already stored here: nothing imported "
                    "(--skip-existing imports the others and leaves those as they are)"
                )
            chosen = [t for t in tournaments if t.id not in taken]
            new_deals = [d for d in deals if not self.dealset_stored(pipe, d)]
            new_bots = [b for b in bots if not pipe.exists(self.bot_key(b["name"]))]
            counter = self.tournament_counter(pipe)
            pipe.multi()
            for d in new_deals:
                self.restore_dealset(pipe, d)
            for b in new_bots:
                self.restore_bot(pipe, b)
            for t in chosen:
                self.restore_tournament(pipe, t.tournament, t.matches)
                for m in t.matches:
                    self.restore_match_remote(pipe, m["id"], m["timeouts"], m["faulty"])
                self.restore_comparisons(pipe, t.ruleset, t.comparisons)
            numbers = [int(t.id[1:]) for t in chosen]
            if numbers and max(numbers) > counter:
                self.set_tournament_counter(pipe, max(numbers))
            written[:] = [t.id for t in chosen]  # a retry after a WATCH fired decides again

        self.redis.transaction(attempt, *watched)
        return written
