"""Everything the arena keeps in Redis, and the only module that knows a key name.

Keys (all under one prefix, ``cinch`` by default, so tests and several arenas can share
a server without touching each other's data):

    {p}:deals:{name}              hash  "meta" -> header JSON, "{n}" -> board JSON
    {p}:seq:tournament            counter for tournament ids ("t1", "t2", ...)
    {p}:tournaments               zset  tournament id by creation time
    {p}:tournament:{tid}          hash  spec, status, pairs_done, pairs_total, created, finished
    {p}:tournament:{tid}:matches  list  match ids in schedule order
    {p}:tournament:{tid}:complete set   ids of matches whose every board pair is stored
    {p}:tournament:{tid}:results  string JSON standings, cross-table and match statistics
    {p}:match:{mid}               hash  spec, status
    {p}:match:{mid}:pairs         hash  board number -> board-pair record JSON
    {p}:match:{mid}:scores        hash  board number -> X's score on that pair
    {p}:ratings:{ruleset}         hash  bot -> rating JSON
    {p}:ratings:{ruleset}:applied set   match ids already counted in the ratings

A board pair is written with HSETNX inside one Lua script that also advances the
tournament's progress and marks the match complete, so a job that is retried after a
crash can never count a pair twice, and "match complete" happens exactly once.
"""

from __future__ import annotations

import json
import time
from typing import Any, Callable, Iterable

from redis import Redis

from .dealsets import DealSet
from .engine import Board

_RECORD_PAIRS = """
local added = 0
for i = 3, #ARGV, 3 do
  if redis.call('HSETNX', KEYS[1], ARGV[i], ARGV[i + 1]) == 1 then
    redis.call('HSET', KEYS[2], ARGV[i], ARGV[i + 2])
    added = added + 1
  end
end
if added > 0 then redis.call('HINCRBY', KEYS[4], 'pairs_done', added) end
if redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[2]) and redis.call('SADD', KEYS[5], ARGV[1]) == 1 then
  redis.call('HSET', KEYS[3], 'status', 'complete')
end
return {added, redis.call('SCARD', KEYS[5])}
"""


class StoreError(KeyError):
    """An id that names nothing stored."""

    def __str__(self) -> str:
        return str(self.args[0])


