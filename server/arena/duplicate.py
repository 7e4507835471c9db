"""The duplicate runners: rooms for any table shape, the two-room match, and the blind
movement's single room.

A room is one hand of a board with one agent per seat (``play_room``); its record is the
one record of a played hand (``server.engine.record.hand_record``: a complete
``cinch replay`` input with its result). Entrants control *units*, the hand's sides: a
partnership of two seats or a single seat (docs/rules/duplicate.md).

* Any shape (``play_boards``): each board is played in every room of a seating plan
  (``seatings``: rotate, or all permutations), the rooms of different boards
  interleaved; each entrant's board score is the sum of its nets (``nets``).
* Two-room match (``play_pairs``): the same for two partnerships, X at N/S in room 1 and
  at E/W in room 2, kept in its own record shape (``score`` is X's).
* Progressive table (``play_table``): four individual entrants, one room a board.
* Blind movement: an entrant plays a board once, against the reference bot at every
  other unit, and is scored against the references' own result on the same cards
  (``play_blind_board``), so it never holds a board twice.

Pure of I/O: it takes agents and boards and returns board records, so it runs the same in
a test, a benchmark or an RQ job; every score can be recomputed from the rooms' deltas.

Nets are exact: with ``m`` units a net divides by ``m - 1`` (2 with three units), so
``nets`` returns ``Fraction``s and a board record stores each entrant's score as an
integer when it is whole and as a float otherwise (``as_number``). With two units every
net is a whole number, so a two-room match's scores stay integers.

Nothing here knows whether an agent is a built-in bot or a remote seat. If an agent
raises or answers with an illegal action, the room goes on with the default action and
the fault is recorded, so a broken bot cannot stop a match or lose a board.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Mapping, Sequence
from fractions import Fraction
from itertools import permutations
from typing import Any

from server.arena.agent import Agent
from server.engine import DONE, Board, Ruleset, game_spec, new_hand, observation, seats_for
from server.engine.playout import default_action
from server.engine.record import hand_record
from server.logs import logger
from server.metrics import DEFAULT_ACTIONS

log = logger("duplicate")

ROOMS = ("rotate", "permute")
MAX_PERMUTE = 4  # docs/rules/duplicate.md#permute: all k! seatings only for k <= 4


def play_room(rules: Ruleset, board: Board, agents: Sequence[Agent]) -> dict[str, Any]:
    """Play one hand of ``board`` with ``agents[i]`` at seat ``i`` (the hand's ``seats``
    order); returns the hand's record."""
    hand = new_hand(rules, board)
    if len(agents) != len(hand.seats):
        raise ValueError(f"{rules.name} seats {len(hand.seats)} players, not {len(agents)}")
    faults: list[dict[str, Any]] = []
    while hand.phase != DONE:
        index = hand.to_act
        assert index is not None  # a hand that is not done has a seat to act
        seat = hand.seats[index]
        view = observation(hand, seat)
        try:
            hand.apply(agents[index].decide(view))
        except Exception as exc:  # a bot's bug must not stop the match
            faults.append({"seat": seat, "index": len(hand.actions), "error": str(exc)[:200]})
            hand.apply(default_action(view["legal"]))
            fault_logged(seat, len(hand.actions) - 1, exc)
    return hand_record(hand, faults)


def fault_logged(seat: str | None, index: int, exc: Exception) -> None:
    """Count and log a default action played for a failing agent: by seat, action index and
    the error's class (a timeout's own message too), never the error's text otherwise, which
    may quote the bot's answer and so a card of its hand. The actions of a bot already
    marked faulty (no longer waited for: it was logged once) are logged at DEBUG only."""
    timeout = type(exc).__name__ == "DecisionTimeout"  # workers.remote's: the domain does not import it
    DEFAULT_ACTIONS.labels("timeout" if timeout else "error").inc()
    why = str(exc)[:200] if timeout else type(exc).__name__
    level = logging.DEBUG if getattr(exc, "faulty", False) else logging.WARNING
    log.log(level, "seat %s, action %d: the default action was played (%s)", seat, index, why)


