"""Progressive Cinch (docs/rules/progressive.md): the movement and the standings, pure.

Individual entrants sit at tables of four; every round each table plays four deals
(boards ``4r-3 .. 4r`` of the tournament's deal set, dealt by N, E, S and W in turn); the
pair with the higher table score wins, the winners of a table move up one table (the
head table's winners stay, the foot table takes the head's losers), and the partners
divide, so every new pair is one player who stayed and one who arrived.

Everything here is a function of the deal set's seed ``S``, the entrants and the table
results, with no I/O: the store and the jobs (``server.arena.tournaments``, ``workers.jobs``)
play each table as a 4-board match and ask this module for the next round's seating, so
the movement can be checked step by step against the rules with no worker at all.

An entrant is an id: a registered bot's name, or the name with ``#n`` (``rule#2``) to
enter the same bot more than once (each copy plays its own seat and has its own
standing; the format is not rated, so copies prove nothing they should not). House
entrants ("unranked house bots", 11.1) fill the last table when the entry count is not a
multiple of four: the built-in bot ``HOUSE`` under the ids ``rule#h1``, ``rule#h2`` ...,
which no entered copy can take (a copy's suffix is a number, and a registered name holds
no ``#``: ``server.arena.registry.NAME``). Each has an id of its own for the hashes of 11.5 and
11.8; they play but have no standing.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypedDict

from server.engine import SEATS, SIDES

BOARDS_PER_ROUND = 4
HOUSE = "rule"
"""The built-in bot that plays the house seats."""
MIN_ENTRANTS = 4
"""Fewer entrants would fill most of the only table with house bots: refused."""


def _hash(text: str) -> int:
    return int(hashlib.sha256(text.encode()).hexdigest(), 16)


COPY = re.compile(r"^(?P<bot>[^#]+)(#[1-9][0-9]?)?$")
"""An entered id: a bot's name, or the name and ``#1`` .. ``#99``."""


def house_id(i: int) -> str:
    """The id of the ``i``-th house entrant (from 1)."""
    return f"{HOUSE}#h{i}"


def bot_of(entrant: str) -> str:
    """The bot that plays an entrant's seat: the id up to its ``#``."""
    return entrant.split("#", 1)[0]


def field(entrants: Sequence[str]) -> list[str]:
    """The entrants with house entrants added up to a multiple of four (11.1)."""
    missing = -len(entrants) % 4
    return [*entrants, *(house_id(i) for i in range(1, missing + 1))]