class Store:
    def __init__(self, redis: Redis, prefix: str = "cinch"):
        self.redis = redis
        self.prefix = prefix
        self._record = redis.register_script(_RECORD_PAIRS)
        self._boards: dict[tuple[str, int], Board] = {}

    def key(self, *parts: object) -> str:
        return ":".join([self.prefix, *map(str, parts)])

    # ------------------------------------------------------------------ deal sets
    def put_dealset(self, deals: DealSet) -> None:
        """Publish a deal set for workers on any machine; refuses a different set of the same name."""
        key = self.key("deals", deals.name)
        meta = json.dumps({"name": deals.name, "seed": deals.seed, "boards": len(deals.boards)})
        stored = self.redis.hget(key, "meta")
        if stored is not None:
            if json.loads(stored) != json.loads(meta) or self.board(deals.name, 1) != deals.boards[0]:
                raise ValueError(f"a different deal set named {deals.name!r} is already stored")
            return
        mapping = {str(n): json.dumps(b.to_dict()) for n, b in enumerate(deals.boards, 1)}
        mapping["meta"] = meta
        self.redis.hset(key, mapping=mapping)

    def dealset_meta(self, name: str) -> dict[str, Any] | None:
        raw = self.redis.hget(self.key("deals", name), "meta")
        return None if raw is None else json.loads(raw)

    def board(self, name: str, number: int) -> Board:
        cached = self._boards.get((name, number))
        if cached is None:
            raw = self.redis.hget(self.key("deals", name), str(number))
            if raw is None:
                raise StoreError(f"deal set {name!r} has no board {number} in this store")
            cached = self._boards[(name, number)] = Board.from_dict(json.loads(raw))
        return cached

    # ------------------------------------------------------------------ tournaments and matches
    def create_tournament(self, spec: dict[str, Any], matches: list[dict[str, Any]]) -> str:
        """Store a tournament and its matches in one transaction; returns its id."""
        tid = f"t{self.redis.incr(self.key('seq', 'tournament'))}"
        now = time.time()
        pairs_total = sum(m["last"] - m["first"] + 1 for m in matches)
        pipe = self.redis.pipeline(transaction=True)
        pipe.hset(self.key("tournament", tid), mapping={
            "spec": json.dumps({**spec, "id": tid}), "status": "running", "pairs_done": 0,
            "pairs_total": pairs_total, "matches_total": len(matches), "created": now})
        pipe.zadd(self.key("tournaments"), {tid: now})
        for index, match in enumerate(matches, 1):
            mid = f"{tid}.m{index}"
            match.update(id=mid, tournament=tid)
            pipe.rpush(self.key("tournament", tid, "matches"), mid)
            pipe.hset(self.key("match", mid), mapping={"spec": json.dumps(match), "status": "running"})
        pipe.execute()
        return tid

    def tournament(self, tid: str) -> dict[str, Any]:
        raw = self.redis.hgetall(self.key("tournament", tid))
        if not raw:
            raise StoreError(f"no tournament {tid!r}")
        out = json.loads(raw[b"spec"])
        out.update(status=raw[b"status"].decode(), pairs_done=int(raw[b"pairs_done"]),
                   pairs_total=int(raw[b"pairs_total"]), matches_total=int(raw[b"matches_total"]),
                   created=float(raw[b"created"]),
                   finished=float(raw[b"finished"]) if b"finished" in raw else None)
        return out

    def tournament_ids(self) -> list[str]:
        return [t.decode() for t in self.redis.zrange(self.key("tournaments"), 0, -1)]

    def match_ids(self, tid: str) -> list[str]:
        return [m.decode() for m in self.redis.lrange(self.key("tournament", tid, "matches"), 0, -1)]

    def match(self, mid: str) -> dict[str, Any]:
        raw = self.redis.hgetall(self.key("match", mid))
        if not raw:
            raise StoreError(f"no match {mid!r}")
        return {**json.loads(raw[b"spec"]), "status": raw[b"status"].decode()}

    # ------------------------------------------------------------------ board pairs
    def record_pairs(self, match: dict[str, Any], records: Iterable[dict[str, Any]]) -> tuple[int, int]:
        """Store board-pair records once each; returns (newly stored, matches complete)."""
        args: list[Any] = [match["id"], match["last"] - match["first"] + 1]
        for record in records:
            args += [record["board"], json.dumps(record, separators=(",", ":")), record["score"]]
        mid, tid = match["id"], match["tournament"]
        added, complete = self._record(
            keys=[self.key("match", mid, "pairs"), self.key("match", mid, "scores"), self.key("match", mid),
                  self.key("tournament", tid), self.key("tournament", tid, "complete")], args=args)
        return int(added), int(complete)

    def stored_boards(self, mid: str) -> set[int]:
        return {int(b) for b in self.redis.hkeys(self.key("match", mid, "scores"))}

    def scores(self, mid: str) -> dict[int, int]:
        """X's score per board pair stored so far, by board number."""
        return {int(b): int(s) for b, s in self.redis.hgetall(self.key("match", mid, "scores")).items()}

    def pair(self, mid: str, board: int) -> dict[str, Any] | None:
        raw = self.redis.hget(self.key("match", mid, "pairs"), str(board))
        return None if raw is None else json.loads(raw)

    def complete_matches(self, tid: str) -> set[str]:
        return {m.decode() for m in self.redis.smembers(self.key("tournament", tid, "complete"))}

    # ------------------------------------------------------------------ results and ratings
    def finish_tournament(self, tid: str, results: dict[str, Any]) -> bool:
        """Write a tournament's results once; False if they were already written."""
        if not self.redis.set(self.key("tournament", tid, "results"), json.dumps(results), nx=True):
            return False
        self.redis.hset(self.key("tournament", tid), mapping={"status": "finished", "finished": time.time()})
        return True

    def results(self, tid: str) -> dict[str, Any] | None:
        raw = self.redis.get(self.key("tournament", tid, "results"))
        return None if raw is None else json.loads(raw)

    def apply_rating(self, ruleset: str, mid: str, bots: tuple[str, str],
                     update: Callable[[dict | None, dict | None], tuple[dict, dict]]) -> bool:
        """Apply one match to two bots' ratings exactly once (optimistic transaction)."""
        ratings, applied = self.key("ratings", ruleset), self.key("ratings", ruleset, "applied")

        def attempt(pipe) -> bool:
            if pipe.sismember(applied, mid):
                return False
            old = [None if raw is None else json.loads(raw) for raw in pipe.hmget(ratings, *bots)]
            new = update(*old)
            pipe.multi()
            pipe.hset(ratings, mapping={bots[0]: json.dumps(new[0]), bots[1]: json.dumps(new[1])})
            pipe.sadd(applied, mid)
            return True

        return self.redis.transaction(attempt, ratings, applied, value_from_callable=True)

    def ratings(self, ruleset: str) -> dict[str, dict[str, Any]]:
        return {b.decode(): json.loads(r) for b, r in self.redis.hgetall(self.key("ratings", ruleset)).items()}
