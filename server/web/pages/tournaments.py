"""The list of tournaments and a tournament's page (settings, live progress, standings,
cross-table, matches). Every number comes from the functions the JSON API serves
(``public``, ``results_of``, ``matches_of``), so a page never disagrees with the API."""

from __future__ import annotations

import json
from typing import Any

from flask import render_template

from server.arena.anytime import MIN_BOARDS
from server.arena.formats import format_of
from server.web.context import arena
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


@bp.route("/tournaments")
def tournaments_page():
    store = arena().store
    items = [public(store.tournament(tid)) for tid in reversed(store.tournament_ids())]
    return render_template("tournaments.html", tournaments=items)


@bp.route("/tournaments/<tid>")
def tournament_page(tid: str):
    store = arena().store
    t = public(store.tournament(tid))  # StoreError: the 404 page naming it
    res = results_of(store, tid)
    cross = res["crosstable"]
    order = [r["bot"] for r in res["standings"]]
    order += sorted(set(cross) - set(order))
    return render_template(
        "tournament.html",
        t=t,
        fmt=format_of(t),
        results=res,
        order=order,
        cross=cross,
        matches=matches_of(store, tid),
        cell_class=cell_class,
        final=FINAL,
        anytime_min=MIN_BOARDS,
        settings=json.dumps({k: t[k] for k in ("options", "limits") if t.get(k)}),
    )