def tables_for(count: int) -> int:
    """``T``: the tables ``count`` entrants fill (the last one completed by the house)."""
    return -(-count // 4)


def default_rounds(count: int) -> int:
    """11.3: ``2T`` rounds unless the tournament says."""
    return 2 * tables_for(count)


def boards_of(round_: int) -> tuple[int, int]:
    """11.3: round ``r`` plays boards ``4r-3 .. 4r``."""
    return BOARDS_PER_ROUND * round_ - 3, BOARDS_PER_ROUND * round_


Seating = list[tuple[str, str, str, str]]
"""One round's tables, head first; each table's entrants at N, E, S, W."""


def first_seating(seed: str, entrants: Sequence[str]) -> Seating:
    """11.5: the field sorted by ``sha256(f"{S}/progressive/entrant/{id}")``; the ``i``-th
    sits at table ``i // 4 + 1``, seat ``"NESW"[i % 4]``."""
    order = sorted(field(entrants), key=lambda e: _hash(f"{seed}/progressive/entrant/{e}"))
    return [tuple(order[i : i + 4]) for i in range(0, len(order), 4)]  # type: ignore[misc]


def cut(seed: str, round_: int, table: int) -> str:
    """11.4: the side a tie goes to at ``table`` in ``round_``."""
    return "NS" if _hash(f"{seed}/progressive/{round_}/{table}") % 2 == 0 else "EW"


def winner(seed: str, round_: int, table: int, ns: int, ew: int) -> str:
    """11.4: the side with the higher table score, the cut on equal scores."""
    if ns != ew:
        return "NS" if ns > ew else "EW"
    return cut(seed, round_, table)


def pair(seats: Sequence[str], side: str) -> tuple[str, str]:
    """A side's two entrants at a table, in seat order (N before S, E before W)."""
    first = SEATS.index(side[0])
    return seats[first], seats[first + 2]


def move(seating: Seating, winners: Sequence[str]) -> Seating:
    """11.6 and 11.7: the next round's seating from this round's and each table's winning
    side. Winners of table ``t+1`` arrive at ``t``; table 1 keeps its winners, table ``T``
    its losers and takes table 1's losers; the others keep their losers. With one table
    the losers stay and the winners arrive. Stayers take N and E, arrivers S and W, each
    two in their previous seats' order, so every new pair is a stayer and an arriver."""
    if len(winners) != len(seating):
        raise ValueError(f"{len(seating)} tables, {len(winners)} winners")
    won = [pair(seats, side) for seats, side in zip(seating, winners)]
    lost = [pair(seats, "EW" if side == "NS" else "NS") for seats, side in zip(seating, winners)]
    count = len(seating)
    out: Seating = []
    for t in range(count):
        if count == 1:
            stayers, arrivers = lost[0], won[0]
        elif t == 0:
            stayers, arrivers = won[0], won[1]
        elif t < count - 1:
            stayers, arrivers = lost[t], won[t + 1]
        else:
            stayers, arrivers = lost[t], lost[0]
        out.append((stayers[0], stayers[1], arrivers[0], arrivers[1]))
    return out


@dataclass(frozen=True)
class TableResult:
    """One table of one round: its entrants at N E S W and the pairs' table scores (the
    sums of their hand score changes over the four deals)."""

    round: int
    table: int
    seats: tuple[str, str, str, str]
    ns: int
    ew: int

    def winner(self, seed: str) -> str:
        return winner(seed, self.round, self.table, self.ns, self.ew)


def seating_after(seed: str, entrants: Sequence[str], results: Sequence[Sequence[TableResult]]) -> Seating:
    """The seating of round ``len(results) + 1``: the first seating moved after each
    complete round of ``results`` (head table first)."""
    seating = first_seating(seed, entrants)
    for tables in results:
        if [r.seats for r in tables] != seating:
            raise ValueError(f"round {tables[0].round}'s tables are not seated as the movement says")
        seating = move(seating, [r.winner(seed) for r in tables])
    return seating


class Standing(TypedDict):
    """An entrant's row of the standings (11.8)."""

    bot: str
    rounds: int
    rounds_won: int
    net: int
    last_table: int | None


class _Summing(Standing):
    """A row while the standings are summed: the round of ``last_table`` too."""

    _last_round: int


def standings(seed: str, entrants: Sequence[str], results: Sequence[TableResult]) -> list[Standing]:
    """11.8: every entrant (not the house) by rounds won, then net points (its pair's
    table score less the other pair's, summed), then the lower table in the last round
    it played, then ``sha256(f"{S}/progressive/rank/{id}")``. Rounds in progress (any
    table missing from ``results``) count only with the tables that have finished, so
    the standings are live; ``last_table`` is then the table of the latest round that
    holds a finished table of the entrant's."""
    rows: dict[str, _Summing] = {
        e: {"bot": e, "rounds": 0, "rounds_won": 0, "net": 0, "last_table": None, "_last_round": 0} for e in entrants
    }
    for r in results:
        side_won = r.winner(seed)
        for i, entrant in enumerate(r.seats):
            row = rows.get(entrant)
            if row is None:  # a house entrant: no standing
                continue
            side = SIDES[i % 2]
            row["rounds"] += 1
            row["rounds_won"] += side == side_won
            row["net"] += (r.ns - r.ew) if side == "NS" else (r.ew - r.ns)
            if r.round >= row["_last_round"]:
                row["_last_round"], row["last_table"] = r.round, r.table
    ordered = sorted(
        rows.values(),
        key=lambda row: (
            -row["rounds_won"],
            -row["net"],
            row["last_table"] if row["last_table"] is not None else float("inf"),
            _hash(f"{seed}/progressive/rank/{row['bot']}"),
        ),
    )
    return [
        {
            "bot": row["bot"],
            "rounds": row["rounds"],
            "rounds_won": row["rounds_won"],
            "net": row["net"],
            "last_table": row["last_table"],
        }
        for row in ordered
    ]
