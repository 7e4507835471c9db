"""Lists of tournaments by page, for the API (``GET /api/v1/tournaments``) and the page
(``/tournaments``) alike: the filters they take, checked by one schema, and the page they
get, read from the store's indexes (``server.arena.store.listing``) in time proportional
to the page.

Each row is the tournament as ``public`` serves it, with its ``leader``: the top
standings row, the winner once finished (stored when it finished), else the leader over
the boards finished everywhere, recomputed only when the tournament's progress moved
since it was last stored (``Listing.leaders``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import marshmallow as ma
from marshmallow import fields, validate

from server.arena.formats import FORMATS
from server.arena.store import Store
from server.arena.store.listing import Query, leader, words
from server.arena.tournaments import NAME_LENGTH, STATUSES
from server.engine import GAMES
from server.web.readmodel import public, results_of

PAGE_SIZE = 25
MAX_PAGE_SIZE = 100
MAX_BOTS = 4
BOT_NAME = r"^[A-Za-z0-9_.:/#-]{1,64}$"
CURSOR = r"^t?[0-9]{1,15}$"


def _cursor(text: str) -> int:
    """A tournament id (``t12``) or its number as a page's edge."""
    raw = text[1:] if text[:1] == "t" else text
    if not re.fullmatch(CURSOR, text) or not 0 < int(raw) < 2**53:
        raise ma.ValidationError(f"must be a tournament id such as t12, not {text[:20]!r}")
    return int(raw)


class Cursor(fields.String):
    """A page's edge: a tournament id (``t12``) as a text, loaded as its number."""

    def _deserialize(self, value, attr, data, **kwargs):
        return _cursor(super()._deserialize(value, attr, data, **kwargs))


class ListArgsSchema(ma.Schema):
    """The query of a list of tournaments: every filter given must hold."""

    ruleset = fields.String(validate=validate.OneOf(list(GAMES)), metadata={"description": "only this ruleset"})
    format = fields.String(validate=validate.OneOf(list(FORMATS)), metadata={"description": "only this format"})
    bot = fields.List(
        fields.String(validate=validate.Regexp(BOT_NAME, error="must be a bot's name")),
        validate=validate.Length(max=MAX_BOTS),
        metadata={"description": f"only tournaments this bot played (repeat it, up to {MAX_BOTS}: every one played)"},
    )
    status = fields.String(validate=validate.OneOf(STATUSES), metadata={"description": "only this status, as shown"})
    q = fields.String(
        validate=validate.Length(max=NAME_LENGTH),
        metadata={"description": "name search: every word given begins a word of the name (case does not matter)"},
    )
    limit = fields.Integer(
        load_default=PAGE_SIZE,
        validate=validate.Range(min=1, max=MAX_PAGE_SIZE),
        metadata={"description": f"tournaments a page holds (default {PAGE_SIZE}, at most {MAX_PAGE_SIZE})"},
    )
    before = Cursor(
        metadata={"description": "the page of those older than this tournament id (the next page)", "pattern": CURSOR}
    )
    after = Cursor(
        metadata={
            "description": "the page of those newer than this tournament id (the previous page)",
            "pattern": CURSOR,
        }
    )

    @ma.validates_schema
    def one_edge(self, data: dict[str, Any], **kwargs: Any) -> None:
        if "before" in data and "after" in data:
            raise ma.ValidationError("give before or after, not both", field_name="after")


@dataclass(frozen=True)
class Filters:
    """A checked list query: the store's ``Query``, the page size and edge, and the query
    string that asked for it (for the links to the next and previous page)."""

    query: Query
    limit: int
    before: int | None
    after: int | None
    asked: dict[str, Any]


def filters(args: dict[str, Any]) -> Filters:
    """A list query from the arguments ``ListArgsSchema`` loaded."""
    query = Query(
        ruleset=(args["ruleset"],) if args.get("ruleset") else (),
        format=(args["format"],) if args.get("format") else (),
        bot=tuple(dict.fromkeys(args.get("bot") or [])),
        status=args.get("status"),
        words=tuple(dict.fromkeys(words(args.get("q") or ""))),
    )
    asked = {k: args[k] for k in ("ruleset", "format", "bot", "status", "q") if args.get(k)}
    if args["limit"] != PAGE_SIZE:
        asked["limit"] = args["limit"]
    return Filters(query, args["limit"], args.get("before"), args.get("after"), asked)


def load_args(source: Mapping[str, Any], getlist: Any) -> dict[str, Any]:
    """``ListArgsSchema`` over a query string read as the page reads it (``bot`` repeated;
    a field left empty in the page's form is not asked); ``ma.ValidationError`` says what
    is wrong."""
    raw: dict[str, Any] = {k: source[k] for k in source if k != "bot" and source[k] != ""}
    bots = [b for b in getlist("bot") if b != ""] if "bot" in source else []
    if bots:
        raw["bot"] = bots
    return ListArgsSchema().load(raw)


@dataclass
class Listed:
    """A page of tournaments (each as ``public`` serves it, with its ``leader``), newest
    first, and the query strings of the pages before and after it (None: no such page)."""

    items: list[dict[str, Any]]
    older: dict[str, Any] | None
    newer: dict[str, Any] | None


def version_of(t: dict[str, Any]) -> str:
    """What a tournament's shown tables depend on and that changes whenever they may: its
    status and its board pairs stored (results, rounds and match statistics change only when
    a pair is stored, gated or not)."""
    return f"{t['status']}:{t['pairs_done']}"


def listed(store: Store, f: Filters) -> Listed:
    """The page ``f`` asks for, with each row's leader."""
    store.ensure_index()
    page = store.page(f.query, f.limit, before=f.before, after=f.after)
    stored_items = store.tournaments_of(page.ids)
    metas = store.dealset_metas([t["deals"] for t in stored_items if t["status"] == "finished"])
    items = [public(t, metas) for t in stored_items]
    stored = store.leaders(page.ids)
    for t in items:
        t["leader"] = leader_of(store, t, stored.get(t["id"]))
    return Listed(
        items,
        None if page.older is None else {**f.asked, "before": f"t{page.older}"},
        None if page.newer is None else {**f.asked, "after": f"t{page.newer}"},
    )


def leader_of(store: Store, t: dict[str, Any], stored: dict[str, Any] | None) -> dict[str, Any] | None:
    """The tournament's top standings row: the stored winner once finished; else the
    stored leader if the tournament has not moved since, or computed over the boards
    finished everywhere (and stored for the next look)."""
    final = t["status"] == "finished"
    version = "final" if final else version_of(t)
    if stored is None or stored.get("version") != version:
        if not final and not t["pairs_done"]:
            return None
        stored = leader(results_of(store, t["id"]), version)
        if stored is None:
            return None
        store.put_leader(t["id"], stored)
    return {**{k: v for k, v in stored.items() if k != "version"}, "final": final}
