"""Ratings: the rated comparisons they are replayed from, the ratings and their histories.
This module owns their keys:

    {p}:ratings:{ruleset}         hash  bot -> rating JSON
    {p}:ratings:{ruleset}:comparisons hash comparison id -> the rated comparison's record JSON
                                        (``server.arena.ratings.record``) but its scores: what the ratings
                                        are replayed from
    {p}:ratings:{ruleset}:scores  hash  comparison id -> its scores JSON, [[board, X's score], ...]
    {p}:ratings:{ruleset}:after   hash  comparison id -> [X's, Y's] rating JSON after it in the last
                                        replay, or null when it owned no new board pair
    {p}:ratings:{ruleset}:history:{bot} list the bot's rating after each comparison that moved it, in
                                        canonical order: JSON {t, mu, sigma, rating, match}; the last
                                        HISTORY_LENGTH kept
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from server.arena.ratings import replay, shown
from server.arena.store.base import StoreBase, decoded

HISTORY_LENGTH = 1000
"""Rating history points kept per bot and ruleset: a bot's chart shows its last 1,000
rating changes (a rated comparison each, in canonical order); older points are dropped."""


class _Decoded(Mapping):
    """A hash's values decoded from JSON when read: a refresh needs every comparison's
    presence in ``after`` but the ratings of only a few."""

    def __init__(self, raw: dict[str, bytes]):
        self.raw = raw

    def __getitem__(self, key: str) -> Any:
        return json.loads(self.raw[key])

    def __contains__(self, key: object) -> bool:
        return key in self.raw

    def __iter__(self) -> Iterator[str]:
        return iter(self.raw)

    def __len__(self) -> int:
        return len(self.raw)


class Ratings(StoreBase):
    history_length = HISTORY_LENGTH

    def add_comparisons(self, ruleset: str, records: Iterable[dict[str, Any]]) -> int:
        """Store rated comparisons (``server.arena.ratings.record``), each once whoever stores it
        (HSETNX: a retried job or the supervisor's follow-up adds nothing); returns how
        many were new. The scores go to a hash of their own, so that a refresh reads every
        comparison's head but only the scores it needs. ``refresh_ratings`` then brings
        the ratings up to date."""
        heads, scores = self.key("ratings", ruleset, "comparisons"), self.key("ratings", ruleset, "scores")
        pipe = self.redis.pipeline(transaction=True)
        for record in records:
            head = {k: v for k, v in record.items() if k != "scores"}
            pipe.hsetnx(heads, record["id"], json.dumps(head, separators=(",", ":")))
            pipe.hsetnx(scores, record["id"], json.dumps(record["scores"], separators=(",", ":")))
        return sum(pipe.execute()[::2])

    def comparisons(self, ruleset: str) -> dict[str, dict[str, Any]]:
        """Every stored comparison of a ruleset, by id, without its scores."""
        return {
            decoded(k): json.loads(v)
            for k, v in self.redis.hgetall(self.key("ratings", ruleset, "comparisons")).items()
        }

    def refresh_ratings(self, ruleset: str) -> None:
        """Make the ratings and histories of a ruleset the replay of every stored comparison
        in canonical order (``server.arena.ratings.replay``), if some are not reflected yet.

        The ``after`` hash holds each reflected comparison's ratings, so the replay starts
        at the first new comparison in canonical order and only the history points from
        there on are rewritten. Optimistic transaction watching the comparisons and
        ``after``: a comparison stored meanwhile, or another worker's refresh, makes this
        one start again from what is then stored, so two workers finishing at once both
        end up counted, each once, and the result does not depend on who wrote last."""
        stored, after = self.key("ratings", ruleset, "comparisons"), self.key("ratings", ruleset, "after")
        ratings, scores = self.key("ratings", ruleset), self.key("ratings", ruleset, "scores")

        def attempt(pipe) -> None:
            if pipe.hlen(stored) == pipe.hlen(after):
                return
            known = _Decoded({k.decode(): v for k, v in pipe.hgetall(after).items()})
            done = replay(
                [json.loads(v) for v in pipe.hvals(stored)],
                known,
                lambda ids: dict(zip(ids, map(json.loads, pipe.hmget(scores, ids) if ids else []))),
            )
            if not done.redone:  # read across another refresh: the watch has fired, so the
                return  # empty EXEC fails and this attempt starts again
            pipe.multi()
            pipe.hset(after, mapping={r["id"]: json.dumps(done.after[r["id"]]) for r in done.redone})
            for bot in sorted({b for r in done.redone for b in (r["x"], r["y"])}):
                history = self.key("ratings", ruleset, "history", bot)
                mine = [(r, done.after[r["id"]], r["y"] == bot) for r in done.redone if bot in (r["x"], r["y"])]
                stale = sum(1 for r, _, _ in mine if known.get(r["id"]))
                if stale:  # the points of redone comparisons, at the list's end
                    pipe.ltrim(history, 0, -stale - 1)
                points = [
                    json.dumps({"t": r["t"], **shown(new[side]), "match": r["id"]}) for r, new, side in mine if new
                ]
                if points:
                    pipe.rpush(history, *points)
                    pipe.ltrim(history, -self.history_length, -1)
                if bot in done.ratings:
                    pipe.hset(ratings, bot, json.dumps(done.ratings[bot]))
                else:
                    pipe.hdel(ratings, bot)

        self.redis.transaction(attempt, stored, after)

    def counted(self, ruleset: str, ids: list[str]) -> set[str]:
        """Those of ``ids`` that move the ratings: reflected, and owning a board pair."""
        if not ids:
            return set()
        values = self.redis.hmget(self.key("ratings", ruleset, "after"), ids)
        return {cid for cid, raw in zip(ids, values) if raw is not None and json.loads(raw) is not None}

    def legacy_ratings(self, ruleset: str) -> bool:
        """Whether the ruleset's ratings were written by incremental updates, before the
        comparisons were stored: they must be rebuilt from the stored board pairs."""
        return bool(self.redis.exists(self.key("ratings", ruleset, "applied")))

    def rating_rulesets(self) -> list[str]:
        """Rulesets that have ratings stored."""
        prefix = self.key("ratings", "")
        return sorted({k.decode()[len(prefix) :].split(":")[0] for k in self.redis.scan_iter(match=prefix + "*")})

    def clear_ratings(self, ruleset: str) -> None:
        """Forget a ruleset's ratings, histories and stored comparisons (and the sets the
        incremental updates kept, ``applied`` and ``evidence``)."""
        histories = self.redis.scan_iter(match=self.key("ratings", ruleset, "history", "*"))
        self.redis.delete(
            *[
                self.key("ratings", ruleset, *part)
                for part in ((), ("comparisons",), ("scores",), ("after",), ("applied",), ("evidence",))
            ],
            *histories,
        )

    def rating_history(self, ruleset: str, bots: Iterable[str], last: int = 0) -> dict[str, list[dict[str, Any]]]:
        """Each bot's rating history in ``ruleset``, oldest point first (the last ``last``
        points when positive), in one round trip: the leaderboard charts every bot's."""
        names = list(bots)
        pipe = self.redis.pipeline(transaction=False)
        for bot in names:
            pipe.lrange(self.key("ratings", ruleset, "history", bot), -last if last > 0 else 0, -1)
        return {bot: [json.loads(p) for p in points] for bot, points in zip(names, pipe.execute())}

    def ratings(self, ruleset: str) -> dict[str, dict[str, Any]]:
        return {decoded(b): json.loads(r) for b, r in self.redis.hgetall(self.key("ratings", ruleset)).items()}
