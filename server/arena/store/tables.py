"""Casual tables: a game at one table, its seats, hands and live view. This module owns
their keys:

    {p}:seq:table                 counter for table ids ("g1", "g2", ...)
    {p}:tables                    zset  table id by creation time
    {p}:table:{id}                hash  spec, status, seat:<name> per seat of the ruleset's table size (N..W at
                                        four, P1..Pk else), created, creator, finished, winner, scores
                                        (the game's final scores, JSON, once finished)
    {p}:tables:live               set   ids of tables open or running
    {p}:bot:{name}:tables         set   live tables a remote bot created or sits at
    {p}:table:{id}:hands          list  finished hands' records, in order (the game's checkpoint)
    {p}:table:{id}:live           string public view of the hand in progress

A human seat (``server.arena.humans``) is held by a principal; its token is stored as a
bot's is (``{p}:token:{sha256}`` -> the principal, and ``{p}:bot:{principal}``, a hash
with only ``status``, ``kind`` and ``token_hash``: never in ``{p}:bots``), so the decision
scripts accept it unchanged; both keys expire, and are deleted when the table's game ends.
"""

from __future__ import annotations

import json
import time
from typing import Any

from redis import Redis

from server.arena.humans import is_human
from server.arena.records import current_table_hand
from server.arena.settings import HUMAN_TOKEN_SECONDS
from server.arena.store.base import StoreBase, StoreError, decoded, lua
from server.engine import make_ruleset, seats_for

_APPEND_HAND = lua("append_hand.lua")
_CREATE_TABLE = lua("create_table.lua")
_TAKE_SEAT = lua("take_seat.lua")


class TableLimit(Exception):
    """A table refused by a bound on live tables: ``args[0]`` is the bot at its bound, or
    ``"tables"`` when the arena holds as many live tables as it may."""


def table_seats(spec: dict[str, Any]) -> tuple[str, ...]:
    """The seats of a table of ``spec`` (its ruleset and options, validated when it was
    created): N E S W at four, P1..Pk at any other size."""
    return seats_for(make_ruleset(spec["ruleset"], spec["options"]).players)