def units_of(rules: Ruleset) -> tuple[tuple[str, ...], tuple[int, ...]]:
    """(unit names, seat index -> unit index): the units are the ruleset's sides."""
    return game_spec(rules).sides(rules.players)


def seat_agents(rules: Ruleset, by_unit: Sequence[Agent]) -> list[Agent]:
    """One agent per seat from one agent per unit: a unit's agent plays all its seats."""
    return [by_unit[unit] for unit in units_of(rules)[1]]


def play_sides(rules: Ruleset, board: Board, ns: Agent, ew: Agent) -> dict[str, Any]:
    """A partnership room: ``ns`` at N and S, ``ew`` at E and W."""
    return play_room(rules, board, seat_agents(rules, (ns, ew)))


# ---------------------------------------------------------------- nets and seatings
def nets(delta: Mapping[str, int], units: Sequence[str]) -> list[Fraction]:
    """Each unit's net in a room, in ``units`` order (docs/rules/duplicate.md#net): its score change
    less the mean change of the other units. Exact, and they sum to zero."""
    if len(units) < 2:
        raise ValueError("a net needs at least two units")
    total = sum(delta[u] for u in units)
    return [delta[u] - Fraction(total - delta[u], len(units) - 1) for u in units]


def net(delta: Mapping[str, int], unit: str) -> Fraction:
    """A unit's net on a hand: its score change less the others' mean change (with two
    sides: minus the other side's)."""
    units = list(delta)
    return nets(delta, units)[units.index(unit)]


def as_number(value: Fraction) -> int | float:
    """A net or score as JSON stores it: an integer when whole, else a float."""
    return int(value) if value.denominator == 1 else float(value)


def seatings(k: int, rooms: str = "rotate", single_seats: bool = True) -> list[tuple[int, ...]]:
    """The rooms of a board for ``k`` entrants: room ``r``'s tuple gives each entrant's
    unit index. ``rotate``: ``k`` rooms, X_j at unit ``(j + r) % k`` (docs/rules/duplicate.md#single-seats,
    and 12.3 for widow_cinch's three sides of two); ``permute``: all ``k!`` seatings, for
    ``k <= 4`` single seats (12.4; refused for sides of two, whose rooms rotate, 12.3)."""
    if k < 2:
        raise ValueError("a duplicate board needs at least two entrants")
    if rooms == "rotate":
        return [tuple((j + r) % k for j in range(k)) for r in range(k)]
    if rooms == "permute" and not single_seats and k > 2:
        raise ValueError(
            f"rooms=permute is for single seats; these {k} entrants each hold a side of two, "
            f"whose {k} rooms rotate (docs/rules/duplicate.md#three-sides): use rotate"
        )
    if rooms == "permute":
        if k > MAX_PERMUTE:
            raise ValueError(f"rooms=permute is for at most {MAX_PERMUTE} entrants, not {k}")
        return list(permutations(range(k)))
    raise ValueError(f"rooms must be one of {', '.join(ROOMS)}, not {rooms!r}")


def board_scores(rooms: Sequence[Mapping[str, Any]]) -> list[Fraction]:
    """Each entrant's board score: the sum of its nets over the rooms, each room saying
    which unit every entrant held (``units``)."""
    totals = [Fraction(0)] * len(rooms[0]["units"])
    for room in rooms:
        delta = room["result"]["delta"]
        by_unit = dict(zip(delta, nets(delta, list(delta))))
        totals = [total + by_unit[unit] for total, unit in zip(totals, room["units"])]
    return totals


# ---------------------------------------------------------------- playing rooms
def room_key(context: str, number: int, room: int | str) -> str:
    """The key a room's agents are told (``new_hand``); remote seats derive the room's
    secret view of the table from it, so it must differ for every room they play."""
    return f"{context}/{number}/{room}"


