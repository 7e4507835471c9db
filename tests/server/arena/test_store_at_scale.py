"""The store at a league's size: board records and par rooms are stored compressed
(``server.arena.store.packing``) and records stored before, as plain JSON, still read;
the rated rulesets are found without a scan of the keyspace; what a page reads of many
bots or boards is read in one round trip."""

import json

from server.arena import dealsets, registry
from server.arena.ratings import record
from server.arena.store import Store
from server.arena.store.packing import pack, unpack
from server.arena.store.ratings import HISTORY_TAIL
from server.arena.tournaments import plan_matches, validate
from tests.support.benchmarks import load

DEALS = dealsets.generate("packing-test", 4)
ROOM = {"ruleset": "american62", "board": {"dealer": "N"}, "actions": [{"seat": "N", "type": "bid", "bid": 2}] * 40}


def _match(store):
    spec = validate(
        {"bots": ["random", "rule"], "boards": 2, "deals": DEALS.name}, registry.builtin_roster(["random", "rule"])
    )
    store.put_dealset(DEALS)
    tid = store.create_tournament(spec, plan_matches(spec), "test", 60_000)
    return tid, store.match(store.match_ids(tid)[0])


def test_the_seeding_benchmark_packs_its_made_up_records_as_the_store_packs_them():
    seed_store = load("seed_store")
    records = [{"board": b, "rooms": [ROOM, {**ROOM, "x": 0.1 * b}], "score": b, "luck": 0.5} for b in (1, 2, 3)]
    template = seed_store.Template(records)
    for n, changed in ((7, {"board": 7, "score": -12, "luck": -1.375}), (9, {"board": 9, "score": 3})):
        record, packed = template.made(n, changed)
        assert record == {**records[n % 3], **changed} and list(record) == ["board", "rooms", "score", "luck"]
        assert packed == pack(record), "the bytes real play stores"


def test_pack_round_trips_and_compresses_a_record():
    record = {"board": 3, "score": -7, "rooms": [ROOM, ROOM], "luck": 1.25}
    raw = pack(record)
    assert unpack(raw) == record
    assert len(raw) < len(json.dumps(record, separators=(",", ":"))) / 4
    assert unpack(b'{"board": 1, "rooms": []}') == {"board": 1, "rooms": []}  # plain JSON, as stored before


def test_a_record_is_stored_compressed_and_read_and_dumped_as_it_was(store):
    tid, match = _match(store)
    record = {"board": 1, "score": 4, "rooms": [ROOM, ROOM]}
    store.record_pairs(match, [record])
    raw = store.redis.hget(store.key("match", match["id"], "pairs"), "1")
    assert raw[:1] == b"x" and len(raw) < len(json.dumps(record)) / 4
    assert store.pair(match["id"], 1)["score"] == 4
    assert store.pair(match["id"], 1)["rooms"][0]["actions"] == ROOM["actions"]
    assert store.match_dump(match["id"])["pairs"][1] == record
    assert store.put_par_room(tid, 1, ROOM)["actions"] == ROOM["actions"]
    assert store.redis.hget(store.key("tournament", tid, "par"), "1")[:1] == b"x"
    assert store.tournament_dump(tid)["par"][1]["actions"] == ROOM["actions"]


def test_records_stored_uncompressed_before_still_read(store):
    tid, match = _match(store)
    old = {"board": 2, "score": -3, "rooms": [ROOM, ROOM]}
    store.redis.hset(store.key("match", match["id"], "pairs"), "2", json.dumps(old))
    store.redis.hset(store.key("tournament", tid, "par"), "2", json.dumps(ROOM))
    assert store.pair(match["id"], 2)["score"] == -3
    assert store.par_room(tid, 2)["actions"] == ROOM["actions"]
    assert store.match_dump(match["id"])["pairs"][2] == old


def test_several_pairs_read_at_once_as_each_reads(store):
    tid, match = _match(store)
    store.record_pairs(match, [{"board": 1, "score": 4, "rooms": [ROOM, ROOM]}])
    store.redis.hset(store.key("match", match["id"], "pairs"), "2", json.dumps({"board": 2, "score": 1, "rooms": []}))
    both = store.pairs(match["id"], [1, 2, 3])
    assert sorted(both) == [1, 2] and both[1] == store.pair(match["id"], 1) and both[2]["score"] == 1
    assert store.pairs(match["id"], []) == {}


def test_rated_rulesets_are_those_with_ratings_or_comparisons_stored(store):
    assert store.rating_rulesets() == []
    store.redis.hset(store.key("ratings", "seven_up"), "x", "{}")
    store.redis.hset(store.key("ratings", "pitch", "comparisons"), "c", "{}")
    store.redis.set(store.key("ratings", "american62", "applied"), "1")  # an earlier model's
    assert store.rating_rulesets() == ["american62", "pitch", "seven_up"]
    store.clear_ratings("pitch")
    assert store.rating_rulesets() == ["american62", "seven_up"]


def test_every_bot_and_when_each_was_last_seen_are_read_at_once(store):
    for name in ("zed", "amy"):
        registry.register(store, name)
    store.redis.set(store.key("bot", "amy", "seen"), "123.5")
    assert [b["name"] for b in store.bots()] == ["amy", "zed"]
    assert all("token_hash" not in b for b in store.bots())
    assert store.last_seen_of(["amy", "zed"]) == {"amy": 123.5, "zed": None}
    assert store.last_seen("amy") == 123.5 and store.last_seen_of([]) == {}


def _comparison(t, x, y, edge):
    return record(f"t{t}.m1", [t, 0, 1], x, y, f"pair|d{t}|{x}|{y}", {n: edge + n % 3 for n in range(1, 6)}, float(t))


def test_a_refresh_reads_the_histories_tail_and_rewrites_from_an_older_tournament_alike(store):
    """Twelve tournaments rated one by one, then one more comparison of tournament 2 (which
    recomputes every point from there): the histories equal those of one refresh of all."""
    bots = ["amy", "bob", "cat"]
    rated = [_comparison(t, bots[t % 3], bots[(t + 1) % 3], t % 5 - 2) for t in range(1, 13)]
    for r in rated:
        store.add_comparisons("american62", [r])
        store.refresh_ratings("american62")
    assert len(store.rating_history("american62", ["amy"])["amy"]) > HISTORY_TAIL
    late = {**_comparison(2, "amy", "cat", 4), "id": "t2.m2", "order": [2, 0, 2]}
    store.add_comparisons("american62", [late])
    store.refresh_ratings("american62")
    other = Store(store.redis, store.prefix + "-all")
    try:
        other.add_comparisons("american62", [*rated, late])
        other.refresh_ratings("american62")
        assert store.rating_history("american62", bots) == other.rating_history("american62", bots)
        assert store.ratings("american62") == other.ratings("american62")
    finally:
        for key in store.redis.scan_iter(match=other.prefix + ":*"):
            store.redis.delete(key)
