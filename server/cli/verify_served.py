"""``cinch deals verify --server URL --tournament T``: hold every room a server shows of a
tournament to the revealed set *and* to the engine.

A revealed seed proves the deals, not the play: a server (or anyone with its Redis) could
change a card played or a score and still serve the committed boards. So every room of
every finished board is also replayed by the engine's own auditor
(``server.engine.replay.audit``, what ``cinch replay`` runs) under the tournament's
ruleset: a changed card is an illegal action at its index, a changed score a result that
differs from the replay's. The table shape the set was made for (seats, pack) is read from
the tournament's ruleset as well, so a five-seat snoozer tournament needs no ``--players 5
--deck 53``.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from typing import Any

import sdk
from server.arena import dealsets
from server.arena.duplicate import as_number, blind_score, board_scores, pair_score
from server.cli.errors import UsageError
from server.engine import Board, BoardError, ReplayError, Ruleset, RulesetError, game_spec, make_ruleset, seats_for
from server.engine.replay import audit

SHAPE_DEFAULTS = {"players": 4, "deck": 52}  # what a commitment that names neither means


@contextlib.contextmanager
def connection(url: str) -> Iterator[sdk.Client]:
    """A client of ``url`` whose failures (unreachable, an error answer) end the command
    with a message naming the server."""
    try:
        with sdk.Client(url) as client:
            yield client
    except sdk.SdkError as exc:
        raise UsageError(f"{url}: {exc}") from None


def tournament_rules(tournament: sdk.Tournament) -> Ruleset:
    """The ruleset the tournament is played under: every room must be played under it."""
    try:
        return make_ruleset(tournament.ruleset, tournament.options)
    except RulesetError as exc:
        raise UsageError(f"tournament {tournament.id}: its ruleset cannot be read ({exc})") from None


def shape_of(rules: Ruleset) -> dict[str, int]:
    """The seats and pack of the set a tournament under ``rules`` is dealt from."""
    return {"players": rules.players, "deck": game_spec(rules).deck}


def check_served(client: sdk.Client, tournament: sdk.Tournament, rules: Ruleset, deals: dealsets.DealSet) -> int:
    """Fetch every finished board of every match of ``tournament`` and check that each
    room was dealt the rebuilt board of that number and its play replays, under
    ``rules``, to its stored result; returns how many (match, board) pairs were checked.
    ``UsageError`` on the first difference."""
    tid = tournament.id
    _check_tournament_commitment(tournament.raw, deals)
    checked = 0
    for match in client.matches(tid):
        for n in range(tournament.first, tournament.first + tournament.boards):
            try:
                record = client.board_pair(match.id, n).to_dict()
            except sdk.ApiError as exc:
                if exc.status == 404:  # not finished everywhere yet (or not this match's): nothing served
                    continue
                raise
            if n > len(deals.boards):
                raise UsageError(f"match {match.id} played board {n}, but the set has only {len(deals.boards)} boards")
            _check_rooms(match.id, n, record, deals, rules)
            checked += 1
    if checked == 0:
        print(f"tournament {tid}: no board is finished in every match yet; nothing to check")
    return checked


def _check_tournament_commitment(served: dict[str, Any], deals: dealsets.DealSet) -> None:
    """When the server shows the tournament's commitment or seed, they must be this set's."""
    ours = {**SHAPE_DEFAULTS, **dealsets.commitment(deals)}
    theirs = served.get("commitment")
    if theirs:
        theirs = {**SHAPE_DEFAULTS, **theirs}
        for key in ("name", "boards", "players", "deck", "seed_sha256", "deals_sha256"):
            if key in theirs and theirs[key] != ours[key]:
                raise UsageError(f"the tournament's commitment has {key} {theirs[key]!r}, the seed gives {ours[key]!r}")
    if served.get("deals_seed") not in (None, deals.seed):
        raise UsageError("the tournament reveals a different seed from --seed")
    if served.get("deals") not in (None, deals.name):
        raise UsageError(f"the tournament is dealt from {served['deals']!r}, the seed makes {deals.name!r}")


def _check_rooms(mid: str, n: int, record: dict[str, Any], deals: dealsets.DealSet, rules: Ruleset) -> None:
    """Every room of board ``n``'s served record was dealt board ``n`` of ``deals`` and
    played by the rules."""
    expected = deals.board(n)
    rooms = record.get("rooms")
    if not isinstance(rooms, list) or not rooms:
        raise UsageError(f"match {mid} board {n}: the served record has no rooms")
    for index, room in enumerate(rooms, 1):
        where = f"match {mid} board {n} room {index}"
        served = room.get("board") if isinstance(room, dict) else None
        try:
            board = Board.from_dict(served, seats_for(deals.players), deals.deck)
        except BoardError as exc:
            raise UsageError(f"{where}: the served board is not valid ({exc})") from None
        if board != expected:
            raise UsageError(f"{where}: the served board differs from board {n} of the committed set")
        _check_play(where, room, rules)
    _check_scores(f"match {mid} board {n}", record)


def _check_scores(where: str, record: dict[str, Any]) -> None:
    """The board's scores are the ones its rooms give (``server.arena.duplicate``): a
    blind entrant's net less the par room's, a two-room pair's X net over both rooms, a
    field's or a Progressive table's every entrant's sum of nets."""
    rooms = record["rooms"]
    expected: int | float | list[int | float]
    if "side" in record:
        field, expected = "score", blind_score(rooms[0], rooms[1], record["side"])
    elif all("units" in room for room in rooms):
        field, expected = "entrant_scores", [as_number(s) for s in board_scores(rooms)]
    else:
        field, expected = "score", pair_score(rooms)
    if record.get(field) != expected:
        raise UsageError(
            f"{where}: the stored {field} {json.dumps(record.get(field))} is not what its rooms give, "
            f"{json.dumps(expected)}"
        )


def _check_play(where: str, room: dict[str, Any], rules: Ruleset) -> None:
    """The room is a hand of the tournament's game whose replay is its stored record."""
    try:
        played = make_ruleset(room.get("ruleset"), room.get("options"))
    except RulesetError as exc:
        raise UsageError(f"{where}: the room's ruleset is not valid ({exc})") from None
    if played != rules:
        raise UsageError(
            f"{where}: the room is played under {played.name} {json.dumps(played.options())}, "
            f"the tournament under {rules.name} {json.dumps(rules.options())}"
        )
    try:
        audit(room)
    except ReplayError as exc:
        if exc.index is None:
            raise UsageError(f"{where}: {exc}") from None
        action = json.dumps(room["actions"][exc.index])
        raise UsageError(f"{where}: illegal action {action} at index {exc.index}: {exc}") from None
