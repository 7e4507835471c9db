"""Per-room views of widow_cinch: a rotation of the six-seat table moves its sides seat by
seat (P1P4 -> P2P5 -> P3P6 -> P1P4), so a hand played through any view is exactly the
game the engine plays on the rotated, relabeled board, and every shown observation is the
one the engine itself shows there."""

from __future__ import annotations

from random import Random

from hypothesis import given
from hypothesis import strategies as st
from support.allfours_checks import boards, props

from server.engine import CARD_NAMES, DONE, Board, make_ruleset, new_hand, observation, seats_for
from server.engine.legality import check
from server.engine.playout import random_action
from server.engine.relabel import View, relabelings

SEATS = seats_for(6)
RULES = make_ruleset("widow_cinch")


def test_a_rotation_moves_the_sides_seat_by_seat_and_keeps_their_order():
    obs = {
        "seat": "P1",
        "seats": list(SEATS),
        "scores": {"P1P4": 1, "P2P5": 2, "P3P6": 3},
        "points": {"P1P4": 10, "P2P5": 4, "P3P6": 0},
    }
    view = View(dict(zip("CDHS", "CDHS")), 1, players=6)
    out = view.show(obs)
    assert out["seat"] == "P2" and out["scores"] == {"P1P4": 3, "P2P5": 1, "P3P6": 2}
    assert list(out["points"]) == ["P1P4", "P2P5", "P3P6"] and out["points"]["P2P5"] == 10
    assert view.back(out) == obs
    assert View(dict(zip("CDHS", "CDHS")), 3, players=6).show(obs)["scores"] == obs["scores"]


@props(30)
@given(board=boards(6), seed=st.integers(0, 2**32), which=st.integers(0, 7), turn=st.integers(0, 5))
def test_a_hand_played_through_a_view_is_the_same_game(board, seed, which, turn):
    view = View(relabelings()[which], turn, players=6)
    shown_board = Board.from_dict(
        {
            "dealer": SEATS[(SEATS.index(board.dealer) + turn) % 6],
            "deck": [view.show(CARD_NAMES[c]) for c in board.deck],
            "seed": board.seed,
        },
        SEATS,
    )
    real, twin = new_hand(RULES, board), new_hand(RULES, shown_board)
    rng = Random(seed)
    while real.phase != DONE:
        shown = view.show(observation(real, real.seat_to_act()))
        assert observation(twin, shown["seat"]) == shown
        answer = random_action(shown["legal"], rng)
        check(answer, shown["legal"], shown["seat"])
        real.apply(view.back(answer))
        twin.apply(answer)
    assert twin.phase == DONE
    assert observation(twin, None) == view.show(observation(real, None))
    assert view.show(real.side_dict(real.delta())) == twin.side_dict(twin.delta())
