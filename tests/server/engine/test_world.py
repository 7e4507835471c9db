"""``world_state``: the engine's state of a sampled world, for every game in the registry
that has reached the play."""

from __future__ import annotations

from random import Random

import pytest

from server.engine import GAMES, generate_board, make_ruleset, new_hand, observation, seats_for
from server.engine.cards import names_of
from server.engine.playout import playout, random_step
from server.engine.world import WorldError, world_state

SHAPES = [(name, k) for name in GAMES for k in GAMES[name].players]


def mid_play(name: str, players: int, n: int, rng: Random):
    """A hand of ``name`` stopped at a random point of its play."""
    rules = make_ruleset(name, {"players": players} if players != 4 else None)
    state = new_hand(rules, generate_board("world", n, seats_for(players)))
    while state.phase != "play":
        random_step(state, rng)
    for _ in range(rng.randrange(0, 4 * players)):
        if state.phase != "play":
            break
        random_step(state, rng)
    return state


def true_world(state) -> dict[str, list[str]]:
    return {seat: names_of(state.hands[i]) for i, seat in enumerate(state.seats)}


@pytest.mark.parametrize("name,players", SHAPES)
def test_the_true_world_is_the_same_hand(name, players):
    rng = Random(7)
    checked = 0
    for n in range(1, 25):
        state = mid_play(name, players, n, rng)
        if state.phase != "play":
            continue
        obs = observation(state, state.seat_to_act())
        rebuilt = world_state(obs, true_world(state))
        assert rebuilt.to_act == state.to_act
        assert sorted(rebuilt.legal_plays()) == sorted(state.legal_plays())
        assert rebuilt.trick_dicts() == state.trick_dicts()
        a, b = rebuilt.clone(), state.clone()
        playout(a, Random(n))
        playout(b, Random(n))
        assert a.points() == b.points() and a.delta() == b.delta()
        checked += 1
    assert checked >= 15


@pytest.mark.parametrize("name,players", SHAPES)
def test_a_world_that_the_play_contradicts_is_refused(name, players):
    rng = Random(11)
    for n in range(1, 60):
        state = mid_play(name, players, n, rng)
        if state.phase != "play" or len(state.trick_dicts()) < 2:
            continue
        obs = observation(state, state.seat_to_act())
        world = true_world(state)
        seats = state.seats
        # a seat that played a card is given it back as well: a card in two places
        first = obs["tricks"][0]["plays"][0]
        other = seats[(seats.index(first["seat"]) + 1) % len(seats)]
        bad = {**world, other: world[other][:-1] + [first["card"]]} if world[other] else None
        if bad is None:
            continue
        with pytest.raises(WorldError):
            world_state(obs, bad)
        return
    pytest.fail("no hand reached its second trick")


def test_a_world_is_built_only_for_the_play():
    state = new_hand(make_ruleset("american62"), generate_board("world", 1))
    obs = observation(state, state.seat_to_act())
    with pytest.raises(WorldError, match="for the play"):
        world_state(obs, true_world(state))


def test_a_first_trick_with_extras_is_rebuilt():
    """american62: a player holding more than six trumps plays extras on the first trick;
    the world built after it replays them (and refuses extras the rules would not allow)."""
    rules, rng, checked = make_ruleset("american62"), Random(5), 0
    for n in range(1, 1500):
        state = new_hand(rules, generate_board("world-extras", n))
        while state.phase != "play":
            random_step(state, rng)
        if not any(state.extras_owed(s) for s in range(4)):
            continue
        for _ in range(4):
            random_step(state, rng)
        obs = observation(state, state.seat_to_act())
        assert any(p["extras"] for p in obs["tricks"][0]["plays"])
        rebuilt = world_state(obs, true_world(state))
        assert rebuilt.trick_dicts() == state.trick_dicts() and rebuilt.hands == state.hands
        checked += 1
        if checked == 5:
            return
    pytest.fail(f"only {checked} hands with extras")
