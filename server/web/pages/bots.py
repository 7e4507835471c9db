"""A bot's page: what it is, its ratings with their history, its recent matches, and the
decisions the arena had to make for it (timeouts, and answers replaced by the default
action). Never its token: ``bot_view`` (the API's) leaves the token's hash out.

Ratings are ``bot_view``'s, match numbers ``match_view``'s, so the page and the API agree.
The fault details come from the board-pair records of boards anyone may see
(``visible_boards``): a fault's message may name a card of a board still to be played.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

from flask import render_template

from server.arena.formats import kind_of
from server.arena.formats.boards import board_view
from server.arena.live import mirrored_live
from server.arena.progressive import bot_of
from server.arena.store import Store
from server.arena.tournaments import entrants
from server.engine.games import GAMES
from server.web.context import arena
from server.web.pages.blueprint import bp
from server.web.pages.charts import Point, line_chart
from server.web.pages.matches import visible_boards
from server.web.pages.tournaments import cell_class
from server.web.readmodel import bot_view, match_view

RECENT = 20  # matches listed, newest tournament first
FAULT_MATCHES = 3  # of those, the newest whose board-pair records are searched for faults
FAULTS_SHOWN = 10


def recent_matches(store: Store, bot: str, limit: int = RECENT) -> list[dict[str, Any]]:
    """The bot's matches, newest tournament first (schedule order within one), each as
    ``match_view`` serves it plus the tournament, the other entrants (``opponents``) and the
    bot's own statistics (``mine``): X's, Y's mirrored, or in a match of k entrants (a field,
    a progressive table) the bot's own entrant's, its first copy's if it sits there twice."""
    out: list[dict[str, Any]] = []
    for tid in reversed(store.tournament_ids()):
        if bot not in entrants(store.tournament(tid)):
            continue
        for mid in store.match_ids(tid):
            match = store.match(mid)
            players = match.get("entrants") or [match["x"], match["y"]]
            mine = [j for j, entrant in enumerate(players) if bot_of(entrant) == bot]
            if not mine:
                continue
            m = match_view(store, mid, match)
            if "entrant_stats" in m:
                stats = m["entrant_stats"][mine[0]]
            else:
                stats = m["stats"] if mine[0] == 0 else mirrored_live(m["stats"])
            opponents = [entrant for j, entrant in enumerate(players) if j != mine[0]]
            out.append({**m, "tournament": tid, "opponents": opponents, "mine": stats})
            if len(out) >= limit:
                return out
    return out


def seats_of(match: dict[str, Any], record: dict[str, Any], bot: str) -> Iterator[tuple[int, set[str]]]:
    """(room index, seats) where ``bot`` sat in a stored board record, in every kind of match
    (``formats.boards.board_view``: who held each seat of each room; a Progressive house copy
    ``random#2`` is its bot). A par room is the references' alone and shared by every
    entrant's match, so it is nobody's fault here."""
    for index, room in enumerate(board_view(match, record)["rooms"]):
        if kind_of(match).par_room and index > 0:
            continue
        yield index, {seat for seat, who in room["seats"].items() if bot_of(who) == bot}


def replaced_decisions(store: Store, bot: str, matches: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every decision of ``bot`` that the default action replaced (a timeout, an error or
    an illegal action) in ``matches``, on the boards anyone may see; newest match first,
    then by board, last board first."""
    stored = {m["id"]: store.stored_boards(m["id"]) for m in matches}
    by_tournament: dict[str, set[int]] = {}
    for m in matches:  # each board checked once per tournament
        by_tournament.setdefault(m["tournament"], set()).update(stored[m["id"]])
    visible = {tid: set(visible_boards(store, tid, boards)) for tid, boards in by_tournament.items()}
    found = []
    for m in matches:
        match = store.match(m["id"])
        boards = sorted(stored[m["id"]] & visible[m["tournament"]], reverse=True)
        records = store.pairs(m["id"], boards)  # one round trip a match, whatever its boards
        for board in boards:
            record = records.get(board)
            if record is None:  # stored_boards lists the boards whose pair is stored
                raise RuntimeError(f"match {m['id']} lists board {board} as stored but holds no pair for it")
            for room, seats in seats_of(match, record, bot):
                for fault in record["rooms"][room].get("faults", []):
                    if fault["seat"] in seats:
                        found.append({"match": m["id"], "board": board, "room": room + 1, **fault})
    return found


def rating_charts(store: Store, bot: str, rulesets: list[str]) -> dict[str, Any]:
    """Per ruleset, the bot's rating history charted: the line is the estimate after each
    tournament that moved it, the band its 95% interval, so one sees both where the bot
    stands and how sure that is."""

    def point(p: dict[str, Any]) -> Point:
        when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(p["t"]))
        mark = ", provisional" if p["provisional"] else ""
        return Point(
            p["rating"],
            when[:16],
            f"{when}, after t{p['tournament']}: rating {p['rating']:+.2f}, 95% [{p['low']:+.2f}, {p['high']:+.2f}]{mark}",
            p["low"],
            p["high"],
        )

    return {
        ruleset: line_chart(
            [point(p) for p in store.rating_history(ruleset, [bot])[bot]],
            title=f"{bot}'s {ruleset} rating after each tournament that moved it, with its 95% interval",
            zero=True,
            x_title="after the tournament of (UTC)",
            y_title="rating, points per board",
            bars=True,
        )
        for ruleset in rulesets
    }


@bp.route("/bots/<name>")
def bot_page(name: str):
    store = arena().store
    bot = bot_view(name)  # a 404 for an unknown bot (an HTML page here)
    recent = recent_matches(store, name)
    faults = replaced_decisions(store, name, recent[:FAULT_MATCHES])
    rulesets = [r for r in GAMES if r in bot["ratings"]]  # every game it is rated in, in the registry's order
    return render_template(
        "bot.html",
        bot=bot,
        seen=None if bot["kind"] == "builtin" else store.last_seen(name),
        rulesets=rulesets,
        charts=rating_charts(store, name, rulesets),
        recent=recent,
        faults=faults[:FAULTS_SHOWN],
        fault_count=len(faults),
        fault_matches=min(len(recent), FAULT_MATCHES),
        timeouts=sum(m["timeouts"].get(name, 0) for m in recent),
        cell_class=cell_class,
    )