def _play_seated(rules: Ruleset, board: Board, key: str, by_unit: Sequence[Agent]) -> dict[str, Any]:
    for agent in by_unit:
        if hasattr(agent, "new_hand"):
            agent.new_hand(key)
    return play_room(rules, board, seat_agents(rules, by_unit))


def play_boards(
    rules: Ruleset,
    boards: list[tuple[int, Board]],
    entrants: Sequence[Agent],
    rooms: str = "rotate",
    context: str = "",
    should_stop: Callable[[], bool] = lambda: False,
) -> Iterator[dict[str, Any]]:
    """Every board played by ``entrants`` (one per unit) in every room of ``seatings``;
    yields each board's record as its last room ends: ``{"board", "rooms",
    "entrant_scores"}``, each room a hand record with ``units`` (the unit each entrant
    held there, by entrant index). Stops between rooms when ``should_stop()`` says so,
    dropping the boards whose rooms were not all played.

    The rooms are interleaved: every board's room ``r`` is played, in board order, before
    any board's room ``r + 1``, so with two boards or more a bot never meets a board twice
    back to back (the same board's rooms are as many rooms apart as there are boards).
    """
    names = units_of(rules)[0]
    if len(entrants) != len(names):
        raise ValueError(
            f"{rules.name} with {rules.players} players has {len(names)} units, not {len(entrants)} entrants"
        )
    plan = seatings(len(entrants), rooms, game_spec(rules).single_seats(rules.players))
    played: dict[int, list[dict[str, Any]]] = {number: [] for number, _ in boards}
    for r, seating in enumerate(plan):
        by_unit = [entrants[seating.index(u)] for u in range(len(names))]
        for number, board in boards:
            if should_stop():
                return
            room = _play_seated(rules, board, room_key(context, number, r + 1), by_unit)
            played[number].append({**room, "units": [names[u] for u in seating]})
            if r == len(plan) - 1:
                yield board_record(number, played.pop(number))


def board_record(number: int, rooms: list[dict[str, Any]]) -> dict[str, Any]:
    """A board's record for any shape: its rooms and each entrant's board score."""
    return {"board": number, "rooms": rooms, "entrant_scores": [as_number(s) for s in board_scores(rooms)]}


# ---------------------------------------------------------------- a progressive table
def play_table(
    rules: Ruleset,
    boards: list[tuple[int, Board]],
    seated: Sequence[Agent],
    context: str = "",
    should_stop: Callable[[], bool] = lambda: False,
) -> Iterator[dict[str, Any]]:
    """A Progressive Cinch table (docs/rules/progressive.md): one room a board, ``seated[i]`` an
    individual entrant at seat ``i`` (N, E, S, W), partners at N/S and E/W. Yields each
    board's record (``board_record``: every entrant's score is its side's net) as the
    room ends; stops between rooms when ``should_stop()`` says so."""
    names, side_of = units_of(rules)
    for number, board in boards:
        if should_stop():
            return
        key = room_key(context, number, 1)
        for agent in seated:
            if hasattr(agent, "new_hand"):
                agent.new_hand(key)
        room = play_room(rules, board, seated)
        yield board_record(number, [{**room, "units": [names[u] for u in side_of]}])


# ---------------------------------------------------------------- the two-room match
def pair_score(rooms: list[dict[str, Any]]) -> int:
    """X's score on a board pair: X holds the first unit (N/S, or P1) in room 1 and the
    second (E/W, or P2) in room 2."""
    first, second = (room["result"]["delta"] for room in rooms)
    units = list(first)
    return int(net(first, units[0]) + net(second, units[1]))


def play_board_pair(rules: Ruleset, board: Board, number: int, x: Agent, y: Agent, context: str = "") -> dict[str, Any]:
    """Board ``number`` played in both rooms, one after the other; ``score`` is X's.

    Before each room, every agent that has a ``new_hand(key)`` method is told a key for
    the room (``room_key``) and nothing else. For bots that remember, prefer
    ``play_pairs``, which never plays a board's two rooms back to back.
    """
    return next(iter(play_pairs(rules, [(number, board)], x, y, context)))


