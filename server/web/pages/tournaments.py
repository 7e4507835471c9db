"""The list of tournaments and a tournament's page (settings, live progress, standings,
cross-table, matches). Every number comes from the functions the JSON API serves
(``public``, ``results_of``, ``matches_of``), so a page never disagrees with the API.

While a tournament runs, its page and the list poll their live views (``.../live``, JSON:
``static/live.js``). A view answers the page's parts rendered by the same templates, or,
when the page says it has seen the current ``version`` (``?seen=``), only the version: a
poll of a tournament that has not moved reads one record and renders nothing.
"""

from __future__ import annotations

import json
from typing import Any

import marshmallow as ma
from flask import abort, jsonify, render_template, request, url_for

from server.arena.anytime import MIN_BOARDS
from server.arena.formats import FORMATS, format_of
from server.arena.settings import DEFAULT_LIMITS
from server.arena.store import Store
from server.arena.tournaments import STATUSES
from server.engine import GAMES
from server.web.context import arena
from server.web.listing import Filters, Listed, filters, listed, load_args, version_of
from server.web.pages.blueprint import FINAL, bp
from server.web.readmodel import matches_of, public, results_of


def cell_class(stats: dict[str, Any] | None) -> str:
    """A cross-table cell's colour: by sign, and stronger when the 95% interval excludes zero."""
    if not stats or not stats.get("boards"):
        return "empty"
    low, high, mean = stats.get("ci_low"), stats.get("ci_high"), stats["mean"]
    significant = low is not None and high is not None and (low > 0 or high < 0)  # both or neither
    sign = "pos" if mean > 0 else "neg" if mean < 0 else "zero"
    return f"{sign} sig" if significant and sign != "zero" else sign


def seconds(ms: int) -> str:
    """A time limit for people: "5 s", "0.25 s", "1 min 30 s"."""
    if ms >= 60_000:
        minutes, rest = divmod(ms, 60_000)
        return f"{minutes} min" + (f" {rest / 1000:g} s" if rest else "")
    return f"{ms / 1000:g} s"


def time_controls(t: dict[str, Any]) -> list[dict[str, Any]]:
    """A tournament's time controls for its remote seats as they apply (``limits`` over the
    arena's ``DEFAULT_LIMITS``, as ``workers.remote`` merges them), each saying whether the
    tournament set it or it is the default."""
    limits = t.get("limits") or {}
    effective = {**DEFAULT_LIMITS, **limits}
    shown = {
        "decision_ms": ("per decision", seconds(effective["decision_ms"])),
        "bank_ms": ("time bank, per bot and match", seconds(effective["bank_ms"])),
        "max_timeouts": ("timeouts before faulty", str(effective["max_timeouts"])),
    }
    return [
        {"key": key, "label": label, "value": value, "raw": effective[key], "default": key not in limits}
        for key, (label, value) in shown.items()
    ]


def verify_command(t: dict[str, Any], server: str) -> str:
    """The ``cinch deals verify`` line that checks a finished tournament's revealed seed
    against its commitment and every board it served (docs/fair-play.md); empty before the
    seed is revealed or for a named (public) set."""
    c = t.get("commitment")
    if not c or not t.get("deals_seed"):
        return ""
    shape = "".join(f" --{k} {c[k]}" for k in ("players", "deck") if c.get(k))
    return (
        f"cinch deals verify --seed {t['deals_seed']} --commitment {c['seed_sha256']} --boards {c['boards']}{shape}"
        f" --deals-sha256 {c['deals_sha256']} --server {server.rstrip('/')} --tournament {t['id']}"
    )


def live(version: str, final: bool, render: Any, **fields: Any):
    """A live view's answer: the version, whether polling may stop, the fields the page
    updates in place, and the parts' HTML unless the page has seen this version."""
    seen = request.args.get("seen")
    return jsonify({"version": version, "final": final, **fields, "html": None if seen == version else render()})


def asked_page() -> Filters:
    """The list query of this request's query string (a live view's ``seen`` aside); a
    400 page says what is wrong."""
    args = {k: v for k, v in request.args.lists() if k != "seen"}
    try:
        return filters(load_args({k: v[-1] for k, v in args.items()}, lambda k: args.get(k, [])))
    except ma.ValidationError as exc:
        wrong = "; ".join(
            f"{k}: {' '.join(map(str, v)) if isinstance(v, list) else v}" for k, v in exc.normalized_messages().items()
        )
        abort(400, description=f"this list cannot be shown: {wrong}")


def list_version(page: Listed) -> str:
    return " ".join(f"{t['id']}:{version_of(t)}" for t in page.items)


def list_context(page: Listed, f: Filters) -> dict[str, Any]:
    """What ``_tournaments_list.html`` shows: the page's rows and its links."""
    return {
        "tournaments": page.items,
        "older": None if page.older is None else url_for("pages.tournaments_page", **page.older),
        "newer": None if page.newer is None else url_for("pages.tournaments_page", **page.newer),
        "filtered": bool(f.asked) or f.before is not None or f.after is not None,
    }


def list_final(page: Listed) -> bool:
    """Whether the list may stop polling: every tournament listed is over."""
    return all(t["status"] in FINAL for t in page.items)


@bp.route("/tournaments")
def tournaments_page():
    f = asked_page()
    page = listed(arena().store, f)
    query = request.query_string.decode()
    return render_template(
        "tournaments.html",
        **list_context(page, f),
        asked=f.asked,
        rulesets=list(GAMES),
        formats=list(FORMATS),
        statuses=STATUSES,
        live_url=url_for("pages.tournaments_live") + (f"?{query}" if query else ""),
        version=list_version(page),
        final=list_final(page),
    )


@bp.route("/tournaments/live")
def tournaments_live():
    f = asked_page()
    page = listed(arena().store, f)
    return live(
        list_version(page),
        list_final(page),
        lambda: render_template("_tournaments_list.html", **list_context(page, f)),
    )


def tables_context(store: Store, t: dict[str, Any]) -> dict[str, Any]:
    """What ``_tournament_tables.html`` shows of tournament ``t`` (as ``public`` serves it)."""
    res = results_of(store, t["id"])
    cross = res["crosstable"]
    order = [r["bot"] for r in res["standings"]]
    order += sorted(set(cross) - set(order))
    return {
        "t": t,
        "fmt": format_of(t),
        "results": res,
        "order": order,
        "cross": cross,
        "matches": matches_of(store, t["id"]),
        "cell_class": cell_class,
        "final": FINAL,
        "anytime_min": MIN_BOARDS,
    }


@bp.route("/tournaments/<tid>")
def tournament_page(tid: str):
    store = arena().store
    t = public(store.tournament(tid))  # StoreError: the 404 page naming it
    return render_template(
        "tournament.html",
        **tables_context(store, t),
        version=version_of(t),
        options=json.dumps(t["options"]) if t.get("options") else "",
        controls=time_controls(t),
        verify=verify_command(t, request.host_url),
    )


@bp.route("/tournaments/<tid>/live")
def tournament_live(tid: str):
    store = arena().store
    t = public(store.tournament(tid))
    return live(
        version_of(t),
        t["status"] in FINAL,
        lambda: render_template("_tournament_tables.html", **tables_context(store, t)),
        status=t["status"],
        pairs_done=t["pairs_done"],
        pairs_total=t["pairs_total"],
        error=t.get("error") or "",
    )
