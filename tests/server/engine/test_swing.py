"""Each game's declared ``swing`` (the largest net one hand gives between two sides) holds
in play: random hands of every two-sided shape never pass it. The sequential test's error
rates rest on it (``server.arena.match_sprt.score_bound``)."""

import random

import pytest

from server.arena.duplicate import net, play_room
from server.arena.match_sprt import score_bound
from server.engine import game_spec, generate_board, make_ruleset, seats_for
from server.engine.games import GAMES
from workers.bots import make_bot

TWO_SIDED = [
    (name, players) for name, spec in GAMES.items() for players in spec.players if len(spec.sides(players)[0]) == 2
]


@pytest.mark.parametrize("name,players", TWO_SIDED)
def test_no_hand_nets_more_than_its_games_swing(name, players):
    rules = make_ruleset(name, {"players": players} if len(GAMES[name].players) > 1 else {})
    swing = game_spec(rules).swing
    assert swing is not None, f"{name} is played by two sides and must declare its swing"
    rng = random.Random(name)
    worst = 0
    for n in range(1, 201):
        board = generate_board(f"swing/{name}/{players}", n, seats_for(players), game_spec(rules).deck)
        agents = [make_bot(rng.choice(["random", "rule"]), n) for _ in range(players)]
        delta = play_room(rules, board, agents)["result"]["delta"]
        worst = max(worst, abs(net(delta, next(iter(delta)))))
    assert 0 < worst <= swing, (name, players, worst, swing)
    assert score_bound(name, rules.options()) == 2 * swing


def test_the_sequential_test_is_refused_where_no_bound_is_worked_out():
    with pytest.raises(ValueError, match="bound on the board scores"):
        score_bound("auction_pitch", {"players": 4})
