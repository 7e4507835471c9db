"""The list of tables and a table's page: seats, scores, the hand in progress and the
finished hands, live while the game runs. Everything shown comes from the API's public
view (``server.api.tables.view``), never from the stored record, so a spectator here sees
exactly what ``GET /api/v1/tables/{id}`` shows and no card from anyone's hand."""

from __future__ import annotations

from flask import render_template

from server.engine.cards import SIDES

from ..api.context import arena
from ..api.tables import view
from .blueprint import bp


@bp.route("/tables")
def tables_page():
    return render_template("tables.html", tables=[view(tid) for tid in reversed(arena().store.table_ids())])


@bp.route("/tables/<tid>")
def table_page(tid: str):
    # an unknown table is view()'s 404, drawn as an HTML page off /api/ (init_pages)
    return render_template("table.html", t=view(tid), sides=SIDES)     # a side's name is its seats
