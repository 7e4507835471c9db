"""Per-room views (suit relabeling and table rotation) are exact symmetries of the game.

For random playouts of random boards under every ruleset (american62, foster51 and
foster51 with random options), at every decision and for each of the 32 views:
``back(show(x)) == x`` on observations and actions, nothing in the shown observation's
order betrays the view, and a bot deciding on the shown observation always has its
answer mapped back to a legal real action. A hand played with every decision through a
view ends exactly as the same real actions played directly, and (while no reshuffle
has happened: a restock's order hashes the real card names) the shown observations are
exactly what the engine itself shows for the rotated, relabeled board.
"""

from __future__ import annotations

import json
from random import Random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.examples import examples as scaled
from test_properties import FOSTER_OPTIONS

from server.engine import CARD_NAMES, DONE, SEATS, SIDES, Board, HandState, generate_board, make_ruleset, observation
from server.engine.legality import check
from server.engine.playout import random_action
from server.engine.relabel import View, all_views, relabelings, rotation_for, view_for

RULESETS = st.one_of(
    st.just(("american62", {})), st.just(("foster51", {})), FOSTER_OPTIONS.map(lambda o: ("foster51", o))
)
SCORES = st.tuples(st.integers(-60, 70), st.integers(-60, 70))


@st.composite
def boards(draw) -> Board:
    """A random board: either a drawn deck and dealer, or one from the canonical generator."""
    if draw(st.booleans()):
        return Board.from_dict(
            {
                "dealer": draw(st.sampled_from(SEATS)),
                "deck": list(draw(st.permutations(CARD_NAMES))),
                "seed": draw(st.binary(min_size=1, max_size=8)).hex(),
            }
        )
    return generate_board(draw(st.text("abcxyz0123456789-", max_size=6)), draw(st.integers(1, 10**6)))


