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
        if self.dealset_stored(self.redis, deals):
            return
        self.restore_dealset(self.redis, deals)

    def dealset_stored(self, client: Any, deals: DealSet) -> bool:
        """Whether ``deals`` is stored already (read through ``client``: the store's, or a
        pipeline watching ``dealset_key``); Conflict if a different set of its name is."""
        raw = client.hmget(self.dealset_key(deals.name), ["meta", "1"])
        if raw[0] is None:
            return False
        if json.loads(raw[0]) != _meta(deals) or raw[1] is None or json.loads(raw[1]) != deals.boards[0].to_dict():
            raise Conflict(f"a different deal set named {deals.name!r} is already stored")
        return True

    def restore_dealset(self, client: Any, deals: DealSet) -> None:
        """Write a deal set through ``client`` (the store's, or a MULTI): the boards and the meta in one HSET."""
        mapping: dict[FieldT, EncodableT] = {str(n): json.dumps(b.to_dict()) for n, b in enumerate(deals.boards, 1)}
        mapping["meta"] = json.dumps(_meta(deals))
        client.hset(self.dealset_key(deals.name), mapping=mapping)

    def dealset_key(self, name: str) -> str:
        return self.key("deals", name)

    def stored_dealset(self, name: str) -> DealSet:
        """A stored deal set whole (StoreError if it is not stored)."""
        meta = self.dealset_meta(name)
        if meta is None:
            raise StoreError(f"no deal set {name!r} in this store")
        boards = tuple(self.board(name, n) for n in range(1, meta["boards"] + 1))
        return DealSet(name, meta["seed"], boards, meta.get("players", 4), meta.get("deck", 52))

    def dealset_meta(self, name: str) -> dict[str, Any] | None:
        raw = self.redis.hget(self.key("deals", name), "meta")
        return None if raw is None else json.loads(raw)

    def dealset_metas(self, names: list[str]) -> dict[str, dict[str, Any]]:
        """``dealset_meta`` of each name stored, in one round trip."""
        unique = sorted(set(names))
        pipe = self.redis.pipeline(transaction=False)
        for name in unique:
            pipe.hget(self.key("deals", name), "meta")
        return {n: json.loads(raw) for n, raw in zip(unique, pipe.execute()) if raw is not None}

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


def _meta(deals: DealSet) -> dict[str, Any]:
    """A set's stored header: its name, seed, size and shape."""
    return {"name": deals.name, "seed": deals.seed, "boards": len(deals.boards), **shape(deals)}
