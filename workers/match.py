"""The duplicate runners: the two-room match, and the blind movement's single room.

Two-room match: each board is played twice with the partnerships swapped, the rooms of
different boards interleaved (``play_pairs``). Blind movement: an entrant plays a board
once, against the reference bot, and is scored against the reference pair's own result
on the same cards (``play_blind_board``), so it never holds a board twice.

Pure of I/O: it takes agents and boards and returns board-pair records, so it runs the
same in a test, a benchmark or an RQ job. A record holds everything needed to audit
it: each room's ``replay`` is a complete ``cinch replay`` input, and the score can be
recomputed from the rooms' deltas alone (``pair_score``, ``blind_score``).

Nothing here knows whether an agent is a built-in bot or a remote seat. If an agent
raises or answers with an illegal action, the room goes on with the default action and
the fault is recorded, so a broken bot cannot stop a match or lose a board.
"""

from __future__ import annotations

from typing import Any, Callable, Iterator

from server.engine import DONE, SEATS, Board, HandState, Ruleset, observation
from server.engine.playout import default_action
from workers.bots.base import Agent


def play_room(rules: Ruleset, board: Board, ns: Agent, ew: Agent) -> dict[str, Any]:
    """Play one hand of ``board`` with ``ns`` at N and S and ``ew`` at E and W."""
    state = HandState(rules, board)
    faults: list[dict[str, Any]] = []
    while state.phase != DONE:
        seat = SEATS[state.to_act]
        agent = ns if seat in "NS" else ew
        view = observation(state, seat)
        try:
            state.apply(agent.decide(view))
        except Exception as exc:   # a bot's bug must not stop the match
            faults.append({"seat": seat, "index": len(state.actions), "error": str(exc)[:200]})
            state.apply(default_action(view["legal"]))
    return {
        "replay": {"ruleset": rules.name, "options": rules.options(), "board": board.to_dict(),
                   "actions": state.actions},
        "contract": state.contract_dict(),
        "trump": "CDHS"[state.trump],
        "tricks": {"NS": sum(1 for t in state.tricks if t.winner % 2 == 0),
                   "EW": sum(1 for t in state.tricks if t.winner % 2 == 1)},
        "points": state.side_dict(state.points()),
        "delta": state.side_dict(state.delta()),
        "faults": faults,
    }


def net(delta: dict[str, int], side: str) -> int:
    """A side's net on a hand: its score change minus the other side's."""
    other = "EW" if side == "NS" else "NS"
    return delta[side] - delta[other]


def pair_score(rooms: list[dict[str, Any]]) -> int:
    """X's score on a board pair: X sits N/S in room 1 and E/W in room 2."""
    return net(rooms[0]["delta"], "NS") + net(rooms[1]["delta"], "EW")


def room_key(context: str, number: int, room: int | str) -> str:
    """The key a room's agents are told (``new_hand``); remote seats derive the room's
    secret view of the table from it, so it must differ for every room they play."""
    return f"{context}/{number}/{room}"


def _play_seated(rules: Ruleset, board: Board, key: str, ns: Agent, ew: Agent) -> dict[str, Any]:
    for agent in (ns, ew):
        if hasattr(agent, "new_hand"):
            agent.new_hand(key)
    return play_room(rules, board, ns, ew)


def play_board_pair(rules: Ruleset, board: Board, number: int, x: Agent, y: Agent,
                    context: str = "") -> dict[str, Any]:
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


def play_pairs(rules: Ruleset, boards: list[tuple[int, Board]], x: Agent, y: Agent, context: str = "",
               should_stop: Callable[[], bool] = lambda: False) -> Iterator[dict[str, Any]]:
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
        first_rooms[number] = _play_seated(rules, board, room_key(context, number, 1), x, y)
    for number in second_room_order([n for n, _ in boards]):
        if should_stop():
            return
        rooms = [first_rooms[number], _play_seated(rules, by_number[number], room_key(context, number, 2), y, x)]
        yield {"board": number, "rooms": rooms, "score": pair_score(rooms)}


def play_match(rules: Ruleset, boards: list[tuple[int, Board]], x: Agent, y: Agent,
               context: str = "") -> list[dict[str, Any]]:
    """A whole match in this process: one record per (number, board), in board order."""
    return sorted(play_pairs(rules, boards, x, y, context), key=lambda r: r["board"])


# ---------------------------------------------------------------- the blind movement
def entrant_side(number: int, index: int) -> str:
    """Where entrant ``index`` (its place in the tournament's list) sits on board
    ``number``: N/S and E/W alternate by board, and neighbouring entrants sit at
    opposite sides of the same board, so every entrant holds each side equally often."""
    return "NS" if (number + index) % 2 == 0 else "EW"


def play_par_room(rules: Ruleset, board: Board, number: int, reference: Agent, context: str = "") -> dict[str, Any]:
    """The reference pair's result on a board: the reference bot at all four seats.
    Every entrant's result on the board is scored against it."""
    return _play_seated(rules, board, room_key(context, number, "par"), reference, reference)


def play_blind_board(rules: Ruleset, board: Board, number: int, entrant: Agent, reference: Agent, side: str,
                     par: dict[str, Any], context: str = "") -> dict[str, Any]:
    """An entrant's only room on a board (at ``side``, the reference bot at the other)
    scored against the par room: its side's net minus the reference pair's net at the
    same side on the same cards. The luck of the deal cancels as in a two-room match,
    and the entrant never meets the board again."""
    ns, ew = (entrant, reference) if side == "NS" else (reference, entrant)
    room = _play_seated(rules, board, room_key(context, number, side), ns, ew)
    return {"board": number, "side": side, "rooms": [room, par], "score": blind_score(room, par, side)}


def blind_score(room: dict[str, Any], par: dict[str, Any], side: str) -> int:
    return net(room["delta"], side) - net(par["delta"], side)
