"""A bot's page: what it is, its ratings with their history, its recent matches, and the
decisions the arena had to make for it (timeouts, and answers replaced by the default
action). Never its token: ``bot_view`` (the API's) leaves the token's hash out.

Ratings are ``bot_view``'s, match numbers ``match_view``'s, so the page and the API agree.
The fault details come from the board-pair records of boards anyone may see
(``visible_boards``): a fault's message may name a card of a board still to be played.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

from flask import abort, render_template, request
from markupsafe import Markup

from server.arena.formats import kind_of
from server.arena.formats.boards import board_view
from server.arena.live import mirrored_live
from server.arena.progressive import bot_of
from server.arena.readahead import read_ahead
from server.arena.stats import summarize
from server.arena.store import Store
from server.engine.games import GAMES
from server.web.context import arena
from server.web.pages.blueprint import bp
from server.web.pages.charts import Point, line_chart
from server.web.pages.drawn import drawn
from server.web.pages.matches import visible_boards
from server.web.pages.tournaments import cell_class
from server.web.readmodel import bot_view, match_view

RECENT = 20  # matches a page lists, newest tournament first
MAX_PAGE = 100_000
CHART_POINTS = 200  # a rating chart plots the last this many rating changes
FAULT_MATCHES = 3  # of the page's, the newest whose board-pair records are searched for faults
FAULTS_SHOWN = 10


def recent_matches(store: Store, bot: str, limit: int = RECENT, start: int = 0) -> tuple[list[dict[str, Any]], int]:
    """A page of the bot's matches, newest tournament first (schedule order within one),
    from the ``start``-th on, and how many it has: each as ``match_view`` serves it plus
    the tournament, the other entrants (``opponents``) and the bot's own statistics
    (``mine``): X's, Y's mirrored, or in a match of k entrants (a field, a progressive
    table) the bot's own entrant's, its first copy's if it sits there twice. Read from the
    bot's match index (``Store.bot_matches``), so a page costs its matches only, and read
    ahead (``server.arena.readahead``), so they cost a few round trips, not a dozen each."""
    store.ensure_index()
    mids, total = store.bot_matches(bot, start, limit)
    ahead = read_ahead(store, mids)
    out: list[dict[str, Any]] = []
    for mid in mids:
        match = ahead.match(mid)
        players = match.get("entrants") or [match["x"], match["y"]]
        mine = [j for j, entrant in enumerate(players) if bot_of(entrant) == bot]
        if not mine:
            continue
        m = match_view(ahead, mid, match)
        if "entrant_stats" in m:
            stats = m["entrant_stats"][mine[0]]
        else:
            stats = m["stats"] if mine[0] == 0 else mirrored_live(m["stats"])
        opponents = [entrant for j, entrant in enumerate(players) if j != mine[0]]
        out.append({**m, "tournament": match["tournament"], "opponents": opponents, "mine": stats})
    return out, total


def head_to_head(store: Store, bot: str) -> list[dict[str, Any]]:
    """``head_to_head_rows``, kept in the store until a tournament finishes or the bot gets
    a match (``Store.h2h_version``), so a bot page reads them in one round trip."""
    store.ensure_index()
    version = store.h2h_version(bot)
    rows = store.head_to_head_rows(bot, version)
    if rows is None:
        rows = head_to_head_rows(store, bot)
        store.put_head_to_head_rows(bot, version, rows)
    return rows


def head_to_head_table(bot: str, rows: list[dict[str, Any]]) -> Markup:
    """The head-to-head table (``_head_to_head.html``: a row and two links for each of up
    to a hundred opponents, a third of a bot page's time), kept by exactly what it shows:
    the rows, the bot and where the site is mounted (``drawn``); rows that change draw it again."""
    version = json.dumps(rows, sort_keys=True)
    [table] = drawn(
        [(("head-to-head", bot, request.script_root), version)],
        lambda _: [Markup(render_template("_head_to_head.html", bot={"name": bot}, h2h=rows, cell_class=cell_class))],
    )
    return table


def head_to_head_rows(store: Store, bot: str) -> list[dict[str, Any]]:
    """Every opponent the bot has met on identical cards, per ruleset: the boards, the
    tournaments, and the bot's mean per board against it with its 95% interval (Student's
    t over every board pooled, none under two boards, as the standings give it). From the
    comparisons the match kinds prove (``MatchKind.comparisons``: a pair's board scores, a
    field's per-board differences, a blind entrant against its reference) in finished
    tournaments only, whose boards are all public; a Progressive table proves none (its
    partners change), so it is not counted."""
    pooled: dict[tuple[str, str], list[float]] = {}
    seen: dict[tuple[str, str], set[str]] = {}
    finished: dict[str, bool] = {}
    mids = store.all_bot_matches(bot)
    store = read_ahead(store, mids)
    for mid in reversed(mids):  # oldest first: each pair's boards in play order
        match = store.match(mid)
        tid = match["tournament"]
        if tid not in finished:
            finished[tid] = store.tournament(tid)["status"] == "finished"
        if not finished[tid] or not (kind := kind_of(match)).rated:
            continue
        for comparison, margins in kind.comparisons(store, match):
            x, y = bot_of(comparison["x"]), bot_of(comparison["y"])
            if bot not in (x, y) or x == y:
                continue
            other, sign = (y, 1) if x == bot else (x, -1)
            key = (match["ruleset"], other)
            pooled.setdefault(key, []).extend(sign * margins[b] for b in sorted(margins))
            seen.setdefault(key, set()).add(tid)
    order = {r: i for i, r in enumerate(GAMES)}
    rows = [
        {"ruleset": r, "opponent": o, "tournaments": len(seen[(r, o)]), **summarize(scores).to_dict()}
        for (r, o), scores in pooled.items()
    ]
    return sorted(rows, key=lambda row: (order.get(row["ruleset"], len(order)), -row["boards"], row["opponent"]))


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
    tids = sorted(by_tournament)
    # a finished tournament is read whole (``gated``): every stored board of it is finished everywhere
    over = {tid for tid, t in zip(tids, store.tournaments_of(tids)) if t["status"] == "finished"}
    visible = {
        tid: boards if tid in over else set(visible_boards(store, tid, boards)) for tid, boards in by_tournament.items()
    }
    found = []
    for m in matches:
        match = store.match(m["id"])
        boards = sorted(stored[m["id"]] & visible[m["tournament"]], reverse=True)
        records = store.fault_records(m["id"], boards)  # one round trip a match; only records with a fault parsed
        for board in boards:
            if board not in records:  # stored_boards lists the boards whose pair is stored
                raise RuntimeError(f"match {m['id']} lists board {board} as stored but holds no pair for it")
            record = records[board]
            if record is None:  # no room of it holds a fault
                continue
            for room, seats in seats_of(match, record, bot):
                for fault in record["rooms"][room].get("faults", []):
                    if fault["seat"] in seats:
                        found.append({"match": m["id"], "board": board, "room": room + 1, **fault})
    return found


def rating_charts(store: Store, bot: str, rulesets: list[str]) -> dict[str, Any]:
    """Per ruleset, the bot's rating history charted: the line is the estimate after each
    tournament that moved it, the band its 95% interval, so one sees both where the bot
    stands and how sure that is. Drawn once per version of the ratings (``drawn``)."""

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

    def chart(ruleset: str) -> Markup:
        return line_chart(
            [point(p) for p in store.rating_history(ruleset, [bot], last=CHART_POINTS)[bot]],
            title=f"{bot}'s {ruleset} rating after each tournament that moved it, with its 95% interval",
            zero=True,
            x_title="after the tournament of (UTC)",
            y_title="rating, points per board",
            bars=True,
        )

    versions = store.ratings_versions(rulesets)
    charts = drawn(
        [((store.prefix, r, "chart", bot), versions[r]) for r in rulesets],
        lambda missing: [chart(rulesets[i]) for i in missing],
    )
    return dict(zip(rulesets, charts))


@bp.route("/bots/<name>")
def bot_page(name: str):
    store = arena().store
    bot = bot_view(name)  # a 404 for an unknown bot (an HTML page here)
    page = request.args.get("page", "1")
    if not page.isdigit() or not 1 <= int(page) <= MAX_PAGE:
        abort(400, description=f"page must be a whole number from 1 to {MAX_PAGE}, not {page[:20]!r}")
    number = int(page)
    recent, total = recent_matches(store, name, start=(number - 1) * RECENT)
    faults = replaced_decisions(store, name, recent[:FAULT_MATCHES])
    rulesets = [r for r in GAMES if r in bot["ratings"]]  # every game it is rated in, in the registry's order
    return render_template(
        "bot.html",
        bot=bot,
        seen=None if bot["kind"] == "builtin" else store.last_seen(name),
        rulesets=rulesets,
        charts=rating_charts(store, name, rulesets),
        recent=recent,
        page=number,
        pages=max(1, -(-total // RECENT)),
        match_count=total,
        head_to_head=head_to_head_table(name, head_to_head(store, name)),
        faults=faults[:FAULTS_SHOWN],
        fault_count=len(faults),
        fault_matches=min(len(recent), FAULT_MATCHES),
        timeouts=sum(m["timeouts"].get(name, 0) for m in recent),
        cell_class=cell_class,
    )
