"""Bots and their tokens. This module owns their keys:

    {p}:bots                      set   bot names
    {p}:bot:{name}                hash  name, kind, status, trusted, created, description, token_hash
    {p}:token:{sha256}            string bot name for a token's hash

(A bot's ``pending``, ``seen`` and ``tables`` keys belong to ``decisions`` and ``tables``;
their scripts read the token keys through ``token_bot.lua``.)
"""

from __future__ import annotations

import json
from typing import Any

from redis import Redis

from server.arena.store.base import StoreBase, StoreError, decoded, lua

_ACTIVE_BOT = lua("active_bot.lua")


class Bots(StoreBase):
    def __init__(self, redis: Redis, prefix: str = "cinch"):
        super().__init__(redis, prefix)
        self._token_bot = redis.register_script(_ACTIVE_BOT)

    def put_bot(self, bot: dict[str, Any], only_new: bool = False, token_hash: str | None = None) -> bool:
        """Store a bot (and its token's hash); with ``only_new``, False if the name is taken."""
        key = self.key("bot", bot["name"])
        if only_new and not self.redis.hsetnx(key, "name", bot["name"]):
            return False
        pipe = self.redis.pipeline(transaction=True)
        pipe.hset(key, mapping={k: json.dumps(v) for k, v in bot.items()})
        pipe.sadd(self.key("bots"), bot["name"])
        if token_hash:
            pipe.hset(key, "token_hash", token_hash)
            pipe.set(self.key("token", token_hash), bot["name"])
        pipe.execute()
        return True

    def bot(self, name: str) -> dict[str, Any]:
        raw = self.redis.hgetall(self.key("bot", name))
        if b"name" not in raw:  # nothing, or a human seat's token holder (``tables``): no bot
            raise StoreError(f"no bot {name!r}")
        return _fields(raw)

    def bots(self) -> list[dict[str, Any]]:
        """Every bot, by name, in two round trips (the leaderboard and the bot list read them all)."""
        names = sorted(decoded(n) for n in self.redis.smembers(self.key("bots")))
        pipe = self.redis.pipeline(transaction=False)
        for name in names:
            pipe.hgetall(self.key("bot", name))
        return [_fields(raw) for raw in pipe.execute() if b"name" in raw]

    def bot_kinds(self, names: list[str]) -> dict[str, str]:
        """The kind (builtin, remote) of each of these bots that is stored, in one round trip."""
        pipe = self.redis.pipeline(transaction=False)
        for name in names:
            pipe.hmget(self.key("bot", name), "name", "kind")
        return {n: json.loads(kind) for n, (stored, kind) in zip(names, pipe.execute()) if stored and kind}

    def set_bot_fields(self, name: str, **fields: Any) -> None:
        """Change a stored bot's ``status`` or ``trusted`` flag (StoreError if unknown)."""
        self.bot(name)
        self.redis.hset(self.key("bot", name), mapping={k: json.dumps(v) for k, v in fields.items()})

    def set_bot_token(self, name: str, token_hash: str) -> None:
        """Replace a bot's token: the old one stops working in the same transaction."""
        key = self.key("bot", name)
        old = self.redis.hget(key, "token_hash")
        pipe = self.redis.pipeline(transaction=True)
        if old:
            pipe.delete(self.key("token", decoded(old)))
        pipe.hset(key, "token_hash", token_hash)
        pipe.set(self.key("token", token_hash), name)
        pipe.execute()

    def active_bot_for_token(self, token_hash: str) -> str | None:
        """The name of the active bot holding the token with this hash, or None."""
        raw = self._token_bot(keys=[self.key("token", token_hash)], args=[self.key("bot", "")])
        return None if raw is None else raw.decode()

    def bot_key(self, name: str) -> str:
        return self.key("bot", name)

    def restore_bot(self, pipe: Any, bot: dict[str, Any]) -> None:
        """Queue on ``pipe`` the writes of ``put_bot`` for a bot without a token (an
        imported one: its token was never exported; the admin gives it a new one)."""
        pipe.hset(self.bot_key(bot["name"]), mapping={k: json.dumps(v) for k, v in bot.items()})
        pipe.sadd(self.key("bots"), bot["name"])


def _fields(raw: dict[Any, Any]) -> dict[str, Any]:
    """A bot's stored hash as its fields, without its token's hash (never read back out)."""
    return {decoded(k): json.loads(v) for k, v in raw.items() if k != b"token_hash"}
