"""A board pair's page (both rooms of a board side by side) and a finished table's hand,
each as a step-through replay drawn from ``hands.timeline`` (a Cinch hand). A board of
another game, of a match of k entrants or of a progressive table is a table of its rooms
(who held which seat, the score changes and nets) followed by every room's hand; a hand of
another game is drawn from its replay (``server.engine.replay``: the hands after the draw,
the tricks, the scoring items) for its seats and sides, as a table's hand is.

Gated exactly as the API: a board pair once the board is finished in every match of its
tournament (``GET /api/v1/matches/<mid>/boards/<n>``), a table's hand once its game is
over (``GET /api/v1/tables/<tid>/record``); until then no card of it is shown.
"""

from __future__ import annotations

from typing import Any

from flask import abort, render_template

from server.arena.duplicate import net, nets
from server.arena.formats import kind_of
from server.arena.formats.boards import board_view
from server.engine import SEATS, game_spec, replay
from server.engine.record import scores_after
from server.engine.replay import start_hand
from server.web.context import arena
from server.web.pages.blueprint import bp
from server.web.pages.hands import timeline
from server.web.pages.tables import sides_of
from server.web.readmodel import table_or_404, visible_pair


def pair_net(room: dict[str, Any], side: str) -> int:
    """A side's net in a room of a two-side match (a whole number)."""
    return int(net(room["result"]["delta"], side))


def seated(ns: str, ew: str) -> dict[str, str]:
    """Who sits at each seat when ``ns`` holds N and S and ``ew`` holds E and W."""
    return {seat: ns if seat in "NS" else ew for seat in SEATS}


def rooms_of(match: dict[str, Any], record: dict[str, Any]) -> list[dict[str, Any]]:
    """Both rooms of a board pair with their players, labels and X's net in each.

    Two-room match: X sits N/S in room 1 and E/W in room 2 (``server.arena.duplicate.pair_score``).
    Blind movement: room 1 is the entrant's (at ``side``, the reference bot opposite),
    room 2 the par room (the reference bot at all four seats); both nets are taken at
    the entrant's side, and the board score is their difference (``blind_score``).
    """
    x, y = match["x"], match["y"]
    first, second = record["rooms"]
    if kind_of(match).par_room:
        side = record["side"]
        other = "EW" if side == "NS" else "NS"
        ns, ew = (x, y) if side == "NS" else (y, x)
        return [
            {
                "key": "entrant",
                "title": f"{x}'s room",
                "seating": f"{x} at {side}, reference {y} at {other}",
                "players": seated(ns, ew),
                "room": first,
                "net_label": f"{x}'s net at {side}",
                "net": pair_net(first, side),
            },
            {
                "key": "par",
                "title": "Par room",
                "seating": f"reference {y} at all four seats",
                "players": seated(y, y),
                "room": second,
                "net_label": f"reference pair's net at {side}",
                "net": pair_net(second, side),
            },
        ]
    return [
        {
            "key": "1",
            "title": "Room 1",
            "seating": f"{x} at NS, {y} at EW",
            "players": seated(x, y),
            "room": first,
            "net_label": f"{x}'s net",
            "net": pair_net(first, "NS"),
        },
        {
            "key": "2",
            "title": "Room 2",
            "seating": f"{y} at NS, {x} at EW",
            "players": seated(y, x),
            "room": second,
            "net_label": f"{x}'s net",
            "net": pair_net(second, "EW"),
        },
    ]


def stepped(room: dict[str, Any]) -> bool:
    """Whether the game of a hand record is drawn by the step-through (``GameSpec.timeline``)."""
    return game_spec(start_hand(room).rules).timeline


def played(room: dict[str, Any]) -> dict[str, Any]:
    """A room's hand for its replay: a Cinch hand as the step-through ``timeline``, a hand of
    another game as its replay (``server.engine.replay``)."""
    if stepped(room):
        return {"timeline": timeline(room), "plain": None}
    return {"timeline": None, "plain": replay(room)}