class Tables(StoreBase):
    def __init__(self, redis: Redis, prefix: str = "cinch"):
        super().__init__(redis, prefix)
        self._append_hand = redis.register_script(_APPEND_HAND)
        self._create_table = redis.register_script(_CREATE_TABLE)
        self._take_seat = redis.register_script(_TAKE_SEAT)

    def create_table(
        self,
        spec: dict[str, Any],
        seats: dict[str, str],
        creator: str,
        holders: list[str],
        max_live: int,
        max_per_bot: int,
    ) -> str:
        """Create an open table with ``seats`` (seats of the spec's ruleset) filled, unless
        ``max_live`` tables are live already (``TableLimit`` "full") or one of ``holders``
        (the remote bots it counts for: its creator and seated bots) holds ``max_per_bot``
        (``TableLimit`` naming it). A seat the ruleset has not is a ``ValueError``: the API
        refuses it first, this keeps a stray seat from ever being stored."""
        unknown = set(seats) - set(table_seats(spec))
        if unknown:
            raise ValueError(f"a {spec['ruleset']} table has no seat {min(unknown)!r}")
        holders = list(dict.fromkeys(holders))
        outcome, detail = self._create_table(
            keys=[
                self.key("seq", "table"),
                self.key("tables"),
                self.key("tables", "live"),
                *(self.key("bot", b, "tables") for b in holders),
            ],
            args=[
                "g",
                self.key("table", ""),
                max_live,
                max_per_bot,
                json.dumps(spec),
                time.time(),
                creator,
                *(x for seat, bot in seats.items() for x in (seat, bot)),
            ],
        )
        if outcome == b"full":
            raise TableLimit("tables")
        if outcome == b"busy":
            raise TableLimit(holders[int(detail) - 1])
        return detail.decode()

    def table(self, tid: str) -> dict[str, Any]:
        raw = {decoded(k): decoded(v) for k, v in self.redis.hgetall(self.key("table", tid)).items()}
        if not raw:
            raise StoreError(f"no table {tid!r}")
        spec = json.loads(raw["spec"])
        return {
            **spec,
            "id": tid,
            "status": raw["status"],
            "created": float(raw["created"]),
            "creator": raw.get("creator"),
            "finished": float(raw["finished"]) if "finished" in raw else None,
            "winner": raw.get("winner"),
            "final_scores": json.loads(raw["scores"]) if "scores" in raw else None,
            "error": raw.get("error"),
            "seats": {s: raw.get(f"seat:{s}") for s in table_seats(spec)},
        }

    def table_ids(self) -> list[str]:
        return [decoded(t) for t in self.redis.zrange(self.key("tables"), 0, -1)]

    def claim_seat(self, tid: str, seat: str, bot: str, max_per_bot: int) -> bool:
        """Seat ``bot`` if the seat is free (False if not), counting the table among its live
        ones; ``TableLimit`` if the bot sits at ``max_per_bot`` live tables already."""
        outcome = self._take_seat(
            keys=[self.key("table", tid), self.key("bot", bot, "tables")], args=[seat, bot, tid, max_per_bot]
        )
        if outcome == b"busy":
            raise TableLimit(bot)
        return outcome == b"ok"

    def start_table(self, tid: str) -> bool:
        """Mark a full table running, once; True for the caller that should start its game."""
        key = self.key("table", tid)
        if not all(self.table(tid)["seats"].values()):
            return False
        if not self.redis.hsetnx(key, "started", time.time()):
            return False
        self.redis.hset(key, "status", "running")
        return True

    def table_hands(self, tid: str) -> list[dict[str, Any]]:
        """A table's finished hands, each a hand record (``server.engine.record``) with its
        ``number``, ``public`` view and ``luck``; hands stored by an older version are read
        through ``server.arena.records``."""
        hands = [json.loads(h) for h in self.redis.lrange(self.key("table", tid, "hands"), 0, -1)]
        if all("result" in hand for hand in hands):
            return hands
        table = self.table(tid)
        return [current_table_hand(hand, table["ruleset"], table["options"]) for hand in hands]

    def append_table_hand(self, tid: str, number: int, record: dict[str, Any]) -> bool:
        return bool(self._append_hand(keys=[self.key("table", tid, "hands")], args=[number, json.dumps(record)]))

    def set_table_live(self, tid: str, view: dict[str, Any] | None) -> None:
        if view is None:
            self.redis.delete(self.key("table", tid, "live"))
        else:
            self.redis.set(self.key("table", tid, "live"), json.dumps(view))

    def table_live(self, tid: str) -> dict[str, Any] | None:
        raw = self.redis.get(self.key("table", tid, "live"))
        return None if raw is None else json.loads(raw)

    def finish_table(self, tid: str, winner: str | None, scores: dict[str, int]) -> None:
        """Finished at the game's final ``scores``: no longer live, for the arena and for
        every bot it counted for. (The final scores are stored because in the All Fours
        games the last hand stops counting at the item that reaches the target, so they
        may fall short of the last record's scores plus its change.)"""
        self._end_table(tid, {"status": "finished", "winner": winner or "", "scores": json.dumps(scores)})

    def fail_table(self, tid: str, error: str) -> None:
        """Stopped by an error its job could not play through (not a bot's: those are
        faults with the default action): no longer live, so its seats are free again and
        it does not read "running" forever. ``error`` is shown to everyone: a kind of
        error, never its message (which might name a card)."""
        self._end_table(tid, {"status": "failed", "error": error})

    def _end_table(self, tid: str, fields: dict[Any, Any]) -> None:
        table = self.table(tid)
        pipe = self.redis.pipeline(transaction=True)
        pipe.hset(self.key("table", tid), mapping={**fields, "finished": str(time.time())})
        pipe.srem(self.key("tables", "live"), tid)
        for bot in {table["creator"], *table["seats"].values()} - {None, ""}:
            pipe.srem(self.key("bot", bot, "tables"), tid)
        for principal in filter(is_human, table["seats"].values()):  # its token ends with the game
            token_hash = self.redis.hget(self.key("bot", principal), "token_hash")
            if token_hash:
                pipe.delete(self.key("token", decoded(token_hash)))
            pipe.delete(self.key("bot", principal))
        pipe.execute()

    def open_human_seat(self, principal: str, token_hash: str) -> None:
        """Let the token with this hash play as ``principal`` (a human seat's), until the
        table's game ends or ``HUMAN_TOKEN_SECONDS`` pass."""
        key = self.key("bot", principal)
        pipe = self.redis.pipeline(transaction=True)
        pipe.hset(key, mapping={"status": json.dumps("active"), "kind": json.dumps("human"), "token_hash": token_hash})
        pipe.set(self.key("token", token_hash), principal, ex=HUMAN_TOKEN_SECONDS)
        pipe.expire(key, HUMAN_TOKEN_SECONDS)
        pipe.execute()
