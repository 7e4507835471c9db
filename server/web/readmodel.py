"""The read model: what the API and the pages both show of tournaments, matches, bots and tables.

One module for both surfaces, so a page never shows something the API withholds (or the
other way round), and neither imports the other. Each function reads the store through
the request's arena context and answers 404 (``flask_smorest.abort``) for a missing object.
"""

from __future__ import annotations

import hashlib

from flask_smorest import abort

from server.arena import registry
from server.arena.formats import kind_of
from server.arena.live import live_stats, match_corrected, sprt_of
from server.arena.ratings import leaderboard
from server.arena.readahead import read_ahead
from server.arena.store import Store, StoreError
from server.arena.tournaments import results
from server.arena.visibility import gated
from server.engine import game_spec, make_ruleset
from server.engine.record import scores_after
from server.web.context import arena


def public(t: dict, metas: dict[str, dict] | None = None) -> dict:
    """A tournament as served: its commitment always, the deal set's seed only once it is
    finished (before, it would tell every bot every deal of a secret set). The stored spec's
    ``seed`` (the built-in bots' seed) is never served under that name. ``metas``: the deal
    sets' metadata already read, by name (a list reads them in one round trip)."""
    seed = None
    if t["status"] == "finished":
        meta = (metas.get(t["deals"]) if metas is not None else arena().store.dealset_meta(t["deals"])) or {}
        seed = meta.get("seed")
    return {**t, "name": t.get("name"), "commitment": t.get("commitment"), "deals_seed": seed}


def results_of(store: Store, tid: str) -> dict:
    """A tournament's results: the stored ones once it is finished, else computed from the
    boards finished everywhere so far (``server.arena.visibility``; the pages serve the same),
    with the tournament's name (results stored before names existed have none)."""
    res = store.results(tid) or results(gated(store, tid), tid)
    return {**res, "name": store.tournament(tid).get("name")}


def match_view(store: Store, mid: str, match: dict | None = None) -> dict:
    """A match as served: its statistics so far with the anytime-valid interval
    (``live_stats``), the luck-corrected mean, its sequential test's standing (in a
    tournament with sprt), remote timeouts and faulty bots; every figure over the boards
    finished everywhere only (``server.arena.visibility``)."""
    m = match or store.match(mid)
    store = gated(store, m["tournament"])
    kind = kind_of(m)
    players = m.get("entrants") or [m["x"], m["y"]]
    field = (
        {"entrants": players, "entrant_stats": [{"bot": b, **st.to_dict()} for b, st in kind.entrant_stats(store, m)]}
        if kind.several
        else {}
    )
    return {
        "id": mid,
        "x": m["x"],
        "y": m["y"],
        "status": m["status"],
        **field,
        "stats": live_stats(store, mid, m),
        "corrected": match_corrected(store, mid),
        **sprt_of(store, m),
        "timeouts": store.timeouts(mid),
        "faulty": sorted(b for b in players if store.is_faulty(mid, b)),
    }


def matches_of(store: Store, tid: str) -> list[dict]:
    """A tournament's matches, each as ``match_view`` serves it, all read ahead in a few
    round trips (``server.arena.readahead``)."""
    mids = store.match_ids(tid)
    ahead = read_ahead(store, mids)
    return [match_view(ahead, mid) for mid in mids]


OVER = ("finished", "failed")
"""A table's statuses once its game will never go on: its record and deal seed are shown."""


def visible_pair(store: Store, mid: str, board: int) -> tuple[dict, dict | None]:
    """A match (``StoreError`` if there is none) and its board pair, the pair only once the
    board is finished in every match of the tournament: the one gate for the API and pages."""
    match = store.match(mid)
    done = store.board_done_everywhere(match["tournament"], board)
    return match, store.pair(mid, board) if done else None


def tournament_or_404(tid: str) -> dict:
    try:
        return arena().store.tournament(tid)
    except StoreError:
        abort(404, message=f"no tournament {tid!r}")


def bot_view(name: str) -> dict:
    try:
        bot = arena().store.bot(name)
    except StoreError:
        abort(404, message=f"no bot {name!r}")
    return bot_views([bot])[0]


def bot_views(bots: list[dict]) -> list[dict]:
    """Stored bots as served, each with its rating in every ruleset that rates it; every
    ruleset's leaderboard read once for them all (the bot list shows a hundred)."""
    store = arena().store
    boards = {
        ruleset: {r["bot"]: r for r in leaderboard(store.ratings(ruleset))} for ruleset in store.rating_rulesets()
    }
    return [
        {
            **bot,
            "trusted": registry.is_trusted(bot),
            "ratings": {
                ruleset: {k: v for k, v in rows[bot["name"]].items() if k not in ("bot", "boards")}
                for ruleset, rows in boards.items()
                if bot["name"] in rows
            },
        }
        for bot in bots
    ]


def table_or_404(tid: str) -> dict:
    try:
        return arena().store.table(tid)
    except StoreError:
        abort(404, message=f"no table {tid!r}")


def game_scores(table: dict, hands: list[dict]) -> dict[str, int]:
    """The game score by the ruleset's sides: the final one once the game is over (the
    worker's word: an All Fours game stops counting mid-hand), else after the last hand."""
    if table.get("final_scores") is not None:
        return table["final_scores"]
    if hands:
        return scores_after(hands[-1])
    rules = make_ruleset(table["ruleset"], table["options"])
    return {side: 0 for side in game_spec(rules).sides(rules.players)[0]}


def view(tid: str) -> dict:
    table = table_or_404(tid)
    store = arena().store
    hands = store.table_hands(tid)
    summary = [
        {
            "number": h["number"],
            "scores": h["scores"],
            "delta": h["result"]["delta"],
            "contract": h["result"]["contract"],
            "trump": h["result"]["trump"],
            "points": h["result"]["points"],
            "tricks": h["public"]["tricks"],
        }
        for h in hands
    ]
    return {
        **{k: table[k] for k in ("id", "ruleset", "options", "seats", "status", "winner", "limits")},
        "practice": bool(table.get("practice", False)),
        "humans": table.get("humans", {}),
        "hands_played": len(hands),
        "scores": game_scores(table, hands),
        "hands": summary,
        "live": store.table_live(tid) if table["status"] == "running" else None,
        "commitment": hashlib.sha256(table["deal_seed"].encode("utf-8")).hexdigest(),
        "deal_seed": table["deal_seed"] if table["status"] in OVER else None,
        "error": table.get("error"),
    }
