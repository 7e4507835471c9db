"""Ratings: the rated comparisons they are fitted to, the ratings and their histories.
This module owns their keys:

    {p}:ratings:{ruleset}         hash  bot -> rating JSON (``server.arena.ratings.fit``)
    {p}:ratings:{ruleset}:comparisons hash comparison id -> the rated comparison's record JSON
                                        (``server.arena.ratings.record``) but its scores: what the ratings
                                        are fitted to
    {p}:ratings:{ruleset}:scores  hash  comparison id -> its scores JSON, [[board, X's score - Y's], ...]
    {p}:ratings:{ruleset}:fitted  hash  comparison id -> the boards it owns in the last fit (0: every one
                                        was counted by an earlier comparison)
    {p}:ratings:{ruleset}:history:{bot} list the bot's rating after each tournament that moved it, in
                                        tournament order: JSON {t, rating, se, low, high, provisional,
                                        tournament}; the last HISTORY_LENGTH kept
    {p}:ratings:{ruleset}:version string a random token, new whenever the ratings or a history change
                                        (set in the refresh's transaction; made on first read, deleted
                                        with the ratings): what a reader may cache what it drew of them by

``after`` (the openskill replay's ratings per comparison) and ``applied`` (older incremental
updates) mark ratings of an earlier model: ``legacy_ratings``.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterable
from typing import Any

from server.arena.ratings import match_of, shown, steps
from server.arena.store.base import StoreBase, decoded
from server.engine.games import GAMES

_RULESET_KEYS = ((), ("comparisons",), ("after",), ("applied",), ("evidence",))
"""A ruleset's keys of which one is there whenever it has ratings (a history is there only with them)."""

HISTORY_LENGTH = 1000
"""Rating history points kept per bot and ruleset: a bot's chart shows the ratings after
its last 1,000 rating changes (a finished tournament each); older points are dropped."""


HISTORY_TAIL = 8
"""History points a refresh reads first of each bot's history (``Ratings._history_tails``)."""


