"""``audit``: a stored hand record held to its own replay (what ``cinch deals verify
--server`` asks of every served room), at several table shapes."""

import json
from random import Random

import pytest

from server.engine import DONE, ReplayError, game_spec, make_ruleset, new_hand, seats_for
from server.engine.boards import generate_board
from server.engine.games import GAMES
from server.engine.playout import random_action
from server.engine.record import hand_record
from server.engine.replay import audit

SHAPES = [("american62", {}), ("snoozer", {"players": 5}), ("widow_cinch", {}), ("auction_cinch", {"players": 5})]


def _record(name, options, n):
    rules = make_ruleset(name, options)
    board = generate_board("audit", n, seats_for(rules.players), game_spec(rules).deck)
    hand, rng = new_hand(rules, board), Random(n)
    while hand.phase != DONE:
        hand.apply(random_action(hand.legal_actions(), rng))
    return json.loads(json.dumps(hand_record(hand, [])))  # as stored: through JSON


@pytest.mark.parametrize("name, options", SHAPES)
def test_a_played_record_passes_and_a_changed_one_does_not(name, options):
    for n in (1, 2, 3):
        record = _record(name, options, n)
        audit(record)
        actions = record["actions"]
        i = next(i for i, a in enumerate(actions) if a["type"] == "play")
        other = next(a for a in actions[i:] if a["type"] == "play" and a["seat"] != actions[i]["seat"])
        changed = {**record, "actions": [*actions[:i], {**actions[i], "card": other["card"]}, *actions[i + 1 :]]}
        with pytest.raises(ReplayError) as caught:
            audit(changed)
        assert caught.value.index == i and "does not hold" in str(caught.value)

        with pytest.raises(ReplayError, match="not over after its") as caught:
            audit({**record, "actions": actions[:-1]})
        assert caught.value.index is None

        side = next(iter(record["result"]["points"]))
        points = {**record["result"]["points"], side: record["result"]["points"][side] + 1}
        with pytest.raises(ReplayError, match=r"stored result differs .*: points") as caught:
            audit({**record, "result": {**record["result"], "points": points}})
        assert caught.value.index is None


TABLES = [(name, players) for name, spec in GAMES.items() for players in spec.players]


@pytest.mark.parametrize("name, players", TABLES)
def test_a_duplicate_room_replays_to_what_was_played(name, players):
    """A room is played in full with no target; its record must replay the same way. A
    record that said 0-0 instead of null replayed as a hand of a game, which stopped at
    the target: one snoozer hand in 150 stored 15 points more than its replay."""
    from server.arena.duplicate import play_room
    from workers.bots import make_bot

    rules = make_ruleset(name, {"players": players})
    spec = game_spec(rules)
    for n in range(1, 25):
        board = generate_board("rooms", n, seats_for(players), spec.deck)
        record = json.loads(
            json.dumps(play_room(rules, board, [make_bot("random", n * 7 + i) for i in range(players)]))
        )
        assert record["scores"] is None
        audit(record)


def test_the_snoozer_hand_the_audit_found():
    """Board 112 of ``snz`` at five: the eldest sells at 36 and reaches 50 before the
    joker is counted, which a game would stop at and a board does not."""
    from server.arena.duplicate import play_room
    from workers.bots import make_bot

    rules = make_ruleset("snoozer", {"players": 5})
    record = play_room(
        rules, generate_board("snz", 112, seats_for(5), 53), [make_bot("random", 112 + i) for i in range(5)]
    )
    assert record["result"]["delta"]["P3"] == 68
    audit(record)
    in_game = {**record, "scores": {side: 0 for side in record["result"]["delta"]}}
    with pytest.raises(ReplayError, match="delta"):
        audit(in_game)
