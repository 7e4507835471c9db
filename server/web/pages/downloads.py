"""A tournament's downloads for people who analyse it elsewhere: its standings as CSV and its
finished boards' hands as JSON Lines. (Its results as JSON are the API's,
``GET /api/v1/tournaments/<tid>/results``, which the tournament page links.)

Both read what the page reads and no more: the standings of ``results_of`` (over the boards
finished everywhere while the tournament runs) and, for the hands, only the boards finished
in every match (``visible_boards`` then ``visible_pair``, the board pages' gate), so a
download never holds a card of a board someone still has to play.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from typing import Any

from flask import Response, stream_with_context

from server.arena.store import Store
from server.web.context import arena
from server.web.pages.blueprint import bp
from server.web.pages.matches import visible_boards
from server.web.readmodel import results_of, visible_pair

STANDINGS_COLUMNS = (
    "rank",
    "bot",
    "mean",
    "ci_low",
    "ci_high",
    "boards",
    "total",
    "won",
    "tied",
    "lost",
    "matches",
    "match_wins",
    "match_draws",
    "last_table",
)
"""The CSV's columns: a standings row of ``GET .../results`` (``StandingSchema``) with its rank."""


def attachment(body: Any, mimetype: str, filename: str) -> Response:
    response = Response(body, mimetype=mimetype)
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def standings_csv(standings: list[dict[str, Any]]) -> str:
    """The standings as CSV, best first; an absent figure (no interval under two boards, a
    progressive row's table elsewhere) is an empty field."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")  # RFC 4180
    writer.writerow(STANDINGS_COLUMNS)
    for rank, row in enumerate(standings, 1):
        values = {**row, "rank": rank}
        writer.writerow(["" if values.get(c) is None else values[c] for c in STANDINGS_COLUMNS])
    return out.getvalue()


def hand_lines(store: Store, tid: str) -> Iterator[str]:
    """One JSON line per room of every board finished in every match, by match then board then
    room: the room's hand record (``server.engine.record.hand_record``, what ``cinch replay``
    reads; it ignores the other keys) with ``match``, ``board_number`` and ``room`` (1 up)
    saying where it was played. A blind movement's par room is listed under each entrant's
    match that is scored against it."""
    for mid in store.match_ids(tid):
        for number in visible_boards(store, tid, store.stored_boards(mid)):
            _, record = visible_pair(store, mid, number)
            if record is None:  # cannot be: visible_boards has just said it is finished everywhere
                continue
            for index, room in enumerate(record["rooms"], 1):
                yield json.dumps({**room, "match": mid, "board_number": number, "room": index}) + "\n"


@bp.route("/tournaments/<tid>/results.csv")
def results_csv(tid: str):
    store = arena().store
    store.tournament(tid)  # StoreError: the 404 page naming it
    return attachment(standings_csv(results_of(store, tid)["standings"]), "text/csv", f"tournament-{tid}-standings.csv")


@bp.route("/tournaments/<tid>/hands.jsonl")
def hands_jsonl(tid: str):
    store = arena().store
    store.tournament(tid)
    return attachment(stream_with_context(hand_lines(store, tid)), "application/jsonl", f"tournament-{tid}-hands.jsonl")
