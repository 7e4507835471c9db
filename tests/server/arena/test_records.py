"""The one record of a played hand, and records stored by an older version read through
``server.arena.records``."""

from random import Random

from server.arena.records import current_pair, current_room, current_table_hand
from server.engine import DONE, Game, generate_board, make_ruleset, new_hand, observation, replay
from server.engine.playout import random_action
from server.engine.record import hand_record, scores_after

AM62, FOSTER = make_ruleset("american62"), make_ruleset("foster51")


def _play(hand, seed):
    rng = Random(seed)
    while hand.phase != DONE:
        hand.apply(random_action(hand.legal_actions(), rng))
    return hand


def _old_room(record, luck=None):
    """A room as ``server.arena.duplicate.play_room`` stored it before the one record shape."""
    old = {
        "replay": {k: record[k] for k in ("ruleset", "options", "board", "actions")},
        **record["result"],
        "faults": record["faults"],
    }
    return old if luck is None else {**old, "luck": luck}


def test_a_record_is_a_replay_input_with_the_scores_before_the_hand():
    for n, scores in enumerate([(0, 0), (55, 58), (61, 20), (-8, 14)], 1):
        hand = _play(new_hand(AM62, generate_board("rec", n), scores), n)
        record = hand_record(hand, [])
        assert record["scores"] == {"NS": scores[0], "EW": scores[1]}
        audit = replay(record)  # reads what it needs, ignores the rest
        result = record["result"]
        assert {k: audit[k] for k in ("contract", "trump", "points", "delta")} == {
            k: result[k] for k in ("contract", "trump", "points", "delta")
        }
        assert sum(result["tricks"].values()) == len(audit["tricks"])
        assert result["tricks"]["NS"] == sum(t["winner"] in "NS" for t in audit["tricks"])
        assert scores_after(record) == {s: record["scores"][s] + result["delta"][s] for s in ("NS", "EW")}
        assert set(record) == {"ruleset", "options", "board", "scores", "actions", "faults", "result"}


def test_an_old_room_reads_as_todays_record_with_its_luck():
    hand = _play(new_hand(FOSTER, generate_board("old", 3)), 3)
    faults = [{"seat": "E", "index": 4, "error": "late"}]
    record = hand_record(hand, faults)
    assert current_room(_old_room(record, 1.5)) == {**record, "luck": 1.5}
    assert current_room(_old_room(record)) == record
    assert current_room(record) is record  # today's shape passes as it is
    pair = {"board": 3, "score": 4, "luck": None, "rooms": [_old_room(record, 0.5), _old_room(record, -0.5)]}
    assert current_pair(pair) == {**pair, "rooms": [{**record, "luck": 0.5}, {**record, "luck": -0.5}]}


def test_the_store_reads_old_board_pairs_and_par_rooms(store):
    from test_store import _tournament

    _, match = _tournament(store)
    record = hand_record(_play(new_hand(AM62, generate_board("store-old", 1)), 1), [])
    store.record_pairs(match, [{"board": 1, "score": 0, "rooms": [_old_room(record, 0.25), _old_room(record)]}])
    assert store.pair(match["id"], 1)["rooms"] == [{**record, "luck": 0.25}, record]
    assert store.put_par_room(match["tournament"], 1, _old_room(record, 2.0)) == {**record, "luck": 2.0}
    assert store.par_room(match["tournament"], 1) == {**record, "luck": 2.0}


def _old_table_hands(rules, seed, count):
    """A table's first hands as ``workers.table`` stored them before (scores after the
    hand, no ruleset), and the records of today for the same hands."""
    game = Game(rules, lambda n: generate_board(seed, n))
    old, new = [], []
    for number in range(1, count + 1):
        hand = _play(game.new_hand(), number)
        record = hand_record(hand, [])
        game.finish_hand(hand)
        extra = {"number": number, "public": observation(hand, None), "luck": {"deal": 0.5, "draw": -1.0}}
        old.append(
            {
                "board": record["board"],
                "actions": record["actions"],
                "delta": record["result"]["delta"],
                "scores": scores_after(record),
                "faults": [],
                **extra,
            }
        )
        new.append({**record, **extra})
    return old, new


def test_an_old_table_hand_reads_as_todays_record():
    old, new = _old_table_hands(AM62, "old-table", 6)
    assert [current_table_hand(h, "american62", {}) for h in old] == new
    assert [current_table_hand(h, "american62", {}) for h in new] == new


def test_the_store_reads_an_old_tables_hands(store):
    spec = {"ruleset": "foster51", "options": {}, "limits": {}, "seed": 1, "deal_seed": "ab"}
    tid = store.create_table(spec, {s: "random" for s in "NESW"}, "", [], 10, 10)
    old, new = _old_table_hands(FOSTER, "ab", 4)
    for number, hand in enumerate(old, 1):
        store.append_table_hand(tid, number, hand)
    assert store.table_hands(tid) == new
