"""The list of tables and a table's page: seats, scores, the hand in progress and the
finished hands, live while the game runs. Everything shown comes from the API's public
view (``server.web.api.tables.view``), never from the stored record, so a spectator here sees
exactly what ``GET /api/v1/tables/{id}`` shows and no card from anyone's hand.

A human seat's page (``/tables/{id}/seat#<token>``) is the same page and a seat panel: the
server draws it without the token (a URL fragment never reaches the server) and without a
card; its script (``static/seat.js``) reads the token from the fragment and asks the API,
with the token in the Authorization header, for the seat's decisions, which alone carry
the seat's cards."""

from __future__ import annotations

from typing import Any

from flask import render_template

from server.engine import game_spec, make_ruleset, seats_for
from server.web.context import arena
from server.web.pages.blueprint import bp
from server.web.readmodel import view


def sides_of(table: dict[str, Any]) -> list[tuple[str, list[str]]]:
    """The table's sides in order, each with its seats: (NS, [N, S]), (EW, [E, W]) at
    four in partnerships, (P1, [P1]) ... where each plays for himself."""
    rules = make_ruleset(table["ruleset"], table["options"])
    names, side_of = game_spec(rules).sides(rules.players)
    seats = seats_for(rules.players)
    return [(name, [seat for seat, j in zip(seats, side_of) if j == i]) for i, name in enumerate(names)]


def seat_holder(table: dict[str, Any], seat: str) -> str | None:
    """Who holds a seat, as the pages show it: the bot, the person's name for a human
    seat (``server.arena.humans``; its principal is no one's name), or None if open."""
    human = table.get("humans", {}).get(seat)
    return f"{human['human']} (person)" if human else table["seats"][seat]


bp.add_app_template_global(seat_holder, "seat_holder")


@bp.route("/tables")
def tables_page():
    return render_template("tables.html", tables=[view(tid) for tid in reversed(arena().store.table_ids())])


@bp.route("/tables/<tid>")
def table_page(tid: str):
    # an unknown table is view()'s 404, drawn as an HTML page off /api/ (init_pages)
    table = view(tid)
    return render_template("table.html", t=table, sides=sides_of(table))


@bp.route("/tables/<tid>/seat")
def human_seat_page(tid: str):
    table = view(tid)
    return render_template("seat.html", t=table, sides=sides_of(table))
