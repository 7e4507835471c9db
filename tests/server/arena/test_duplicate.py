"""The duplicate match runner: seating, scoring from the record alone, broken bots."""

import random

import pytest

from server.arena.duplicate import (
    blind_score,
    entrant_side,
    net,
    pair_score,
    play_blind_board,
    play_board_pair,
    play_match,
    play_pairs,
    play_par_room,
    play_sides,
    units_of,
)
from server.engine import generate_board, make_ruleset, replay, seats_for
from server.engine.games import GAMES
from tests.support.benchmarks import load
from workers.bots import RandomBot, make_bot

AM62 = make_ruleset("american62")


class Seated:
    """Wraps a bot and remembers which seats it was asked to decide for."""

    def __init__(self, bot):
        self.bot, self.seats = bot, set()

    def decide(self, observation):
        self.seats.add(observation["seat"])
        return self.bot.decide(observation)


def test_rooms_swap_the_partnerships_on_the_same_cards():
    x, y = Seated(RandomBot(1)), Seated(RandomBot(2))
    record = play_board_pair(AM62, generate_board("m", 1), 1, x, y)
    room1, room2 = record["rooms"]
    assert room1["board"] == room2["board"]
    assert x.seats == {"N", "S", "E", "W"} and y.seats == {"N", "S", "E", "W"}
    # in room 1 every N/S action was X's: check through a fresh seating
    x1, y1 = Seated(RandomBot(1)), Seated(RandomBot(2))
    play_sides(AM62, generate_board("m", 1), x1, y1)
    assert x1.seats <= {"N", "S"} and y1.seats <= {"E", "W"}


def test_score_is_recomputable_from_the_record_alone():
    for n in range(1, 30):
        record = play_board_pair(AM62, generate_board("m", n), n, make_bot("rule", 1), make_bot("random", 1))
        rooms = record["rooms"]
        for room in rooms:
            audit = replay(room)
            result = room["result"]
            assert audit["complete"] and audit["delta"] == result["delta"] and audit["points"] == result["points"]
            assert audit["contract"] == result["contract"] and audit["trump"] == result["trump"]
        expect = net(rooms[0]["result"]["delta"], "NS") + net(rooms[1]["result"]["delta"], "EW")
        assert record["score"] == pair_score(rooms) == expect


def test_net_is_score_change_minus_the_others():
    assert net({"NS": -10, "EW": 5}, "NS") == -15
    assert net({"NS": -10, "EW": 5}, "EW") == 15


def test_same_bot_in_both_seats_scores_zero_on_every_board():
    """Duplicate cancels the cards: a bot against an identical copy nets 0 on each pair."""
    records = play_match(
        AM62, [(n, generate_board("mirror", n)) for n in range(1, 40)], make_bot("rule", 3), make_bot("rule", 3)
    )
    assert all(r["score"] == 0 for r in records)


class Broken:
    def decide(self, observation):
        raise RuntimeError("segfault in my bot")


class Cheater:
    def decide(self, observation):
        return {"type": "play", "card": "AS"} if observation["phase"] == "play" else {"type": "pass"}


def test_broken_or_illegal_bots_get_the_default_action_and_a_recorded_fault():
    for bad in (Broken(), Cheater()):
        record = play_board_pair(AM62, generate_board("m", 3), 3, bad, RandomBot(1))
        faults = record["rooms"][0]["faults"] + record["rooms"][1]["faults"]
        assert faults and all(f["seat"] for f in faults)
        for room in record["rooms"]:
            assert replay(room)["complete"]


class Keyed:
    """Wraps a bot and records the room keys it is told, in order."""

    def __init__(self, bot):
        self.bot, self.keys = bot, []

    def new_hand(self, key):
        self.keys.append(key)

    def decide(self, observation):
        return self.bot.decide(observation)


def test_a_boards_two_rooms_are_never_back_to_back():
    x, y = Keyed(RandomBot(1)), Keyed(RandomBot(2))
    boards = [(n, generate_board("gap", n)) for n in range(1, 7)]
    records = list(play_pairs(AM62, boards, x, y, "m"))
    assert sorted(r["board"] for r in records) == [1, 2, 3, 4, 5, 6]
    rooms = [key.rsplit("/", 2)[1:] for key in x.keys]  # [board, room] in the order played
    assert len(rooms) == 12
    for (board, room), (next_board, _) in zip(rooms, rooms[1:]):
        assert not (room == "1" and next_board == board), f"board {board}'s second room came right after its first"
    played = [int(b) for b, _ in rooms]
    assert all(played.count(n) == 2 for n in range(1, 7))
    assert min(played.index(n, played.index(n) + 1) - played.index(n) for n in range(1, 7)) == 5