def props(examples: int):
    return settings(
        max_examples=scaled(examples),
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


def sorted_lists(action: dict) -> dict:
    """An action as the engine lists cards (sorted), so a round trip can compare it exactly."""
    return {k: sorted(v, key=CARD_NAMES.index) if isinstance(v, list) else v for k, v in action.items()}


def rotated(seat: str, r: int) -> str:
    return SEATS[(SEATS.index(seat) + r) % 4]


def shown_board(board: Board, view: View) -> Board:
    """The board the view shows: the dealer rotated, every card relabeled, the same seed."""
    return Board.from_dict(
        {
            "dealer": rotated(board.dealer, view.rotation),
            "deck": [view.show(CARD_NAMES[c]) for c in board.deck],
            "seed": board.seed,
        }
    )


def swap(pair: tuple[int, int], r: int) -> tuple[int, int]:
    return pair[::-1] if r % 2 else pair


def assert_canonical_order(shown: dict) -> None:
    """Nothing's order betrays the view: seat- and side-keyed dicts in canonical order."""
    assert list(shown["hand_sizes"]) == list(SEATS)
    assert list(shown["scores"]) == list(SIDES)
    if shown["points"] is not None:
        assert list(shown["points"]) == list(SIDES)
    for key in ("hand",):
        if shown[key] is not None:
            assert shown[key] == sorted(shown[key], key=CARD_NAMES.index)


@pytest.mark.slow  # about 4 s of CPU under the dev profile, four times that under ci
@props(12)
@given(boards(), RULESETS, SCORES, st.booleans(), st.integers(0, 2**32))
def test_every_view_round_trips_and_maps_a_bots_answer_to_a_legal_real_action(board, spec, scores, bgo, seed):
    rules = make_ruleset(*spec)
    state = HandState(rules, board, scores, bgo)
    rng = Random(seed)
    views = all_views()
    others = (*SEATS, None)
    step = 0
    while True:
        seat = state.seat_to_act()
        real = observation(state, seat)
        other = observation(state, others[step % 5])  # another seat's view, or a spectator's, in turn
        for view in views:
            for obs in (real, other):
                shown = view.show(obs)
                assert json.dumps(view.back(shown)) == json.dumps(obs)  # equal, key order included
                assert_canonical_order(shown)
                if obs["seat"] is not None:
                    assert shown["seat"] == rotated(obs["seat"], view.rotation)
            if state.phase == DONE:
                continue
            shown = view.show(real)
            assert shown["to_act"] == shown["seat"] and shown["dealer"] == rotated(real["dealer"], view.rotation)
            answer = random_action(shown["legal"], rng)
            if rng.random() < 0.5:
                answer["seat"] = shown["seat"]  # a bot may name its (shown) seat
            check(answer, shown["legal"], shown["seat"])  # what the API judges
            back = view.back(answer)
            check(back, real["legal"], seat)
            assert view.show(back) == sorted_lists(answer)
            real_action = sorted_lists(random_action(real["legal"], rng))
            assert view.back(view.show(real_action)) == real_action
            state.clone().apply(back)  # the engine takes it too
        if state.phase == DONE:
            break
        state.apply(random_action(real["legal"], rng))
        step += 1


@props(40)
@given(boards(), RULESETS, SCORES, st.booleans(), st.integers(0, 2**32), st.integers(0, 31))
def test_a_hand_played_through_a_view_is_the_same_game(board, spec, scores, bgo, seed, which):
    rules = make_ruleset(*spec)
    view = all_views()[which]
    r = view.rotation
    real = HandState(rules, board, scores, bgo)
    twin = HandState(rules, shown_board(board, view), swap(scores, r), bgo)  # the game the bot believes in
    rng = Random(seed)
    while real.phase != DONE:
        seat = real.seat_to_act()
        shown = view.show(observation(real, seat))
        if real.restocks == 0:
            assert observation(twin, shown["seat"]) == shown
        answer = random_action(shown["legal"], rng)
        alike = real.restocks == 0
        real.apply(view.back(answer))
        if alike:
            twin.apply(answer)
    direct = HandState(rules, board, scores, bgo)
    for action in real.actions:
        direct.apply(action)
    assert direct.actions == real.actions
    assert (direct.points(), direct.delta(), direct.trick_dicts()) == (real.points(), real.delta(), real.trick_dicts())
    assert view.show(observation(real, None)) == view.show(observation(direct, None))
    if real.restocks == 0:
        assert twin.phase == DONE
        assert twin.points() == swap(real.points(), r) and twin.delta() == swap(real.delta(), r)
        assert observation(twin, None) == view.show(observation(real, None))


def test_a_rotation_moves_every_seat_field_and_swaps_sides_when_odd():
    obs = {
        "seat": "N",
        "dealer": "W",
        "to_act": "N",
        "declarer": "E",
        "trump": "H",
        "hand_sizes": {"N": 6, "E": 5, "S": 4, "W": 3},
        "bids": [{"seat": "N", "type": "bid", "amount": 7}],
        "contract": {"seat": "N", "amount": 7},
        "draws": [{"seat": "S", "discarded": 2}],
        "tricks": [{"leader": "N", "winner": "W", "plays": [{"seat": "N", "card": "5H"}]}],
        "points": {"NS": 10, "EW": 4},
        "scores": {"NS": 1, "EW": 2},
    }
    identity = dict(zip("CDHS", "CDHS"))
    out = View(identity, 1).show(obs)
    assert (out["seat"], out["dealer"], out["to_act"], out["declarer"]) == ("E", "N", "E", "S")
    assert out["hand_sizes"] == {"N": 3, "E": 6, "S": 5, "W": 4} and list(out["hand_sizes"]) == list("NESW")
    assert out["bids"][0]["seat"] == "E" and out["contract"]["seat"] == "E" and out["draws"][0]["seat"] == "W"
    assert out["tricks"][0] == {"leader": "E", "winner": "N", "plays": [{"seat": "E", "card": "5H"}]}
    assert out["points"] == {"NS": 4, "EW": 10} and list(out["points"]) == ["NS", "EW"]
    assert out["scores"] == {"NS": 2, "EW": 1}
    assert View(identity, 2).show(obs)["points"] == obs["points"]
    assert View(identity, 0).show(obs) == obs
    assert View(identity, 3).back(View(identity, 3).show(obs)) == obs


def test_rotation_and_suit_map_are_independent_and_uniform():
    secret = b"arena secret"
    pairs = [view_for(secret, f"t1.m{m}/{n}/{room}") for m in range(20) for n in range(1, 21) for room in (1, 2)]
    maps = [tuple(sorted(v.suits.items())) for v in pairs]
    combos = {(m, v.rotation) for m, v in zip(maps, pairs)}
    assert len(combos) == 32  # every map meets every rotation
    for r in range(4):
        assert 0.15 < sum(v.rotation == r for v in pairs) / len(pairs) < 0.35
    assert all(v.suits in relabelings() for v in pairs)
    assert all(v.rotation == rotation_for(secret, f"t1.m0/{n}/1") % 4 for v, n in zip(pairs[:40:2], range(1, 21)))
    for players in (2, 3, 5, 7):  # every table size takes a uniform rotation from the same number
        for v in pairs:
            v.players = players
        shares = [sum(v.rotation == r for v in pairs) / len(pairs) for r in range(players)]
        assert all(0.5 / players < share < 1.5 / players for share in shares), shares


def test_a_table_of_three_rotates_its_seats_and_single_seat_sides():
    obs = {
        "seat": "P1",
        "seats": ["P1", "P2", "P3"],
        "dealer": "P3",
        "to_act": "P1",
        "hand_sizes": {"P1": 6, "P2": 5, "P3": 4},
        "points": {"P1": 2, "P2": 1, "P3": 0},
        "items": [{"item": "high", "side": "P2", "value": 1}],
        "tricks": [{"leader": "P3", "winner": "P1", "plays": [{"seat": "P3", "card": "5H", "extras": []}]}],
    }
    view = View(dict(zip("CDHS", "CDHS")), 4)  # 4 % 3: one seat clockwise
    out = view.show(obs)
    assert view.players == 3 and out["seats"] == ["P1", "P2", "P3"]
    assert (out["seat"], out["dealer"], out["to_act"]) == ("P2", "P1", "P2")
    assert out["hand_sizes"] == {"P1": 4, "P2": 6, "P3": 5} and list(out["hand_sizes"]) == ["P1", "P2", "P3"]
    assert out["points"] == {"P1": 0, "P2": 2, "P3": 1} and out["items"][0]["side"] == "P3"
    assert out["tricks"][0]["leader"] == "P1" and out["tricks"][0]["winner"] == "P2"
    assert view.back({"type": "play", "card": "5H", "seat": "P2"}) == {"type": "play", "card": "5H", "seat": "P1"}
