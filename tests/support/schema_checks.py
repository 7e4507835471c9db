"""Shared checks for the API tests: random hands walked to the end with every observation,
legal entry, action and hand record validated against the typed shapes; a finished table's
stored record replayed hand by hand to its results and the game's scores."""

from __future__ import annotations

from random import Random

from server.engine import SEATS, Board, Game, game_spec, generate_board, new_hand, observation, replay, seats_for
from server.engine.playout import random_action
from server.engine.record import hand_record
from server.web.api.game_schemas import ActionSchema, HandRecord, LegalSchema, ObservationSchema


def walk_validating(
    rules, set_seed: str, k: int, hands: int, rng: Random, size: int = 52
) -> tuple[set[str], list[dict]]:
    """Play boards 1 ... ``hands`` of ``set_seed`` at ``k`` seats by random legal actions,
    asserting at every decision that each seat's (and the public) observation, each legal
    entry and the chosen action fit the schemas, and at the end that the hand record does.
    Returns the phases seen and the hand records (one per board)."""
    phases: set[str] = set()
    records: list[dict] = []
    for n in range(1, hands + 1):
        state = new_hand(rules, generate_board(set_seed, n, seats_for(k), size))
        while True:
            phases.add(state.phase)
            for seat in (None, *state.seats):
                view = observation(state, seat)
                assert ObservationSchema().validate(view) == {}, view
            if state.phase == "done":
                break
            for entry in state.legal_actions():
                assert LegalSchema().validate(entry) == {}, entry
            action = random_action(state.legal_actions(), rng)
            assert ActionSchema().validate(action) == {}, action
            state.apply(action)
        record = hand_record(state, [])
        assert HandRecord().validate(record) == {}, record
        records.append(record)
    return phases, records


def check_record_replays(api, final: dict, rules, seats=SEATS) -> dict:
    """The stored record of the finished table ``final`` (played under ``rules`` at
    ``seats``): every hand is of the ruleset and replays to its stored delta, and the hands
    applied in order to a fresh ``Game`` give each hand's starting scores, then the table's
    winner and final scores. Returns the record."""
    record = api.call("GET", f"/api/v1/tables/{final['id']}/record").json()
    size = game_spec(rules).deck  # snoozer's 53 cards, else 52
    game = Game(rules, lambda n: Board.from_dict(record["hands"][n - 1]["board"], seats, size))
    for h in record["hands"]:
        assert h["ruleset"] == rules.name and replay(h)["delta"] == h["result"]["delta"]
        hand = game.new_hand()
        assert hand.side_dict(hand.scores) == h["scores"]
        for action in h["actions"]:
            hand.apply(action)
        game.finish_hand(hand)
    assert game.winner == final["winner"] and dict(zip(game.sides, game.scores)) == final["scores"]
    return record
