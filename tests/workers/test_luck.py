"""The luck of the draw (workers.luck): mean zero, reproducible, cancelling where duplicate does."""

from __future__ import annotations

import math
from statistics import fmean, stdev

import pytest

from server.arena.duplicate import play_board_pair, play_sides
from server.engine import HandState, generate_board, make_ruleset
from workers.bots import make_bot
from workers.luck import (
    SAMPLES,
    deal_luck,
    deal_value,
    hand_luck,
    lucky_pair,
    other_stocks,
    pair_luck,
    pivot,
    room_luck,
    to_play,
    value,
    with_luck,
)


def rooms_of(ruleset: str, boards: range, deals: str = "luck-test") -> list[tuple]:
    rules = make_ruleset(ruleset)
    out = []
    for n in boards:
        board = generate_board(deals, n)
        room = play_sides(rules, board, make_bot("rule", n), make_bot("random", n))
        out.append((rules, board, room))
    return out


@pytest.mark.parametrize("ruleset", ["american62", "foster51"])
def test_luck_has_mean_zero_over_the_real_chance(ruleset: str) -> None:
    """The stock of each board is a fresh draw of the chance event the luck is measured
    against, so over many boards the luck averages zero. A luck measured against the
    wrong distribution (a stock not reshuffled, the real dealer's rob in the real world
    but the evaluator's in the others) shows up here as a mean several errors away."""
    lucks = [room_luck(rules, board, room["actions"]) for rules, board, room in rooms_of(ruleset, range(1, 161))]
    assert stdev(lucks) > 1.0  # the draw does matter
    error = stdev(lucks) / math.sqrt(len(lucks))
    assert abs(fmean(lucks)) < 3 * error, (fmean(lucks), error)


def test_the_same_room_always_has_the_same_luck() -> None:
    [(rules, board, room)] = rooms_of("american62", range(7, 8))
    first = room_luck(rules, board, room["actions"])
    assert room_luck(rules, board, room["actions"]) == first
    assert [b.deck for b in other_stocks(board, 3)] == [b.deck for b in other_stocks(board, 3)]


def test_other_stocks_keep_the_deal_and_change_the_stock() -> None:
    board = generate_board("luck-test", 3)
    worlds = list(other_stocks(board, SAMPLES))
    assert len(worlds) == SAMPLES
    for world in worlds:
        assert world.deck[:36] == board.deck[:36] and world.dealer == board.dealer
        assert sorted(world.deck[36:]) == sorted(board.deck[36:])
    assert len({w.deck for w in worlds}) == SAMPLES and len({w.seed for w in worlds}) == SAMPLES


def test_rooms_that_bid_and_draw_alike_cancel_exactly() -> None:
    """A bot against itself reaches the same contract and draw in both rooms: duplicate
    already removed that luck, and the correction adds nothing."""
    rules = make_ruleset("american62")
    for n in range(1, 6):
        board = generate_board("luck-test", n)
        record = lucky_pair(rules, board, play_board_pair(rules, board, n, make_bot("rule", 1), make_bot("rule", 1)))
        assert record["luck"] == 0.0
        assert record["rooms"][0]["luck"] == record["rooms"][1]["luck"]


def test_pair_luck_is_x_s_side_in_both_rooms() -> None:
    assert pair_luck([{"luck": 3.5}, {"luck": -1.0}]) == 4.5


def test_the_pivot_is_where_the_stock_is_first_seen() -> None:
    """american62: trump is named and the draw is dealt at once, so the rob comes next;
    foster51: after every non-dealer's discard."""
    for ruleset, kinds in (("american62", {"bid", "pass", "trump"}), ("foster51", {"bid", "pass", "trump", "discard"})):
        [(rules, board, room)] = rooms_of(ruleset, range(2, 3))
        actions = room["actions"]
        cut = pivot(rules, board, actions)
        assert {a["type"] for a in actions[:cut]} <= kinds
        assert actions[cut]["type"] == "rob"


def test_the_value_is_a_net_within_the_game_s_bounds() -> None:
    [(rules, board, room)] = rooms_of("american62", range(4, 5))
    state = HandState(rules, board)
    actions = room["actions"]
    for action in actions[: pivot(rules, board, actions)]:
        state.apply(action)
    v = value(to_play(state))
    assert -28 <= v <= 28


def test_with_luck_keeps_the_room_and_adds_n_s_luck() -> None:
    [(rules, board, room)] = rooms_of("foster51", range(5, 6))
    lucky = with_luck(rules, board, room)
    assert {k: v for k, v in lucky.items() if k != "luck"} == room
    assert isinstance(lucky["luck"], float)


@pytest.mark.parametrize("ruleset", ["american62", "foster51"])
def test_the_luck_of_the_deal_has_mean_zero_over_deals(ruleset: str) -> None:
    """Over deals the fit never saw, the deal's luck averages zero for N/S (``DEALER_EDGE``
    takes out what dealing is worth), and it is not zero on a deal."""
    rules = make_ruleset(ruleset)
    lucks = [deal_luck(rules, generate_board("deal-luck-test", n)) for n in range(1, 301)]
    error = stdev(lucks) / math.sqrt(len(lucks))
    assert stdev(lucks) > 1.0 and abs(fmean(lucks)) < 3 * error, (fmean(lucks), error)


def test_a_table_hand_s_luck_is_its_deal_s_and_its_draw_s() -> None:
    [(rules, board, room)] = rooms_of("american62", range(5, 6), "deal-luck-test")
    actions = room["actions"]
    assert hand_luck(rules, board, actions) == {
        "deal": deal_luck(rules, board),
        "draw": room_luck(rules, board, actions),
    }
    assert deal_value(rules, board) == deal_value(rules, board)  # the same worlds every time


@pytest.mark.parametrize(
    "options",
    [
        {"min_bid": 6},
        {"trump_discard_over_six_only": True},
        {"low_to_holder": True},
        {"first_lead_trump": True},
        {"dealer_draws_blind": True},
        {"scoring": "set_back"},
        {"scoring": "eight_point_minimum"},
    ],
)
def test_every_foster51_option_has_a_luck(options: dict) -> None:
    rules = make_ruleset("foster51", options)
    for n in range(1, 9):
        board = generate_board("luck-options", n)
        room = play_sides(rules, board, make_bot("random", n), make_bot("rule", n))
        assert math.isfinite(room_luck(rules, board, room["actions"]))


def test_a_failing_measure_leaves_the_board_without_a_luck(monkeypatch: pytest.MonkeyPatch) -> None:
    """A board is stored whatever befalls its luck: the room's luck is None, the pair's
    too, and a table hand's; the statistics count it as luck 0."""
    import workers.luck as luck

    def broken(*args: object) -> float:
        raise ValueError("no luck today")

    [(rules, board, room)] = rooms_of("american62", range(6, 7))
    monkeypatch.setattr(luck, "room_luck", broken)
    lucky = with_luck(rules, board, room)
    assert lucky["luck"] is None and pair_luck([lucky, lucky]) is None
    assert hand_luck(rules, board, room["actions"]) is None
