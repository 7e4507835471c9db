"""Bots known to the arena: built-in ones and remote ones with bearer tokens.

A remote bot's token is shown once, at registration or rotation; only its sha256 is
stored, so a leaked database reveals no token. Built-in bots are registered
automatically and have no token.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import time
from collections.abc import Iterable

from server.arena.store import Store
from server.errors import Conflict

NAME = re.compile(r"^[a-z][a-z0-9_-]{1,31}$")


class RegistryError(Conflict):
    """A registration that cannot be made; the message says why."""


def new_token() -> str:
    """A fresh bot token. The prefix says what it is in logs and secret scanners, and
    keeps it from starting with a dash, which command lines would take for an option."""
    return "cinch_" + secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def ensure_builtins(store: Store, names: Iterable[str]) -> None:
    for name in names:
        store.put_bot(
            {
                "name": name,
                "kind": "builtin",
                "status": "active",
                "created": time.time(),
                "description": "built-in bot",
            },
            only_new=True,
        )


def register(store: Store, name: str, description: str = "") -> str:
    """Register a remote bot; returns its token (the only time it is shown)."""
    if not NAME.match(name):
        raise RegistryError("name must be 2-32 characters: lowercase letters, digits, - and _, starting with a letter")
    token = new_token()
    bot = {"name": name, "kind": "remote", "status": "active", "created": time.time(), "description": description}
    if not store.put_bot(bot, only_new=True, token_hash=token_hash(token)):
        raise RegistryError(f"a bot named {name!r} already exists")
    return token


def rotate(store: Store, name: str) -> str:
    bot = store.bot(name)
    if bot["kind"] != "remote":
        raise RegistryError(f"{name} is a built-in bot and has no token")
    token = new_token()
    store.set_bot_token(name, token_hash(token))
    return token


def authenticate(store: Store, token: str) -> str | None:
    """The name of the active bot holding ``token``, or None."""
    return store.active_bot_for_token(token_hash(token))


def is_trusted(bot: dict) -> bool:
    """Built-in bots, and remote bots the admin has marked trusted: the only ones that may
    play two-room matches, where a bot meets every board twice."""
    return bot["kind"] == "builtin" or bool(bot.get("trusted"))


def roster(store: Store) -> dict[str, dict]:
    """Every bot by name, with its kind, whether it is trusted and whether it is active
    (a disabled bot is listed, so that naming it is refused as disabled, not unknown)."""
    return {
        b["name"]: {"kind": b["kind"], "trusted": is_trusted(b), "active": b["status"] == "active"}
        for b in store.bots()
    }


def builtin_roster(names: Iterable[str]) -> dict[str, dict]:
    """A roster (as ``roster``) of built-in bots only, for checks made before any store exists."""
    return {n: {"kind": "builtin", "trusted": True, "active": True} for n in names}


def active_kinds(store: Store) -> dict[str, str]:
    """Every active bot's name and kind ("builtin" or "remote")."""
    return {b["name"]: b["kind"] for b in store.bots() if b["status"] == "active"}
