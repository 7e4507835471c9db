"""Bots known to the arena: built-in ones, remote ones with bearer tokens, and local ones.

The kinds of entrant are declared once, in ``KINDS``; every surface asks a kind's
declaration (``entrant_kind``) instead of testing its name. A **local** entrant is a bot
author's own ``sdk.Bot`` subclass, named on a command line as ``PATH.py:Class`` or
``package.module:Class`` and played inside this machine's workers (``workers.local_bot``);
it is never stored as a bot, and the service cannot seat it. A **cmd** entrant is a
program in any language, named ``cmd:COMMAND`` and played through the line protocol
(``workers.cmd_bot``); it is trusted and seated exactly as a local one, and is its own
kind only because it is named, loaded and described differently. Both are the user's
*own* entrants (``OWN``): stored with the tournament as a source, never as a bot.

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
from dataclasses import dataclass
from typing import Any

from server.arena.store import Store
from server.errors import Conflict

NAME = re.compile(r"^[a-z][a-z0-9_-]{1,31}$")


@dataclass(frozen=True)
class EntrantKind:
    """What a kind of entrant may do; the one place a surface learns it."""

    name: str
    trusted: bool
    """May play two-room matches (meets every board twice) without the admin's say."""
    outside: bool
    """Plays from outside the arena's processes: it could have read a named deal set, so
    its tournaments are dealt from a secret set in a secret order, and it may hold one seat
    only (never entered twice)."""
    reference: bool
    """May sit as a blind movement's reference bot (whose par rooms are shared)."""
    served: bool
    """The service (the REST API, ``cinch remote``) can seat it."""
    fixed: bool
    """The same program from one command to the next (a built-in bot, a registered name),
    so boards stored earlier may stand for it (``cinch compare`` reuses them); a program
    on this machine may have been edited since."""
    summary: str
    named: re.Pattern[str] | None = None
    """How a command line names an entrant of this kind; None: by its registered name."""
    form: str = ""
    """``named`` for people, as a command line would show it."""
    on_a_server: str = ""
    """How the same program plays on a server, which cannot seat this kind."""


LOCAL_REFERENCE = re.compile(r"^(?P<target>[^:]+\.py|[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*):(?P<cls>[A-Za-z_]\w*)$")
"""How a local entrant is named: ``PATH.py:Class`` or ``package.module:Class``."""
CMD_REFERENCE = re.compile(r"^cmd:(?P<command>.*)$", re.DOTALL)
"""How a cmd entrant is named: ``cmd:COMMAND`` (the command may be empty here, to be
refused with a message rather than taken for another kind's name)."""

BUILTIN = EntrantKind(
    "builtin", trusted=True, outside=False, reference=True, served=True, fixed=True, summary="built-in bot"
)
REMOTE = EntrantKind(
    "remote",
    trusted=False,
    outside=True,
    reference=False,
    served=True,
    fixed=True,
    summary="remote bot (SDK, REST API)",
)
LOCAL = EntrantKind(
    "local",
    trusted=True,
    outside=False,
    reference=False,
    served=False,
    fixed=False,
    summary="local bot (PATH.py:Class or package.module:Class, played in this machine's workers)",
    named=LOCAL_REFERENCE,
    form="PATH.py:Class",
    on_a_server="register it as a remote bot and run it with `cinch bot run PATH.py:Class`",
)
CMD = EntrantKind(
    "cmd",
    trusted=True,
    outside=False,
    reference=False,
    served=False,
    fixed=False,
    summary="command bot (cmd:COMMAND, a program in any language on the line protocol, played in this "
    "machine's workers)",
    named=CMD_REFERENCE,
    form='"cmd:COMMAND"',
    on_a_server="register it as a remote bot and run it with `cinch bot run --cmd COMMAND`",
)
KINDS = {k.name: k for k in (BUILTIN, REMOTE, CMD, LOCAL)}
OWN = (CMD, LOCAL)
"""The kinds a command line names by their form, in the order they are tried: ``cmd:``
first, since ``cmd:bot`` has the form of ``package.module:Class`` too."""


def entrant_kind(entry: dict[str, Any]) -> EntrantKind:
    """The declared kind of a roster entry or a stored bot."""
    return KINDS[entry["kind"]]


def reference_kind(name: str) -> EntrantKind | None:
    """The own kind whose form ``name`` has, or None (a known bot's name, e.g. the level
    ``search:strong``, is that bot whatever its form: callers ask only about unknown names)."""
    return next((k for k in OWN if k.named is not None and k.named.match(name)), None)


def is_local_reference(name: str) -> bool:
    """Whether ``name`` names one of the user's own entrants (``OWN``) by its form."""
    return reference_kind(name) is not None


def source_kind(source: dict[str, Any]) -> EntrantKind:
    """The kind of an own entrant's stored source (a local bot's, stored before cmd
    entrants existed, says none)."""
    return KINDS[source.get("kind", LOCAL.name)]


def local_entry(source: dict[str, Any]) -> dict[str, Any]:
    """A roster entry (as ``roster``) for an own entrant played from ``source``."""
    kind = source_kind(source)
    return {"kind": kind.name, "trusted": kind.trusted, "active": True, "source": source}


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
                "kind": BUILTIN.name,
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
    bot = {"name": name, "kind": REMOTE.name, "status": "active", "created": time.time(), "description": description}
    if not store.put_bot(bot, only_new=True, token_hash=token_hash(token)):
        raise RegistryError(f"a bot named {name!r} already exists")
    return token


def rotate(store: Store, name: str) -> str:
    bot = store.bot(name)
    if bot["kind"] != REMOTE.name:
        raise RegistryError(f"{name} is a {entrant_kind(bot).summary} and has no token")
    token = new_token()
    store.set_bot_token(name, token_hash(token))
    return token


def authenticate(store: Store, token: str) -> str | None:
    """The name of the active bot holding ``token``, or None."""
    return store.active_bot_for_token(token_hash(token))


def is_trusted(bot: dict) -> bool:
    """Built-in bots, and remote bots the admin has marked trusted: the only ones that may
    play two-room matches, where a bot meets every board twice."""
    return entrant_kind(bot).trusted or bool(bot.get("trusted"))


def roster(store: Store) -> dict[str, dict]:
    """Every bot by name, with its kind, whether it is trusted and whether it is active
    (a disabled bot is listed, so that naming it is refused as disabled, not unknown)."""
    return {
        b["name"]: {"kind": b["kind"], "trusted": is_trusted(b), "active": b["status"] == "active"}
        for b in store.bots()
    }


def builtin_roster(names: Iterable[str]) -> dict[str, dict]:
    """A roster (as ``roster``) of built-in bots only, for checks made before any store exists."""
    return {n: {"kind": BUILTIN.name, "trusted": BUILTIN.trusted, "active": True} for n in names}


def active_kinds(store: Store) -> dict[str, str]:
    """Every active bot's name and kind ("builtin" or "remote")."""
    return {b["name"]: b["kind"] for b in store.bots() if b["status"] == "active"}
