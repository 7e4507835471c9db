"""The indexes that list tournaments by page: filters, name search, a bot's matches and
each tournament's leader, each read in time proportional to the page, not to the store.
This module owns their keys (every zset scored by the tournament's number, ``t12`` -> 12):

    {p}:tournaments:indexed         string the index version once every tournament stored before
                                           the indexes existed has been indexed (``ensure_index``)
    {p}:tournaments:numbered        zset  every tournament id
    {p}:tournaments:by:{field}:{v}  zset  ids by ruleset, format and bot (every entrant)
    {p}:tournaments:word:{prefix}   zset  ids whose name has a word starting with ``prefix`` (casefolded)
    {p}:tournaments:status:{s}      zset  ids whose stored status is ``s``, one of ``STOPPED``
                                           (queued and running ones are ``{p}:tournaments:active``)
    {p}:tournaments:leaders         hash  id -> JSON of the top standings row and the version it is of
    {p}:tournaments:bot:{name}:matches zset the bot's match ids, newest tournament first when read
                                           in reverse, schedule order within one (``match_score``)
    {p}:tournaments:h2h             hash  bot -> JSON of its head-to-head rows and the version they are of
                                           (``h2h_version``: they change only when one of the bot's
                                           tournaments finishes or the bot gets a match)

A tournament is indexed when it is created, restored and given more matches; its status
index moves in the same script or transaction as its status (``stop.lua``,
``take_over.lua``, ``finish_tournament``). A store made before these indexes is indexed
once, on its first listing (``ensure_index``); every write here is idempotent, so a
rebuild that meets a tournament being created indexes it twice to the same effect.

A listing (``page``) walks the smallest index its filters name, newest first, in batches,
and keeps the ids that every other index holds too (one pipelined ZSCORE per id and
index), until the page is full: its cost is the page times how selective the other
filters are, never a pass over every tournament. The statuses a lapsed lease changes
(a queued or running tournament without its driver reads as interrupted) come from the
active set, which holds only the tournaments in play.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from redis import Redis

from server.arena.store.base import StoreBase, decoded, lua

INDEX_VERSION = "1"
STOPPED = ("finished", "cancelled", "failed", "interrupted")
"""Stored statuses outside play, each with its index (``queued`` and ``running`` are the active set's)."""
FILTERS = ("ruleset", "format", "bot")
MATCH_SLOTS = 1 << 20
"""Match numbers within a tournament below this: a bot's match index orders by
(tournament, schedule) in one float score."""
BATCH = 64

_INDEX_STATUS = lua("index_status.lua")
_WORD = re.compile(r"\w+")


def number(tid: str) -> int:
    """A tournament id's number: ``t12`` -> 12 (ids are handed out in order)."""
    return int(tid[1:])


def words(text: str) -> list[str]:
    """The words a name is searched by: runs of letters and digits, casefolded."""
    return _WORD.findall(text.casefold())


def leader(results: dict[str, Any], version: str = "final") -> dict[str, Any] | None:
    """The top standings row of a tournament's results, as the listing shows it (the
    winner once ``version`` is final, the leader while it runs); None with no row yet."""
    rows = results.get("standings") or []
    if not rows:
        return None
    top = rows[0]
    return {"version": version, **{k: top.get(k) for k in ("bot", "mean", "ci_low", "ci_high", "boards")}}


def match_score(mid: str) -> float:
    """A match's place in its bots' match indexes: a newer tournament higher, and within
    a tournament an earlier match higher, so a reverse read is newest tournament first in
    schedule order (``t3.m2`` -> 3 * 2^20 + 2^20 - 2)."""
    tid, _, m = mid.partition(".m")
    return number(tid) * MATCH_SLOTS + MATCH_SLOTS - int(m)


@dataclass(frozen=True)
class Query:
    """What a list of tournaments asks: each filter's values (every one must hold: two
    bots are the tournaments both played), a status as shown, and name words (each must
    begin a word of the name)."""

    ruleset: tuple[str, ...] = ()
    format: tuple[str, ...] = ()
    bot: tuple[str, ...] = ()
    status: str | None = None
    words: tuple[str, ...] = ()


@dataclass
class Page:
    """One page of ids, newest first, and the cursors of its neighbours: ``older`` (list
    ids below it: ``before``), ``newer`` (above it: ``after``), None where there is none."""

    ids: list[str] = field(default_factory=list)
    older: int | None = None
    newer: int | None = None


class Listing(StoreBase):
    def __init__(self, redis: Redis, prefix: str = "cinch"):
        super().__init__(redis, prefix)
        self._index_status = redis.register_script(_INDEX_STATUS)

    def status_key(self, status: str) -> str:
        return self.key("tournaments", "status", status)

    def status_keys(self) -> list[str]:
        return [self.status_key(s) for s in STOPPED]

    def index_tournament(self, pipe: Any, tid: str, spec: dict[str, Any], entrants: Iterable[str]) -> None:
        """Queue on ``pipe`` the index entries of a tournament's settings, which never change."""
        score = {tid: number(tid)}
        pipe.zadd(self.key("tournaments", "numbered"), score)
        pipe.zadd(self.key("tournaments", "by", "ruleset", spec["ruleset"]), score)
        pipe.zadd(self.key("tournaments", "by", "format", spec["format"]), score)
        for bot in set(entrants):
            pipe.zadd(self.key("tournaments", "by", "bot", bot), score)
        name = spec.get("name") or ""
        for word in set(words(name)):
            for end in range(1, len(word) + 1):
                pipe.zadd(self.key("tournaments", "word", word[:end]), score)

    def index_matches(self, pipe: Any, matches: Iterable[dict[str, Any]], bot_of: Any) -> None:
        """Queue on ``pipe`` each match in the match index of every bot that plays it
        (``bot_of`` maps an entrant id to its bot: a Progressive copy ``rule#2`` is ``rule``)."""
        for match in matches:
            players = match.get("entrants") or [match["x"], match["y"]]
            for bot in {bot_of(p) for p in players}:
                pipe.zadd(self.key("tournaments", "bot", bot, "matches"), {match["id"]: match_score(match["id"])})

    def index_status(self, tid: str) -> None:
        """Put a tournament in the index of its stored status, read and written in one script."""
        self._index_status(keys=[self.key("tournament", tid), *self.status_keys()], args=[tid, number(tid)])

    def bot_matches(self, bot: str, start: int, count: int) -> tuple[list[str], int]:
        """The bot's match ids from ``start`` (newest tournament first), and how many it has."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.zrevrange(self.key("tournaments", "bot", bot, "matches"), start, start + count - 1)
        pipe.zcard(self.key("tournaments", "bot", bot, "matches"))
        ids, total = pipe.execute()
        return [decoded(m) for m in ids], int(total)

    def all_bot_matches(self, bot: str) -> list[str]:
        return [decoded(m) for m in self.redis.zrevrange(self.key("tournaments", "bot", bot, "matches"), 0, -1)]

    def leaders(self, tids: list[str]) -> dict[str, dict[str, Any]]:
        """The leader stored for each of these tournaments (those with one)."""
        if not tids:
            return {}
        raw = self.redis.hmget(self.key("tournaments", "leaders"), tids)
        return {tid: json.loads(r) for tid, r in zip(tids, raw) if r is not None}

    def put_leader(self, tid: str, leader: dict[str, Any], pipe: Any = None) -> None:
        (pipe or self.redis).hset(self.key("tournaments", "leaders"), tid, json.dumps(leader))

    def h2h_version(self, bot: str) -> str:
        """What a bot's head-to-head rows depend on: its matches (the index only grows) and
        how many of their tournaments are finished (a finished one never changes again, nor
        stops being finished), so another bots' tournament finishing leaves it as it was."""
        mids = self.all_bot_matches(bot)
        tids = sorted({mid.partition(".m")[0] for mid in mids})
        pipe = self.redis.pipeline(transaction=False)
        for tid in tids:
            pipe.zscore(self.status_key("finished"), tid)
        finished = sum(1 for score in pipe.execute() if score is not None)
        return f"{len(mids)}:{finished}"

    def head_to_head_rows(self, bot: str, version: str) -> list[dict[str, Any]] | None:
        """The bot's head-to-head rows stored for ``version``, or None."""
        raw = self.redis.hget(self.key("tournaments", "h2h"), bot)
        kept = None if raw is None else json.loads(raw)
        return kept["rows"] if kept and kept.get("version") == version else None

    def put_head_to_head_rows(self, bot: str, version: str, rows: list[dict[str, Any]]) -> None:
        self.redis.hset(self.key("tournaments", "h2h"), bot, json.dumps({"version": version, "rows": rows}))

    def index_built(self) -> bool:
        return self.redis.get(self.key("tournaments", "indexed")) == INDEX_VERSION.encode()

    def mark_index_built(self) -> None:
        self.redis.set(self.key("tournaments", "indexed"), INDEX_VERSION)

    def page(self, query: Query, limit: int, before: int | None = None, after: int | None = None) -> Page:
        """A page of at most ``limit`` ids matching ``query``, newest first: the newest
        ones, those numbered below ``before``, or the oldest numbered above ``after``."""
        plan = self._plan(query)

        def walk(low: int | None, high: int | None, want: int, newest_first: bool = True) -> list[str]:
            return self._walk(*plan, low=low, high=high, want=want, newest_first=newest_first)

        if after is not None:
            found = walk(after, None, limit + 1, newest_first=False)
            ids = found[:limit][::-1]
            newer = len(found) > limit
            older = bool(ids) and bool(walk(None, number(ids[-1]), 1))
        else:
            found = walk(None, before, limit + 1)
            ids = found[:limit]
            older = len(found) > limit
            newer = before is not None and bool(ids) and bool(walk(number(ids[0]), None, 1, newest_first=False))
        return Page(ids, older=number(ids[-1]) if older else None, newer=number(ids[0]) if newer else None)

    def _plan(self, q: Query) -> tuple[str | None, list[str], list[int], set[str] | None]:
        """(the index walked, the indexes checked, ids walked besides it, the only ids kept
        or None): the smallest index walked, the status as the store shows it."""
        keys = [self.key("tournaments", "by", f, v) for f in FILTERS for v in getattr(q, f)]
        keys += [self.key("tournaments", "word", w) for w in q.words]
        extra: list[int] = []
        keep: set[str] | None = None
        if q.status in ("finished", "cancelled", "failed"):
            keys.append(self.status_key(q.status))
        elif q.status is not None:  # queued, running, interrupted: the active set says
            active = self._active_as_shown()
            chosen = sorted((number(t) for t, s in active.items() if s == q.status), reverse=True)
            if q.status != "interrupted":
                keep = {f"t{n}" for n in chosen}
                return None, keys, chosen, keep
            extra = chosen
            keys.append(self.status_key("interrupted"))  # walked alongside the lapsed ones
            return keys.pop(), keys, extra, None
        if not keys:
            return self.key("tournaments", "numbered"), [], [], None
        pipe = self.redis.pipeline(transaction=False)
        for k in keys:
            pipe.zcard(k)
        sizes = pipe.execute()
        smallest = min(range(len(keys)), key=lambda i: sizes[i])
        return keys[smallest], keys[:smallest] + keys[smallest + 1 :], [], None

    def _active_as_shown(self) -> dict[str, str]:
        """The active tournaments with their status as read (a lapsed lease: interrupted)."""
        tids = [decoded(t) for t in self.redis.smembers(self.key("tournaments", "active"))]
        pipe = self.redis.pipeline(transaction=False)
        for tid in tids:
            pipe.hget(self.key("tournament", tid), "status")
            pipe.exists(self.key("tournament", tid, "lease"))
        raw = pipe.execute()
        shown = {}
        for tid, status, leased in zip(tids, raw[::2], raw[1::2]):
            if status is not None:
                stored = decoded(status)
                shown[tid] = stored if leased or stored not in ("queued", "running") else "interrupted"
        return shown

    def _walk(
        self,
        source: str | None,
        checks: list[str],
        extra: list[int],
        keep: set[str] | None,
        low: int | None,
        high: int | None,
        want: int,
        newest_first: bool = True,
    ) -> list[str]:
        """Up to ``want`` ids strictly between ``low`` and ``high`` (None: unbounded) that
        the walked index (with ``extra``) and every index in ``checks`` hold."""
        out: list[str] = []
        for batch in self._candidates(source, extra, low, high, newest_first):
            if keep is not None:
                batch = [t for t in batch if t in keep]
            if checks and batch:
                pipe = self.redis.pipeline(transaction=False)
                for tid in batch:
                    for k in checks:
                        pipe.zscore(k, tid)
                held = pipe.execute()
                per = len(checks)
                batch = [t for i, t in enumerate(batch) if all(s is not None for s in held[i * per : (i + 1) * per])]
            out += batch
            if len(out) >= want:
                return out[:want]
        return out

    def _candidates(
        self, source: str | None, extra: list[int], low: int | None, high: int | None, newest_first: bool
    ) -> Iterator[list[str]]:
        """The walked index's ids (and ``extra``) between the bounds in order, in batches."""
        within = [n for n in extra if (low is None or n > low) and (high is None or n < high)]
        within.sort(reverse=newest_first)
        cursor_low, cursor_high = low, high
        while True:
            batch: list[int] = []
            if source is not None:
                lo = "-inf" if cursor_low is None else f"({cursor_low}"
                hi = "+inf" if cursor_high is None else f"({cursor_high}"
                if newest_first:
                    raw = self.redis.zrevrangebyscore(source, hi, lo, start=0, num=BATCH)
                else:
                    raw = self.redis.zrangebyscore(source, lo, hi, start=0, num=BATCH)
                batch = [number(decoded(t)) for t in raw]
            exhausted = len(batch) < BATCH
            if batch:  # the extra ids up to where this batch ends, merged in
                edge = batch[-1]
                take = [n for n in within if (n > edge if newest_first else n < edge)]
                within = [n for n in within if n not in take]
                batch = sorted(set(batch) | set(take), reverse=newest_first)
                if newest_first:
                    cursor_high = edge
                else:
                    cursor_low = edge
            if exhausted:
                batch = sorted(set(batch) | set(within), reverse=newest_first)
                within = []
            if batch:
                yield [f"t{n}" for n in batch]
            if exhausted:
                return