class Ratings(StoreBase):
    history_length = HISTORY_LENGTH

    def add_comparisons(self, ruleset: str, records: Iterable[dict[str, Any]]) -> list[str]:
        """Store rated comparisons (``server.arena.ratings.record``), each once whoever stores it
        (HSETNX: a retried job or the supervisor's follow-up adds nothing); returns the ids
        that were new. The scores go to a hash of their own (the heads are what a refresh
        checks first). ``refresh_ratings`` then brings the ratings up to date."""
        heads, scores = self.key("ratings", ruleset, "comparisons"), self.key("ratings", ruleset, "scores")
        listed = list(records)
        pipe = self.redis.pipeline(transaction=True)
        for record in listed:
            head = {k: v for k, v in record.items() if k != "scores"}
            pipe.hsetnx(heads, record["id"], json.dumps(head, separators=(",", ":")))
            pipe.hsetnx(scores, record["id"], json.dumps(record["scores"], separators=(",", ":")))
        return [r["id"] for r, added in zip(listed, pipe.execute()[::2]) if added]

    def comparisons_of(self, ruleset: str, mids: Iterable[str]) -> list[dict[str, Any]]:
        """The stored comparisons of these matches (``server.arena.ratings.match_of``), each
        a record with its scores, as stored: what an export carries of the ratings."""
        wanted = set(mids)
        heads = {cid: h for cid, h in self.comparisons(ruleset).items() if match_of({"id": cid}) in wanted}
        if not heads:
            return []
        ids = sorted(heads)
        raw = self.redis.hmget(self.key("ratings", ruleset, "scores"), ids)
        return [{**heads[cid], "scores": json.loads(s) if s is not None else []} for cid, s in zip(ids, raw)]

    def restore_comparisons(self, pipe: Any, ruleset: str, records: Iterable[dict[str, Any]]) -> None:
        """Queue on ``pipe`` the writes of ``add_comparisons`` (each once, HSETNX); the caller
        then refreshes the ratings (``refresh_ratings``)."""
        heads, scores = self.key("ratings", ruleset, "comparisons"), self.key("ratings", ruleset, "scores")
        for record in records:
            head = {k: v for k, v in record.items() if k != "scores"}
            pipe.hsetnx(heads, record["id"], json.dumps(head, separators=(",", ":")))
            pipe.hsetnx(scores, record["id"], json.dumps(record["scores"], separators=(",", ":")))

    def comparisons(self, ruleset: str) -> dict[str, dict[str, Any]]:
        """Every stored comparison of a ruleset, by id, without its scores."""
        return {
            decoded(k): json.loads(v)
            for k, v in self.redis.hgetall(self.key("ratings", ruleset, "comparisons")).items()
        }

    def refresh_ratings(self, ruleset: str) -> None:
        """Make the ratings of a ruleset the fit of every stored comparison
        (``server.arena.ratings.fit``), and its histories a point per bot for each tournament
        that moved its rating, if some comparisons are not reflected yet.

        The history points of the tournaments from the earliest new comparison's on are
        recomputed (usually just the newest tournament's). Optimistic transaction watching the
        comparisons and ``fitted``: a comparison stored meanwhile, or another worker's
        refresh, makes this one start again from what is then stored, so two workers
        finishing at once both end up counted, each once, and the result does not depend on
        who wrote last."""
        stored, fitted = self.key("ratings", ruleset, "comparisons"), self.key("ratings", ruleset, "fitted")
        ratings, scores = self.key("ratings", ruleset), self.key("ratings", ruleset, "scores")

        def attempt(pipe) -> None:
            heads = {decoded(k): json.loads(v) for k, v in pipe.hgetall(stored).items()}
            known = {decoded(k) for k in pipe.hkeys(fitted)}
            new = [h for cid, h in heads.items() if cid not in known]
            if not new:
                return
            since = min(h["order"][0] for h in new)
            raw = {decoded(k): json.loads(v) for k, v in pipe.hgetall(scores).items()}
            records = [{**h, "scores": raw[cid]} for cid, h in heads.items()]
            done, final = steps(records, since)
            bots = sorted({b for _, _, step in done for b in step} | {decoded(b) for b in pipe.hkeys(ratings)})
            histories = self._history_tails(ruleset, bots, since)
            pipe.multi()
            pipe.set(self.key("ratings", ruleset, "version"), secrets.token_hex(8))
            pipe.delete(fitted, ratings)
            pipe.hset(fitted, mapping=final.owned)
            if final.ratings:
                pipe.hset(ratings, mapping={b: json.dumps(r) for b, r in final.ratings.items()})
            for bot, kept in histories.items():
                key = self.key("ratings", ruleset, "history", bot)
                stale = sum(1 for p in kept if p["tournament"] >= since)
                if stale:  # the points of recomputed tournaments, at the list's end
                    pipe.ltrim(key, 0, -stale - 1)
                last = shown_of(kept[-stale - 1]) if len(kept) > stale else None
                points = []
                for number, t, step in done:
                    if bot in step and shown(step[bot]) != last:
                        last = shown(step[bot])
                        points.append(json.dumps({"t": t, **last, "tournament": number}))
                if points:
                    pipe.rpush(key, *points)
                    pipe.ltrim(key, -self.history_length, -1)

        self.redis.transaction(attempt, stored, fitted)

    def _history_tails(self, ruleset: str, bots: list[str], since: int) -> dict[str, list[dict[str, Any]]]:
        """Each bot's history points from the last one before tournament ``since`` on (all
        of them if none is before): what a refresh replaces and the point it continues
        from. Usually ``since`` is the newest tournament, and the last few points are all
        it reads, in one round trip, where whole histories were 100,000 points a refresh
        at 100 bots. (Not watched: only the refresh itself writes them.)"""
        keys = {bot: self.key("ratings", ruleset, "history", bot) for bot in bots}
        pipe = self.redis.pipeline(transaction=False)
        for key in keys.values():
            pipe.lrange(key, -HISTORY_TAIL, -1)
        tails = {bot: [json.loads(p) for p in raw] for bot, raw in zip(bots, pipe.execute())}
        short = [b for b, tail in tails.items() if len(tail) == HISTORY_TAIL and tail[0]["tournament"] >= since]
        for bot in short:  # a refresh from further back: the whole history
            tails[bot] = [json.loads(p) for p in self.redis.lrange(keys[bot], 0, -1)]
        return tails

    def counted(self, ruleset: str, ids: list[str]) -> set[str]:
        """Those of ``ids`` that rate bots: reflected in the fit, and owning a board."""
        if not ids:
            return set()
        values = self.redis.hmget(self.key("ratings", ruleset, "fitted"), ids)
        return {cid for cid, raw in zip(ids, values) if raw is not None and int(raw) > 0}

    def legacy_ratings(self, ruleset: str) -> bool:
        """Whether the ruleset's ratings were written by an earlier model (incremental
        updates, or the openskill replay): they must be rebuilt from the stored board pairs."""
        return bool(self.redis.exists(self.key("ratings", ruleset, "applied"), self.key("ratings", ruleset, "after")))

    def rating_rulesets(self) -> list[str]:
        """Rulesets that have ratings stored (or an earlier model's, or comparisons not yet
        fitted): of the rulesets the engine knows, which hold one of those keys, in one
        round trip. (A SCAN of the keyspace read every key of the store: 60 ms with 50
        tournaments, 20,000 round trips with 1,000, on the leaderboard and every bot's view.)"""
        names = list(GAMES)
        pipe = self.redis.pipeline(transaction=False)
        for ruleset in names:
            pipe.exists(*(self.key("ratings", ruleset, *part) for part in _RULESET_KEYS))
        return sorted(r for r, found in zip(names, pipe.execute()) if found)

    def clear_ratings(self, ruleset: str) -> None:
        """Forget a ruleset's ratings, histories and stored comparisons (and what earlier
        models kept: ``after``, ``applied`` and ``evidence``)."""
        histories = self.redis.scan_iter(match=self.key("ratings", ruleset, "history", "*"))
        self.redis.delete(
            *[
                self.key("ratings", ruleset, *part)
                for part in (
                    (),
                    ("comparisons",),
                    ("scores",),
                    ("fitted",),
                    ("after",),
                    ("applied",),
                    ("evidence",),
                    ("version",),
                )
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
        return self._ratings_read(self.redis.hgetall(self.key("ratings", ruleset)))

    @staticmethod
    def _ratings_read(raw: dict[Any, Any]) -> dict[str, dict[str, Any]]:
        return {decoded(b): json.loads(r) for b, r in raw.items()}

    def versioned_ratings(self, ruleset: str) -> tuple[str, dict[str, dict[str, Any]]]:
        """The ruleset's ratings (``ratings``) and the version they and the histories are
        at (``ratings_versions``), read in one transaction: a refresh, which sets a new
        version in its own, is wholly before or wholly after."""
        pipe = self.redis.pipeline(transaction=True)
        self._versions(pipe, [ruleset])
        pipe.hgetall(self.key("ratings", ruleset))
        *_, token, raw = pipe.execute()
        return decoded(token), self._ratings_read(raw)

    def ratings_versions(self, rulesets: list[str]) -> dict[str, str]:
        """The version each ruleset's ratings and histories are at: what is drawn from them
        may be kept by it, as any later change of the ratings or of a history gives
        another. Made here where there is none (a store from before versions, or just
        cleared): a random one, so never the version of anything kept before."""
        pipe = self.redis.pipeline(transaction=True)
        self._versions(pipe, rulesets)
        got = pipe.execute()
        return {ruleset: decoded(token) for ruleset, token in zip(rulesets, got[1::2])}

    def _versions(self, pipe: Any, rulesets: list[str]) -> None:
        for ruleset in rulesets:
            version = self.key("ratings", ruleset, "version")
            pipe.set(version, secrets.token_hex(8), nx=True)
            pipe.get(version)


def shown_of(point: dict[str, Any]) -> dict[str, Any]:
    """A history point's rating, as ``shown`` gives it: to tell whether a new one moved."""
    return {k: point[k] for k in ("rating", "se", "low", "high", "provisional")}
