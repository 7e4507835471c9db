"""Suit relabelings: colour-preserving, invertible, and equivalent for the game."""

from random import Random

from server.engine import HandState, generate_board, make_ruleset, observation
from server.engine.cards import CARD_INDEX
from server.engine.playout import random_action
from server.engine.relabel import inverse, relabeling_for, relabelings, translate


def test_eight_maps_each_keeping_colours_together():
    maps = relabelings()
    assert len({tuple(sorted(m.items())) for m in maps}) == 8
    for m in maps:
        assert {m["C"], m["S"]} in ({"C", "S"}, {"D", "H"})
        assert {m["D"], m["H"]} in ({"C", "S"}, {"D", "H"})


def test_left_pedro_is_preserved():
    for m in relabelings():
        for trump, left in (("H", "5D"), ("D", "5H"), ("S", "5C"), ("C", "5S")):
            assert translate(left, m) == "5" + {"H": "D", "D": "H", "S": "C", "C": "S"}[m[trump]]


def test_a_suit_map_alone_moves_no_seat_and_lists_are_resorted():
    m = {"C": "S", "S": "C", "D": "H", "H": "D"}
    obs = {"seat": "S", "to_act": "S", "trump": "H", "hand": ["2C", "3D", "AS"], "tricks": [{"leader": "S"}]}
    out = translate(obs, m)
    assert out["seat"] == "S" and out["to_act"] == "S" and out["tricks"][0]["leader"] == "S"
    assert out["trump"] == "D"
    assert out["hand"] == sorted(["2S", "3H", "AC"], key=CARD_INDEX.__getitem__)


def test_a_relabeled_hand_plays_out_identically():
    """Playing through relabeled observations and translating back is the same game."""
    rules = make_ruleset("american62")
    for n in range(1, 40):
        m = relabeling_for(b"secret", f"m/{n}/1")
        back = inverse(m)
        state = HandState(rules, generate_board("relabel", n))
        rng = Random(n)
        while state.phase != "done":
            seen = translate(observation(state, state.seat_to_act()), m)
            state.apply(translate(random_action(seen["legal"], rng), back))
        assert sum(state.points()) == 14


def test_rooms_get_independent_maps():
    maps = {tuple(relabeling_for(b"k", f"t1.m1/{n}/{room}").values()) for n in range(20) for room in (1, 2)}
    assert len(maps) > 4


def test_the_joker_is_the_same_card_in_every_view_and_a_snoozer_hand_plays_through_one():
    from server.engine import new_hand, seats_for
    from server.engine.relabel import View

    for m in relabelings():
        assert translate({"hand": ["AH", "JK"], "card": "JK"}, m) == {"hand": ["A" + m["H"], "JK"], "card": "JK"}
    rules = make_ruleset("snoozer", {"players": 5, "deal_all": True})
    for n in range(1, 12):
        view = View(relabeling_for(b"secret", f"jk/{n}"), rotation=n, players=5)
        state = new_hand(rules, generate_board("relabel-jk", n, seats_for(5), 53))
        rng = Random(n)
        while state.phase != "done":  # every answer through the view is legal
            seen = view.show(observation(state, state.seat_to_act()))
            state.apply(view.back(random_action(seen["legal"], rng)))
        out = state.describe()
        played = any(p["card"] == "JK" for t in out["tricks"] for p in t["plays"])
        assert played != ("JK" in out["record"]["out_of_play"])
