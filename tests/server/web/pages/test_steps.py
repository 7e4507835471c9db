"""A hand as the page's steps tells the engine's story, for every game and table size: one
step per action plus the deal and the score, each seat's cards after every step the
engine's, the tricks and winners ``cinch replay``'s, every scoring item named and placed
in the trick its card fell in, and the merged keys of two rooms keeping each room's order."""

from random import Random

import pytest

from server.engine import GAMES, ReplayError, generate_board, make_ruleset, new_hand, replay, seats_for
from server.engine.playout import random_action
from server.engine.record import hand_record
from server.web.pages.steps import ITEM_NAMES, RANK_NAMES, compass, merged_keys, point_name, walk

TABLES = [(name, k) for name, spec in GAMES.items() for k in spec.players]


def played(name: str, k: int, number: int) -> dict:
    """A random complete hand of ``name`` at ``k`` seats on board ``number`` (a record)."""
    spec = GAMES[name]
    rules = make_ruleset(name, {"players": k} if len(spec.players) > 1 else None)
    hand = new_hand(rules, generate_board("cd" * 16, number, seats_for(k), spec.deck))
    rng = Random(number)
    while hand.phase != "done":
        hand.apply(random_action(hand.legal_actions(), rng))
    return hand_record(hand, [])


@pytest.mark.parametrize(("name", "k"), TABLES)
def test_the_steps_are_the_engines_in_every_game(name, k):
    for number in (1, 2):
        record = played(name, k, number)
        w, expected = walk(record), replay(record)
        assert [s["key"] for s in w["steps"]][0] == "deal" and w["steps"][-1]["key"] == "score"
        assert len(w["steps"]) == len(record["actions"]) + 2
        assert [{"leader": t["leader"], "winner": t["winner"]} for t in w["tricks"]] == [
            {"leader": t["leader"], "winner": t["winner"]} for t in expected["tricks"]
        ]
        assert [[p["card"] for p in t["plays"]] for t in w["tricks"]] == [
            [p["card"] for p in t["plays"]] for t in expected["tricks"]
        ]
        assert w["points"] == expected["points"] and w["delta"] == expected["delta"]
        assert w["steps"][w["start"] + 1]["phase"] == "play" or not w["tricks"]
        assert dict(zip(w["seats"], w["steps"][w["start"]]["hands"])) == expected["hands_after_draw"]
        for step in w["steps"]:  # a card played leaves its seat's hand at its step
            if step["phase"] == "play":
                seat = w["seats"].index(step["seat"])
                assert step["card"] not in step["hands"][seat] and step["trick"][-1][1] == step["card"]
        assert not any(s["hands"][i] for s in w["steps"][-1:] for i in range(k))  # every card played
        for item in w["items"]:
            assert item["name"] != item.get("card")  # a name, never a card string
            if item["trick"] and item["card"]:
                trick = w["tricks"][item["trick"] - 1]
                assert item["card"] in [c for p in trick["plays"] for c in (p["card"], *p["extras"])]
        assert merged_keys([w, w]) == merged_keys([w])
        assert sorted(cell for _, cell in compass(w["seats"])) == sorted(set(cell for _, cell in compass(w["seats"])))


def test_points_are_named():
    assert point_name("high", None) == "High" and point_name("ten", None) == "Game"
    assert point_name("five", None) == "Pedro" and point_name("snoozer", None) == "Snoozer"
    from server.engine.cards import TRUMP_TABLES

    hearts = TRUMP_TABLES[2]
    named = {card: point_name(card, hearts) for card in ("AH", "2H", "JH", "TH", "5H", "5D")}
    assert named == {"AH": "High", "2H": "Low", "JH": "Jack", "TH": "Game", "5H": "Right Pedro", "5D": "Left Pedro"}
    assert set(ITEM_NAMES.values()) >= {"High", "Low", "Jack", "Game"} and "T" in RANK_NAMES


def test_two_rooms_keys_keep_each_rooms_order_and_a_phase_one_room_lacks_falls_in_place():
    first, second = walk(played("american62", 4, 1)), walk(played("american62", 4, 2))
    keys = [k["key"] for k in merged_keys([first, second])]
    for w in (first, second):
        own = [s["key"] for s in w["steps"]]
        assert [k for k in keys if k in own] == own
    assert keys[0] == "deal" and keys[-1] == "score" and keys.index("trump1") < keys.index("t1c1")
    assert compass(["N", "E", "S", "W"]) == [("N", 0), ("E", 2), ("S", 4), ("W", 6)]


def test_a_malformed_or_illegal_record_is_refused():
    record = played("foster51", 4, 1)
    with pytest.raises(ReplayError) as refused:
        walk({**record, "actions": [{"type": "play", "card": "2C"}]})
    assert refused.value.index == 0
    with pytest.raises(ReplayError):
        walk({**record, "actions": "nope"})


def test_a_phase_only_one_room_has_falls_where_the_phases_order_puts_it():
    def fake(*keys):
        return {"steps": [{"key": k, "phase": "play" if k[0] == "t" else k.rstrip("0123456789")} for k in keys]}

    stood = fake("deal", "beg1", "t1c1", "t1c2", "score")
    ran = fake("deal", "beg1", "give1", "discard1", "discard2", "t1c1", "t1c2", "score")
    keys = [k["key"] for k in merged_keys([stood, ran])]
    assert keys == ["deal", "beg1", "give1", "discard1", "discard2", "t1c1", "t1c2", "score"]
    assert [k["trick"] for k in merged_keys([stood])] == [0, 0, 1, 1, 0]
