"""A match's page: who played whom, its statistics (while it runs, with the anytime-valid
interval beside the fixed-count one), and its board scores charted as the cumulative net
over the boards.

The statistics, timeouts and faulty bots are ``match_view``'s (the API's) for the match.
Board scores are listed and charted only for boards finished in every match of the
tournament (``Store.board_done_everywhere``, the rule the board-pair API applies): a
board's score, and the link to its cards, wait until no one has the board still to play.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from flask import abort, render_template, request

from server.arena.anytime import MIN_BOARDS
from server.arena.formats import kind_of
from server.arena.stats import t95
from server.arena.store import Store
from server.web.context import arena
from server.web.listing import version_of
from server.web.pages.blueprint import FINAL, bp
from server.web.pages.charts import Point, line_chart
from server.web.pages.tournaments import cell_class, live
from server.web.readmodel import match_view, public

BOARDS_PAGE = 50  # board rows a page of the match lists
CHART_POINTS = 200  # points the cumulative chart plots at most
MAX_PAGE = 100_000


def board_page() -> int:
    """The page of boards asked (``?page=``, from 1); a 400 page for anything else."""
    page = request.args.get("page", "1")
    if not page.isdigit() or not 1 <= int(page) <= MAX_PAGE:
        abort(400, description=f"page must be a whole number from 1 to {MAX_PAGE}, not {page[:20]!r}")
    return int(page)


def visible_boards(store: Store, tid: str, boards: Iterable[int]) -> list[int]:
    """Those of ``boards`` (stored boards of tournament ``tid``'s matches) that anyone
    may see, in board order."""
    return [b for b in sorted(set(boards)) if store.board_done_everywhere(tid, b)]


def cumulative(boards: list[int], scores: dict[int, int | float]) -> list[dict[str, Any]]:
    """X's running net over ``boards`` with its band: after n boards, the total's 95%
    interval, i.e. n times the running mean's 95% interval (Student's t, as the match's
    statistics use); none for the first board. Where the band leaves zero the boards so
    far separate the two bots; at the last board it is the match's own interval, times n,
    when every board is shown."""
    out: list[dict[str, Any]] = []
    total: float = 0
    squares: float = 0
    for n, board in enumerate(boards, 1):
        s = scores[board]
        total = round(total + s, 6)
        squares += s * s
        half = t95(n - 1) * math.sqrt(max(0.0, (squares - total * total / n) / (n - 1)) * n) if n > 1 else None
        out.append(
            {
                "board": board,
                "score": s,
                "total": total,
                "low": None if half is None else total - half,
                "high": None if half is None else total + half,
            }
        )
    return out


def thinned(rows: list[dict[str, Any]], most: int = CHART_POINTS) -> list[dict[str, Any]]:
    """At most ``most`` of the rows, evenly spaced and always the last: a chart of a long
    match keeps its shape and its end with a bounded number of points."""
    if len(rows) <= most:
        return rows
    step = len(rows) / (most - 1)
    picked = sorted({min(len(rows) - 1, round(i * step)) for i in range(most - 1)} | {len(rows) - 1})
    return [rows[i] for i in picked]


def match_context(store: Store, mid: str, match: dict[str, Any], t: dict[str, Any], page: int = 1) -> dict[str, Any]:
    """What ``_match_live.html`` shows of match ``mid`` of tournament ``t`` (as ``public``
    serves it): the chart over every board shown (at most ``CHART_POINTS`` points), the
    table of boards one page of ``BOARDS_PAGE`` at a time."""
    row = match_view(store, mid, match)
    scores = store.scores(mid)
    stored = sorted(scores)
    shown = cumulative(stored if t["status"] == "finished" else visible_boards(store, t["id"], scores), scores)
    pages = max(1, -(-len(shown) // BOARDS_PAGE))
    page = min(page, pages)
    chart = line_chart(
        [
            Point(
                r["total"],
                str(r["board"]),
                f"board {r['board']}: {r['score']:+g}, net {r['total']:+g}",
                r["low"],
                r["high"],
            )
            for r in thinned(shown)
        ],
        title=f"{match['x']}'s cumulative net over the boards shown",
        zero=True,
        x_title="board",
        y_title="cumulative net, points",
    )
    return {
        "m": row,
        "match": match,
        "t": t,
        "note": kind_of(match).note(match),
        "blind": kind_of(match).par_room,
        "field": kind_of(match).several,
        "boards": shown[(page - 1) * BOARDS_PAGE : page * BOARDS_PAGE],
        "board_page": page,
        "board_pages": pages,
        "boards_shown": len(shown),
        "thinned": len(shown) > CHART_POINTS,
        "chart_points": CHART_POINTS,
        "hidden": len(scores) - len(shown),
        "chart": chart,
        "cell_class": cell_class,
        "board_count": match["last"] - match["first"] + 1,
        "anytime_min": MIN_BOARDS,
    }


def match_version(match: dict[str, Any], t: dict[str, Any]) -> str:
    """A match's page changes with its status and, its boards being shown once finished in
    every match, with its tournament's (``tournaments.version_of``)."""
    return f"{match['status']}:{version_of(t)}"


@bp.route("/matches/<mid>")
def match_page(mid: str):
    store = arena().store
    match = store.match(mid)  # StoreError: the 404 page naming it
    t = public(store.tournament(match["tournament"]))
    return render_template(
        "match.html",
        **match_context(store, mid, match, t, board_page()),
        version=match_version(match, t),
        final=t["status"] in FINAL,
    )


@bp.route("/matches/<mid>/live")
def match_live(mid: str):
    store = arena().store
    match = store.match(mid)
    t = public(store.tournament(match["tournament"]))
    return live(
        match_version(match, t),
        t["status"] in FINAL,
        lambda: render_template("_match_live.html", **match_context(store, mid, match, t, board_page())),
    )
