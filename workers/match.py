"""The duplicate match runner: one board, two rooms, the partnerships swapped.

Pure of I/O: it takes agents and boards and returns board-pair records, so it runs the
same in a test, a benchmark or an RQ job. A record holds everything needed to audit
it: each room's ``replay`` is a complete ``cinch replay`` input, and the score can be
recomputed from the rooms' deltas alone (``pair_score``).

Nothing here knows whether an agent is a built-in bot or a remote seat. If an agent
raises or answers with an illegal action, the room goes on with the default action and
the fault is recorded, so a broken bot cannot stop a match or lose a board.
"""

from __future__ import annotations

from typing import Any

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


def play_board_pair(rules: Ruleset, board: Board, number: int, x: Agent, y: Agent,
                    context: str = "") -> dict[str, Any]:
    """Board ``number`` played in both rooms; ``score`` is X's.

    Before each room, every agent that has a ``new_hand(key)`` method is told a key for
    the room, (``context``, board, room), without being told anything else; remote seats
    use it to pick the room's secret suit relabeling.
    """
    rooms = []
    for room, (ns, ew) in enumerate(((x, y), (y, x)), 1):
        for agent in (ns, ew):
            if hasattr(agent, "new_hand"):
                agent.new_hand(f"{context}/{number}/{room}")
        rooms.append(play_room(rules, board, ns, ew))
    return {"board": number, "rooms": rooms, "score": pair_score(rooms)}


def play_match(rules: Ruleset, boards: list[tuple[int, Board]], x: Agent, y: Agent,
               context: str = "") -> list[dict[str, Any]]:
    """A whole match in this process: one record per (number, board), in order."""
    return [play_board_pair(rules, board, number, x, y, context) for number, board in boards]
