"""Web pages for people: server-rendered, read-only, no login.

The leaderboard per ruleset, the list of tournaments and a tournament's page (settings,
live progress, standings, cross-table, matches). Every number comes from the same
functions the JSON API serves (``server.ratings.leaderboard``, the tournament views'
``public``, ``results_of`` and ``matches_of``), so a page never disagrees with the API.
Nothing is loaded from another host; the only script polls the arena's own API for a
running tournament's progress. No page shows any card.

Errors on these paths are HTML pages; under ``/api/`` they stay problem+json
(``html_errors`` wraps the app's problem handlers).
"""

from __future__ import annotations

import json
import time
from typing import Any, Callable

from flask import Blueprint, Flask, Response, abort, render_template, request

from server.engine import BASE_RULESETS, DEFAULT_RULESET
from server.ratings import leaderboard
from server.store import StoreError

from ..api.context import arena
from ..api.limits import check_request
from ..api.tournaments import matches_of, public, results_of

bp = Blueprint("pages", __name__, template_folder="templates", static_folder="static",
               static_url_path="/assets")
bp.before_request(check_request)     # path and query strings within bounds; never a token

FINAL = ("finished", "cancelled", "failed")


def _kinds() -> dict[str, str]:
    return {b["name"]: b["kind"] for b in arena().store.bots()}


@bp.app_template_filter("when")
def _when(stamp: float | None) -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(stamp)) if stamp else ""


@bp.app_template_filter("signed")
def _signed(value: float | None, digits: int = 2) -> str:
    return "" if value is None else f"{value + 0.0:+.{digits}f}"     # + 0.0: no "-0.00"


def cell_class(stats: dict[str, Any] | None) -> str:
    """A cross-table cell's colour: by sign, and stronger when the 95% interval excludes zero."""
    if not stats or not stats.get("boards"):
        return "empty"
    low, high, mean = stats.get("ci_low"), stats.get("ci_high"), stats["mean"]
    significant = low is not None and (low > 0 or high < 0)
    sign = "pos" if mean > 0 else "neg" if mean < 0 else "zero"
    return f"{sign} sig" if significant and sign != "zero" else sign


@bp.route("/")
@bp.route("/leaderboard")
def leaderboard_page():
    ruleset = request.args.get("ruleset", DEFAULT_RULESET)
    if ruleset not in BASE_RULESETS:
        abort(404, description=f"unknown ruleset {ruleset!r} (known: {', '.join(BASE_RULESETS)})")
    rows = leaderboard(arena().store.ratings(ruleset))
    return render_template("leaderboard.html", ruleset=ruleset, rulesets=list(BASE_RULESETS), rows=rows,
                           kinds=_kinds())


@bp.route("/tournaments")
def tournaments_page():
    store = arena().store
    items = [public(store.tournament(tid)) for tid in reversed(store.tournament_ids())]
    return render_template("tournaments.html", tournaments=items)


@bp.route("/tournaments/<tid>")
def tournament_page(tid: str):
    store = arena().store
    try:
        t = public(store.tournament(tid))
    except StoreError:
        abort(404, description=f"no tournament {tid!r}")
    res = results_of(store, tid)
    cross = res["crosstable"]
    order = [r["bot"] for r in res["standings"]]
    order += sorted(set(cross) - set(order))
    return render_template("tournament.html", t=t, results=res, order=order, cross=cross,
                           matches=matches_of(store, tid), cell_class=cell_class, final=FINAL,
                           settings=json.dumps({k: t[k] for k in ("options", "limits") if t.get(k)}))


def _as_html(handler: Callable[[Exception], Response]) -> Callable[[Exception], Response]:
    """The problem handler for /api/ paths; elsewhere the same status and headers as an HTML page."""
    def handle(error: Exception) -> Response:
        response = handler(error)
        if request.path.startswith("/api/") or response.mimetype != "application/problem+json":
            return response
        body = json.loads(response.get_data())
        page = render_template("error.html", status=response.status_code, title=body.get("title", ""),
                               detail=body.get("detail", ""))
        html = Response(page, status=response.status_code, mimetype="text/html")
        for name, value in response.headers.items():
            if name.lower() not in ("content-type", "content-length"):
                html.headers[name] = value
        return html
    return handle


def init_pages(app: Flask) -> None:
    """Register the pages; call after every problem handler is registered."""
    app.register_blueprint(bp)
    for by_code in app.error_handler_spec[None].values():
        for cls, handler in list(by_code.items()):
            by_code[cls] = _as_html(handler)