def second_room_order(numbers: list[int]) -> list[int]:
    """The order of the second rooms after the first rooms of ``numbers``: rotated by
    one, so that with k boards at least k - 1 other rooms come between a board's two
    rooms (none at all, with a single board: a one-board window cannot be hidden)."""
    return numbers[1:] + numbers[:1]


def play_pairs(
    rules: Ruleset,
    boards: list[tuple[int, Board]],
    x: Agent,
    y: Agent,
    context: str = "",
    should_stop: Callable[[], bool] = lambda: False,
) -> Iterator[dict[str, Any]]:
    """Board pairs of a two-room match, interleaved: the first room of every board,
    then the second rooms in ``second_room_order``. Yields each board pair as its second
    room ends; stops (between rooms) when ``should_stop()`` says so, dropping the boards
    whose second room was not played.

    A bot that remembers the hands it held would otherwise meet each board again at
    once; now between a board's two rooms it plays every other board of the window.
    """
    first_rooms: dict[int, dict[str, Any]] = {}
    by_number = dict(boards)
    for number, board in boards:
        if should_stop():
            return
        first_rooms[number] = _play_seated(rules, board, room_key(context, number, 1), (x, y))
    for number in second_room_order([n for n, _ in boards]):
        if should_stop():
            return
        rooms = [first_rooms[number], _play_seated(rules, by_number[number], room_key(context, number, 2), (y, x))]
        yield {"board": number, "rooms": rooms, "score": pair_score(rooms)}


def play_match(
    rules: Ruleset, boards: list[tuple[int, Board]], x: Agent, y: Agent, context: str = ""
) -> list[dict[str, Any]]:
    """A whole match in this process: one record per (number, board), in board order."""
    return sorted(play_pairs(rules, boards, x, y, context), key=lambda r: r["board"])


# ---------------------------------------------------------------- the blind movement
def entrant_side(rules: Ruleset, dealer: str, position: int, index: int) -> str:
    """Where entrant ``index`` (its place in the tournament's list) sits on the board dealt
    by ``dealer`` that it plays ``position``-th (from 0) in its match: its place relative
    to the dealer's unit turns with its position, so that it holds the dealing unit on one
    board in m (m units: within one board over any run of its boards) whatever its index,
    and neighbouring entrants meeting a board at the same position sit at different units
    (docs/rules/duplicate.md#blind). Turning with the position, not the board number,
    makes it say nothing of the board a remote entrant holds: its positions follow the
    match's secret order (``server.arena.order``)."""
    names, side_of = units_of(rules)
    dealing = side_of[seats_for(rules.players).index(dealer)]
    return names[(dealing + index + position) % len(names)]


def play_par_room(rules: Ruleset, board: Board, number: int, reference: Agent, context: str = "") -> dict[str, Any]:
    """The reference bots' own result on a board: the reference bot at every seat.
    Every entrant's result on the board is scored against it."""
    return _play_seated(rules, board, room_key(context, number, "par"), [reference] * len(units_of(rules)[0]))


def play_blind_board(
    rules: Ruleset,
    board: Board,
    number: int,
    entrant: Agent,
    reference: Agent,
    side: str,
    par: dict[str, Any],
    context: str = "",
) -> dict[str, Any]:
    """An entrant's only room on a board (at unit ``side``, the reference bot at every
    other) scored against the par room: its unit's net minus the references' net at the
    same unit on the same cards. The luck of the deal cancels as in a two-room match,
    and the entrant never meets the board again."""
    units = units_of(rules)[0]
    by_unit = [entrant if unit == side else reference for unit in units]
    room = _play_seated(rules, board, room_key(context, number, side), by_unit)
    return {"board": number, "side": side, "rooms": [room, par], "score": blind_score(room, par, side)}


def blind_score(room: dict[str, Any], par: dict[str, Any], side: str) -> int | float:
    """A whole number with two units; with k > 2 a multiple of 1/(k-1), as nets are."""
    return as_number(net(room["result"]["delta"], side) - net(par["result"]["delta"], side))
