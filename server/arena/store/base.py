"""What every part of the store shares: the Redis client, the key prefix, the Lua loader,
and the arena-wide keys, which this module owns:

    {p}:secret                    string the server's secret (suit relabelings); never served

Every key is under one prefix, ``cinch`` by default, so tests and several arenas can share
a server without touching each other's data.
"""

from __future__ import annotations

import functools
import re
import secrets
from pathlib import Path

from redis import Redis

from server.errors import NotFound

_NEEDS = re.compile(r"^-- needs: (.+)$", re.MULTILINE)


@functools.cache
def _source(name: str) -> str:
    return (Path(__file__).parent / name).read_text(encoding="utf-8")


def _with_needs(name: str, seen: list[str]) -> None:
    """``name`` after the fragments its ``-- needs:`` line names (their own needs first), each once."""
    needs = _NEEDS.search(_source(name))
    for need in needs.group(1).split() if needs else ():
        _with_needs(need, seen)
    if name not in seen:
        seen.append(name)


def lua(name: str, **constants: object) -> str:
    """The source of the script in ``name`` (a ``.lua`` file of this package) with the
    shared functions it needs before it, and each constant's NAME replaced by its value.
    Each aggregate reads its scripts once, at import, and registers them once per Store."""
    parts: list[str] = []
    _with_needs(name, parts)
    text = "".join(_source(part) for part in parts)
    for constant, value in constants.items():
        text = text.replace(constant, str(value))
    return text


def decoded(raw: object) -> str:
    """A stored string as text. The store's client answers bytes (it never sets
    ``decode_responses``), but redis-py types every reply as ``bytes | str``; anything
    else here is a wrong client, said plainly rather than as an AttributeError."""
    if not isinstance(raw, bytes):
        raise TypeError(f"the store's Redis client must answer bytes, got {type(raw).__name__}")
    return raw.decode()


class StoreError(NotFound):
    """An id that names nothing stored (a 404 where a request named it)."""


class StoreBase:
    """The Redis client and the prefix; each aggregate's repository extends it and
    registers its scripts in its ``__init__`` (cooperatively: ``Store`` holds them all)."""

    def __init__(self, redis: Redis, prefix: str = "cinch"):
        self.redis = redis
        self.prefix = prefix

    def key(self, *parts: object) -> str:
        return ":".join([self.prefix, *map(str, parts)])

    def secret(self) -> bytes:
        """The arena's secret, made on first use; keys the per-room suit relabelings."""
        key = self.key("secret")
        self.redis.set(key, secrets.token_hex(32), nx=True)
        secret = self.redis.get(key)
        if not isinstance(secret, bytes):  # None only if someone deleted it between the two calls
            raise TypeError(f"the arena's secret should be stored bytes, got {type(secret).__name__}")
        return secret

    def now(self) -> float:
        """Redis's clock: every deadline is on one clock, whichever machine sets or checks it."""
        seconds, micros = self.redis.time()
        return seconds + micros / 1e6