def test_interleaving_changes_no_result():
    boards = [(n, generate_board("same", n)) for n in range(1, 9)]
    together = play_match(AM62, boards, make_bot("rule", 1), make_bot("random", 4))
    one_by_one = [play_board_pair(AM62, b, n, make_bot("rule", 1), make_bot("random", 4)) for n, b in boards]
    assert [r["score"] for r in together] == [r["score"] for r in one_by_one]


def test_a_stop_between_rooms_keeps_only_whole_pairs():
    calls = iter(range(100))
    records = list(
        play_pairs(
            AM62,
            [(n, generate_board("stop", n)) for n in range(1, 5)],
            RandomBot(1),
            RandomBot(2),
            "m",
            should_stop=lambda: next(calls) >= 5,
        )
    )
    assert [r["board"] for r in records] == [2]  # rooms 1 of 1-4, then board 2's second room
    assert all(len(r["rooms"]) == 2 for r in records)


def test_blind_board_scores_the_entrant_against_the_reference_pair():
    for n in range(1, 25):
        board = generate_board("blind", n)
        par = play_par_room(AM62, board, n, make_bot("rule", 1))
        side = entrant_side(AM62, board.dealer, n - 1, 0)
        record = play_blind_board(AM62, board, n, make_bot("random", n), make_bot("rule", 1), side, par)
        room, shared = record["rooms"]
        assert shared is par and record["side"] == side
        assert replay(room)["delta"] == room["result"]["delta"]
        assert room["board"] == par["board"] == board.to_dict()
        expect = net(room["result"]["delta"], side) - net(par["result"]["delta"], side)
        assert record["score"] == blind_score(room, par, side) == expect


def test_the_reference_against_itself_scores_zero_and_sides_alternate():
    for n in range(1, 13):
        board = generate_board("par", n)
        par = play_par_room(AM62, board, n, make_bot("rule", 2))
        record = play_blind_board(
            AM62, board, n, make_bot("rule", 2), make_bot("rule", 2), entrant_side(AM62, board.dealer, n - 1, 1), par
        )
        assert record["score"] == 0
    dealers = "NESW"
    assert [entrant_side(AM62, dealers[t], t, 0) for t in range(4)] == ["NS", "NS", "NS", "NS"], "dealing every other"
    assert [entrant_side(AM62, "N", 0, i) for i in (0, 1)] == ["NS", "EW"], (
        "neighbouring entrants sit at opposite sides"
    )


@pytest.mark.parametrize("ruleset,players", [(name, p) for name, spec in GAMES.items() for p in spec.players])
def test_every_blind_entrant_holds_the_dealing_side_one_board_in_m(ruleset, players):
    """Whatever its place in the list, in board order or any other, over any run of its
    boards: within one board of one in m (m units)."""
    rules = make_ruleset(ruleset, {"players": players} if len(GAMES[ruleset].players) > 1 else {})
    names, side_of = units_of(rules)
    seats = seats_for(players)
    shuffled = random.Random(f"{ruleset}/{players}").sample(range(24), 24)
    for order in (list(range(24)), shuffled):
        for index in range(6):
            dealing = 0
            for position, number in enumerate(order, 1):
                dealer = seats[number % players]  # the generator's dealer of board number + 1
                side = entrant_side(rules, dealer, position - 1, index)
                dealing += side == names[side_of[seats.index(dealer)]]
                assert abs(dealing - position / len(names)) <= 1, (ruleset, players, order, index, position)


def test_an_entrant_holds_each_blind_board_at_one_side_only():
    entrant = Seated(RandomBot(3))
    board = generate_board("once", 5)
    par = play_par_room(AM62, board, 5, make_bot("rule", 1))
    play_blind_board(AM62, board, 5, entrant, make_bot("rule", 1), "EW", par)
    assert entrant.seats <= {"E", "W"}


def test_the_luck_benchmarks_independent_baseline_gives_x_the_deal_in_one_hand_of_two():
    """``benchmarks/luck.py``'s "independent deals" way plays two hands per board on other
    deals; X's side must deal one of them, as in a duplicate pair's rooms, and sit at each
    side equally often (it dealt both when it sat N/S on the odd board and E/W on the even)."""
    hands = load("luck").independent_hands
    sides = {"N": "NS", "S": "NS", "E": "EW", "W": "EW"}
    for n in range(1, 41):
        dealt = [sides[generate_board("independent", k).dealer] == side for k, side in hands(n)]
        assert sorted(dealt) == [False, True], n
    assert sum(side == "NS" for n in range(1, 41) for _, side in hands(n)) == 40
