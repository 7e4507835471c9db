"""``legality.check`` (what the API can judge from an observation) agrees with the engine."""

from random import Random

import pytest

from server.engine import GAMES, IllegalAction, generate_board, make_ruleset, new_hand, observation, seats_for
from server.engine.cards import ALL_NAMES
from server.engine.legality import check
from server.engine.playout import random_action


def mutations(action, rng):
    """The action itself and nearby wrong ones: other cards, sizes, amounts, fields."""
    yield action
    card = ALL_NAMES[rng.randrange(53)]  # the joker too: refused alike where nobody holds it
    out = dict(action)
    for key in ("cards", "keep", "extras"):
        if key in out:
            yield {**out, key: out[key][:-1]}
            yield {**out, key: out[key] + [card]}
            yield {**out, key: [card] + out[key][1:]}
    if "card" in out:
        yield {**out, "card": card}
        yield {**out, "extras": [card]}
    if "amount" in out:
        yield {**out, "amount": out["amount"] + rng.choice((-1, 1, 20))}
    if "take" in out:
        yield {**out, "take": int(out["take"])}
        yield {**out, "take": None}
    yield {
        **out,
        "type": rng.choice(
            [
                "pass",
                "bid",
                "trump",
                "discard",
                "rob",
                "play",
                "stand",
                "beg",
                "give",
                "widow",
                "run",
                "bunch",
                "accept",
                "refuse",
                "sell",
                "pitch",
            ]
        ),
    }
    yield {**out, "bogus": 1}


SHAPES = [(name, {"players": k} if k != 4 else None) for name in GAMES for k in GAMES[name].players]


@pytest.mark.parametrize(
    "name, options",
    [
        *SHAPES,
        ("foster51", {"trump_discard_over_six_only": True}),
        ("seven_up", {"players": 2, "two_player_bunch": True}),
        ("blind_cinch", {"base": "american62"}),
        ("pedro", {"players": 5, "deal_all": True}),
        ("snoozer", {"players": 6, "deal_all": True}),
    ],
)
def test_check_accepts_exactly_what_apply_accepts(name, options):
    rules = make_ruleset(name, options)
    rng = Random(4)
    compared = 0
    for n in range(1, 60):
        state = new_hand(rules, generate_board("legality", n, seats_for(rules.players), GAMES[name].deck))
        while state.phase != "done":
            legal = observation(state, state.seat_to_act())["legal"]
            for candidate in mutations(random_action(legal, rng), rng):
                try:
                    check(candidate, legal)
                    by_check = True
                except IllegalAction:
                    by_check = False
                try:
                    state.clone().apply(candidate)
                    by_engine = True
                except IllegalAction:
                    by_engine = False
                assert by_check == by_engine, (candidate, legal)
                compared += 1
            state.apply(random_action(legal, rng))
    assert compared > 3000
