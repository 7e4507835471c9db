"""Rooms for any table shape (docs/rules/duplicate.md): seatings, nets, board scores."""

from fractions import Fraction
from itertools import permutations
from math import factorial

import pytest

from server.arena.duplicate import as_number, board_record, board_scores, nets, play_boards, play_match, seatings
from server.engine import generate_board, make_ruleset, replay, seats_for
from workers.bots import RandomBot, make_bot

AM62, FOSTER = make_ruleset("american62"), make_ruleset("foster51")


class Seated:
    """Wraps a bot and remembers the seats it was asked to decide for, room by room."""

    def __init__(self, bot):
        self.bot, self.key, self.seats = bot, None, {}

    def new_hand(self, key):
        self.key = key

    def decide(self, observation):
        self.seats.setdefault(self.key, set()).add(observation["seat"])
        return self.bot.decide(observation)


@pytest.mark.parametrize("k", range(2, 8))
def test_rotate_gives_each_entrant_every_unit_once(k):
    plan = seatings(k)
    assert len(plan) == k and plan[0] == tuple(range(k))
    assert all(sorted(room) == list(range(k)) for room in plan)  # every unit held in every room
    for j in range(k):
        assert sorted(room[j] for room in plan) == list(range(k))
        assert [room[j] for room in plan] == [(j + r) % k for r in range(k)]


@pytest.mark.parametrize("k", range(2, 5))
def test_permute_gives_each_entrant_every_unit_k_minus_1_factorial_times(k):
    plan = seatings(k, "permute")
    assert sorted(plan) == sorted(permutations(range(k))) and len(plan) == factorial(k)
    for j in range(k):
        assert all([room[j] for room in plan].count(u) == factorial(k - 1) for u in range(k))


def test_permute_is_for_four_entrants_at_most_and_rooms_are_named():
    with pytest.raises(ValueError, match="at most 4"):
        seatings(5, "permute")
    with pytest.raises(ValueError, match="rotate, permute"):
        seatings(3, "shuffle")


@pytest.mark.parametrize(
    "delta",
    [
        {"NS": 7, "EW": -3},
        {"P1": 4, "P2": -2, "P3": 1},
        {"P1": 1, "P2": 0, "P3": 0},
        {"P1": 3, "P2": 5, "P3": -4, "P4": 0},
        {f"P{i}": i * i - 7 for i in range(1, 8)},
    ],
)
def test_nets_sum_to_zero_and_are_exact(delta):
    units = list(delta)
    out = nets(delta, units)
    assert sum(out) == 0 and all(isinstance(n, Fraction) for n in out)
    m = len(units)
    for unit, n in zip(units, out):
        assert n == delta[unit] - Fraction(sum(delta.values()) - delta[unit], m - 1)


def test_with_two_units_a_net_is_the_old_difference():
    assert nets({"NS": 9, "EW": -4}, ["NS", "EW"]) == [13, -13]
    assert nets({"NS": 0, "EW": 5}, ["EW", "NS"]) == [5, -5]


def test_three_single_seats_score_the_sum_of_their_nets_over_the_rooms():
    """Synthetic deltas of a three-seat board in rotated rooms: X_j held P((j + r) % 3)."""
    deltas = [{"P1": 3, "P2": 0, "P3": 1}, {"P1": 2, "P2": 2, "P3": 0}, {"P1": 0, "P2": 1, "P3": 4}]
    rooms = [{"result": {"delta": d}, "units": [f"P{(j + r) % 3 + 1}" for j in range(3)]} for r, d in enumerate(deltas)]
    scores = board_scores(rooms)
    assert sum(scores) == 0
    # X_0 held P1, P2, P3: nets 3 - 1/2, 2 - 1, 4 - 1/2
    assert scores[0] == Fraction(5, 2) + 1 + Fraction(7, 2) == 7
    assert scores[1] == -2 - 2 - Fraction(5, 2) and scores[2] == -Fraction(1, 2) + 1 - 1
    assert board_record(1, rooms)["entrant_scores"] == [7, -6.5, -0.5]  # whole: int, else float
    # an entrant that scores what every other unit scores nets zero wherever it sits
    flat = [{"result": {"delta": {"P1": 1, "P2": 1, "P3": 1}}, "units": ["P1", "P2", "P3"]}]
    assert board_scores(flat) == [0, 0, 0]


