"""Deal sets published for workers on any machine. This module owns their keys:

    {p}:deals:{name}              hash  "meta" -> header JSON, "{n}" -> board JSON

Boards read are cached in the process: a stored set never changes.
"""

from __future__ import annotations

import json
from typing import Any

from redis import Redis
from redis.typing import EncodableT, FieldT

from server.arena.dealsets import DealSet, shape
from server.arena.store.base import StoreBase, StoreError
from server.engine import Board, seats_for
from server.errors import Conflict


class Deals(StoreBase):
    def __init__(self, redis: Redis, prefix: str = "cinch"):
        super().__init__(redis, prefix)
        self._boards: dict[tuple[str, int], Board] = {}

    def put_dealset(self, deals: DealSet) -> None:
        """Publish a deal set for workers on any machine; refuses a different set of the same name."""
        key = self.key("deals", deals.name)
        meta = json.dumps({"name": deals.name, "seed": deals.seed, "boards": len(deals.boards), **shape(deals)})
        stored = self.redis.hget(key, "meta")
        if stored is not None:
            if json.loads(stored) != json.loads(meta) or self.board(deals.name, 1) != deals.boards[0]:
                raise Conflict(f"a different deal set named {deals.name!r} is already stored")
            return
        mapping: dict[FieldT, EncodableT] = {str(n): json.dumps(b.to_dict()) for n, b in enumerate(deals.boards, 1)}
        mapping["meta"] = meta
        self.redis.hset(key, mapping=mapping)

    def dealset_meta(self, name: str) -> dict[str, Any] | None:
        raw = self.redis.hget(self.key("deals", name), "meta")
        return None if raw is None else json.loads(raw)

    def board(self, name: str, number: int) -> Board:
        cached = self._boards.get((name, number))
        if cached is None:
            raw, meta = self.redis.hmget(self.key("deals", name), [str(number), "meta"])
            if raw is None:
                raise StoreError(f"deal set {name!r} has no board {number} in this store")
            if meta is None:  # put_dealset writes the boards and the meta in one HSET
                raise StoreError(f"deal set {name!r} has boards but no meta in this store")
            table = json.loads(meta)
            cached = self._boards[(name, number)] = Board.from_dict(
                json.loads(raw), seats_for(table.get("players", 4)), table.get("deck", 52)
            )
        return cached
