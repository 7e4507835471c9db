"""A board's page and a finished table's hand, every game and format alike, as a
step-through replay drawn from ``steps.walk`` (the engine driven action by action): a
two-room board pair with both rooms side by side; a board of another game of two units,
of a match of k entrants or of a progressive table as a table of its rooms (who held which
seat, the score changes and nets) over every room's replay, with a room selector where
there are more than two. One control steps every room of the page together
(``steps.merged_keys``, ``static/replay.js``).

Gated exactly as the API: a board pair once the board is finished in every match of its
tournament (``GET /api/v1/matches/<mid>/boards/<n>``), a table's hand once its game is
over (``GET /api/v1/tables/<tid>/record``); until then no card of it is shown.
"""

from __future__ import annotations

from typing import Any

from flask import abort, render_template

from server.arena.duplicate import net, nets
from server.arena.formats import kind_of
from server.arena.formats.boards import Room, board_view
from server.engine import SEATS
from server.engine.record import scores_after
from server.web.context import arena
from server.web.pages.blueprint import bp
from server.web.pages.steps import merged_keys, walk
from server.web.pages.tables import seat_holder, sides_of
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


def two_partnerships(record: dict[str, Any]) -> bool:
    """Whether a board's rooms are played by N/S against E/W (the two-room page's seatings)."""
    return all(set(room["result"]["delta"]) == {"NS", "EW"} for room in record["rooms"])


def stepper_start(walks: list[dict[str, Any]], keys: list[dict[str, Any]]) -> int:
    """Where the stepper starts: the first room's hands in play (its last step before the play)."""
    first = walks[0]
    return [k["key"] for k in keys].index(first["steps"][first["start"]]["key"])


def seating(seats: dict[str, str]) -> str:
    """Who sat where, in words: each player with its seats ("random at P1; rule at P2, P3")."""
    held: dict[str, list[str]] = {}
    for seat, player in seats.items():
        held.setdefault(player, []).append(seat)
    return "; ".join(f"{player} at {', '.join(where)}" for player, where in held.items())


def held_by(bot: str, unit: str | list[str], delta: dict[str, int], by_unit: dict[str, Any]) -> dict[str, Any]:
    """An entrant's part of a room: its unit, or the units it held together (a blind board's
    references), their score changes and nets summed (nets sum to zero, so the references'
    net is the entrant's, negated)."""
    held = [unit] if isinstance(unit, str) else unit
    return {
        "bot": bot,
        "unit": ", ".join(held),
        "delta": sum(delta[u] for u in held),
        "net": float(sum(by_unit[u] for u in held)),
    }


def field_rooms(match: dict[str, Any], record: dict[str, Any], view: list[Room]) -> list[dict[str, Any]]:
    """The rooms of a board of a match of k entrants, each with the unit (seat) or units every
    entrant held, the hand's result, each entrant's net there (``server.arena.duplicate.nets``),
    who sat at each seat and its label (``formats.boards.board_view``) and the hand to replay."""
    out = []
    for number, room in enumerate(record["rooms"], 1):
        delta = room["result"]["delta"]
        by_unit = dict(zip(delta, nets(delta, list(delta))))
        out.append(
            {
                "number": number,
                "key": str(number),
                "title": view[number - 1]["label"].capitalize(),
                "seating": seating(view[number - 1]["seats"]),
                "room": room,
                "entrants": [held_by(bot, unit, delta, by_unit) for bot, unit in zip(match["entrants"], room["units"])],
                "players": view[number - 1]["seats"],
                "walk": walk(room),
            }
        )
    return out


def as_field(match: dict[str, Any], record: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """A two-unit board whose rooms are not both four seats in two partnerships, in the field page's
    terms: X and Y as entrants, each room saying which unit each held (who sat at each
    seat comes from ``formats.boards.board_view``), and X's score
    against Y's (the blind movement: the entrant's room at its side and the par room,
    whose nets at that side the score subtracts)."""
    first, second = (list(room["result"]["delta"]) for room in record["rooms"])
    if kind_of(match).par_room:
        side = record["side"]
        others = [u for u in first if u != side]  # the references hold every other unit
        units = [[side, others], [side, others]]
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
    note = kind_of(match).note(match)
    field = "entrants" in match or not two_partnerships(record)  # k entrants, a progressive table, two seats
    if field:
        view = board_view(match, record)["rooms"]
        match, record = (match, record) if "entrants" in match else as_field(match, record)
        rooms = field_rooms(match, record, view)
    else:
        rooms = rooms_of(match, record)
        for room in rooms:
            room["walk"] = walk(room["room"])
    walks = [room["walk"] for room in rooms]
    keys = merged_keys(walks)
    return render_template(
        "board_field.html" if field else "board.html",
        note=note,
        match=match,
        mid=mid,
        tid=tid,
        board=board,
        record=record,
        rooms=rooms,
        blind=kind_of(match).par_room,
        keys=keys,
        start=stepper_start(walks, keys),
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
    w = walk(record)
    keys = merged_keys([w])
    final = table["final_scores"]  # an All Fours game stops counting at the item that ends it
    shown = {s: seat_holder(table, s) for s in table["seats"]}  # a human seat by its person's name
    return render_template(
        "table_hand.html",
        table={**table, "seats": shown},
        number=number,
        count=len(hands),
        record=record,
        after=final if number == len(hands) and final else scores_after(record),
        sides=sides_of(table),
        w=w,
        keys=keys,
        start=stepper_start([w], keys),
    )