def test_two_partnerships_in_rotated_rooms_score_as_the_two_room_match():
    boards = [(n, generate_board("shape", n)) for n in range(1, 9)]
    pairs = play_match(AM62, boards, make_bot("rule", 1), make_bot("random", 4))
    shaped = sorted(play_boards(AM62, boards, [make_bot("rule", 1), make_bot("random", 4)]), key=lambda r: r["board"])
    assert [r["board"] for r in shaped] == [n for n, _ in boards]
    for pair, record in zip(pairs, shaped):
        assert record["entrant_scores"] == [pair["score"], -pair["score"]]
        assert [room["units"] for room in record["rooms"]] == [["NS", "EW"], ["EW", "NS"]]
        for room in record["rooms"]:
            assert replay(room)["delta"] == room["result"]["delta"]
            assert sum(nets(room["result"]["delta"], ["NS", "EW"])) == 0


@pytest.mark.parametrize("rules", [AM62, FOSTER], ids=lambda r: r.name)
def test_each_partnership_entrant_holds_each_side_once(rules):
    x, y = Seated(RandomBot(1)), Seated(RandomBot(2))
    [record] = play_boards(rules, [(1, generate_board("held", 1))], [x, y], context="m")
    assert x.seats == {"m/1/1": {"N", "S"}, "m/1/2": {"E", "W"}}
    assert y.seats == {"m/1/1": {"E", "W"}, "m/1/2": {"N", "S"}}
    assert sum(record["entrant_scores"]) == 0
    # permute with two entrants is the same two rooms
    [again] = play_boards(rules, [(1, generate_board("held", 1))], [RandomBot(1), RandomBot(2)], "permute")
    assert [room["units"] for room in again["rooms"]] == [["NS", "EW"], ["EW", "NS"]]


def test_no_board_is_met_twice_back_to_back():
    x, y = Seated(RandomBot(1)), Seated(RandomBot(2))
    records = list(play_boards(AM62, [(n, generate_board("gap", n)) for n in range(1, 5)], [x, y], context="m"))
    assert sorted(r["board"] for r in records) == [1, 2, 3, 4]
    played = [key.split("/")[1] for key in x.seats]  # boards in the order x met them
    assert len(played) == 8 and all(a != b for a, b in zip(played, played[1:]))


def test_a_stop_between_rooms_keeps_only_whole_boards():
    calls = iter(range(100))
    records = list(
        play_boards(
            AM62,
            [(n, generate_board("stop", n)) for n in range(1, 4)],
            [RandomBot(1), RandomBot(2)],
            should_stop=lambda: next(calls) >= 4,
        )
    )
    assert [r["board"] for r in records] == [1]


class Broken:
    def decide(self, observation):
        raise RuntimeError("segfault in my bot")


def test_a_faulting_entrant_gets_the_default_action_and_a_recorded_fault():
    [record] = play_boards(FOSTER, [(5, generate_board("fault", 5))], [Broken(), RandomBot(3)])
    for room, broken_side in zip(record["rooms"], ("NS", "EW")):
        assert room["faults"] and all(f["seat"] in broken_side for f in room["faults"])
        assert all(f["error"] == "segfault in my bot" for f in room["faults"])
        assert replay(room)["complete"]


def test_the_entrants_must_match_the_units():
    with pytest.raises(ValueError, match="2 units, not 3"):
        list(play_boards(AM62, [(1, generate_board("n", 1))], [RandomBot(1)] * 3))


@pytest.mark.parametrize(
    "name, k, rooms",
    [
        ("seven_up", 3, "rotate"),
        ("seven_up", 3, "permute"),
        ("seven_up", 2, "rotate"),
        ("pitch", 3, "permute"),
        ("all_fives", 2, "permute"),
    ],
)
def test_single_seats_end_to_end(name, k, rooms):
    rules = make_ruleset(name, {"players": k})
    seats = seats_for(k)
    entrants = [Seated(RandomBot(j)) for j in range(k)]
    records = list(
        play_boards(rules, [(n, generate_board("single", n, seats)) for n in (1, 2, 3)], entrants, rooms, context="m")
    )
    assert sorted(r["board"] for r in records) == [1, 2, 3]
    per_board = k if rooms == "rotate" else factorial(k)
    for record in records:
        assert len(record["rooms"]) == per_board
        for room in record["rooms"]:
            assert replay(room)["delta"] == room["result"]["delta"]
            assert sum(nets(room["result"]["delta"], list(seats))) == 0
        assert sum(Fraction(s).limit_denominator(100) for s in record["entrant_scores"]) == 0
        assert record["entrant_scores"] == [as_number(s) for s in board_scores(record["rooms"])]
    times = per_board // k  # each seat held once, or (k-1)! times
    for j, entrant in enumerate(entrants):
        for n in (1, 2, 3):
            held = [seat for key, got in entrant.seats.items() if key.split("/")[1] == str(n) for seat in got]
            assert sorted(held) == sorted(list(seats) * times), (j, n)