def field_rooms(match: dict[str, Any], record: dict[str, Any], seats: list[dict[str, str]]) -> list[dict[str, Any]]:
    """The rooms of a board of a match of k entrants, each with the unit (seat) every
    entrant held, the hand's result, each entrant's net there (``server.arena.duplicate.nets``),
    who sat at each seat and the hand to replay."""
    out = []
    for number, room in enumerate(record["rooms"], 1):
        delta = room["result"]["delta"]
        by_unit = dict(zip(delta, nets(delta, list(delta))))
        out.append(
            {
                "number": number,
                "room": room,
                "entrants": [
                    {"bot": bot, "unit": unit, "delta": delta[unit], "net": float(by_unit[unit])}
                    for bot, unit in zip(match["entrants"], room["units"])
                ],
                "players": seats[number - 1],
                **played(room),
            }
        )
    return out


def as_field(match: dict[str, Any], record: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """A two-unit board of a game the Cinch timeline does not draw, in the field page's
    terms: X and Y as entrants, each room saying which unit each held (who sat at each
    seat comes from ``formats.boards.board_view``), and X's score
    against Y's (the blind movement: the entrant's room at its side and the par room,
    whose nets at that side the score subtracts)."""
    first, second = (list(room["result"]["delta"]) for room in record["rooms"])
    if kind_of(match).par_room:
        side = record["side"]
        other = next(u for u in first if u != side)
        units = [[side, other], [side, other]]
    else:
        units = [first, first[::-1]]
    rooms = [{**room, "units": held} for room, held in zip(record["rooms"], units)]
    return (
        {**match, "entrants": [match["x"], match["y"]], "rooms": match.get("rooms", "rotate")},
        {**record, "rooms": rooms, "entrant_scores": [record["score"], -record["score"]]},
    )


@bp.route("/matches/<mid>/boards/<int:board>")
def board_pair_page(mid: str, board: int):
    match, record = visible_pair(arena().store, mid, board)  # StoreError: the 404 page naming the match
    tid = match["tournament"]
    if record is None:
        abort(
            404,
            description=f"board {board} is not finished in every match of tournament {tid} yet "
            f"(or is not one of its boards): no one sees its cards until then",
        )
    cinch = stepped(record["rooms"][0])
    if "entrants" in match or not cinch:  # k entrants, a progressive table, or a game drawn as rooms
        seats = [room["seats"] for room in board_view(match, record)["rooms"]]
        note = kind_of(match).note(match)
        match, record = (match, record) if "entrants" in match else as_field(match, record)
        rooms = field_rooms(match, record, seats)
        return render_template(
            "board_field.html",
            note=note,
            match=match,
            mid=mid,
            tid=tid,
            board=board,
            record=record,
            rooms=rooms,
            steps=max(len((room["timeline"] or room["plain"])["tricks"]) for room in rooms),
        )
    rooms = rooms_of(match, record)
    for room in rooms:
        room["timeline"] = timeline(room["room"])
    return render_template(
        "board.html",
        match=match,
        mid=mid,
        tid=tid,
        board=board,
        record=record,
        rooms=rooms,
        blind=kind_of(match).par_room,
    )


@bp.route("/tables/<tid>/hands/<int:number>")
def table_hand_page(tid: str, number: int):
    table = table_or_404(tid)
    if table["status"] != "finished":
        abort(
            409,
            description=f"table {tid} is {table['status']}: its hands are shown card by card "
            f"once the game is over (as its record is)",
        )
    hands = arena().store.table_hands(tid)
    if not 1 <= number <= len(hands):
        abort(404, description=f"table {tid} has no hand {number}: its game lasted {len(hands)} hands")
    record = hands[number - 1]
    cinch = stepped(record)
    final = table["final_scores"]  # an All Fours game stops counting at the item that ends it
    return render_template(
        "table_hand.html",
        table=table,
        number=number,
        count=len(hands),
        record=record,
        after=final if number == len(hands) and final else scores_after(record),
        sides=sides_of(table),
        t=timeline(record) if cinch else None,
        plain=None if cinch else replay(record),
    )
