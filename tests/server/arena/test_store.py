"""The Redis store over a real connection: idempotent pairs, exactly-once completion."""

import json
import threading

import pytest

from server.arena import dealsets, registry
from server.arena.ratings import leaderboard, record
from server.arena.tournaments import after_match_progress, plan_matches, rate_match, rebuild_ratings, results, validate
from server.engine import HandState, generate_board, make_ruleset, observation

DEALS = dealsets.generate("store-test", 6)


def _tournament(store, boards=3, bots=("random", "rule")):
    spec = validate(
        {"bots": list(bots), "boards": boards, "deals": DEALS.name}, registry.builtin_roster(["random", "rule", "x"])
    )
    store.put_dealset(DEALS)
    tid = store.create_tournament(spec, plan_matches(spec), "test", 60_000)
    return tid, store.match(store.match_ids(tid)[0])


def _record(n, score):
    return {"board": n, "score": score, "rooms": []}


def test_a_pair_is_counted_once_however_often_it_is_written(store):
    tid, match = _tournament(store)
    assert store.record_pairs(match, [_record(1, 5)]) == (1, 0)
    assert store.record_pairs(match, [_record(1, 99)]) == (0, 0)  # a retried job
    assert store.scores(match["id"]) == {1: 5}
    assert store.tournament(tid)["pairs_done"] == 1


def test_match_completes_exactly_once_under_concurrent_writers(store):
    tid, match = _tournament(store, boards=3)
    outcomes = []

    def writer():
        outcomes.append(store.record_pairs(match, [_record(n, n) for n in (1, 2, 3)]))

    threads = [threading.Thread(target=writer) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sum(added for added, _ in outcomes) == 3
    assert store.complete_matches(tid) == {match["id"]}
    assert store.match(match["id"])["status"] == "complete"
    assert store.tournament(tid)["pairs_done"] == 3


def test_followups_rate_once_and_finish_once(store):
    tid, match = _tournament(store, boards=2)
    store.record_pairs(match, [_record(1, 4), _record(2, 6)])
    for _ in range(3):  # every chunk job calls it
        assert after_match_progress(store, match)
    ratings = store.ratings("american62")
    assert ratings["random"]["matches"] == 1 and ratings["rule"]["matches"] == 1
    assert store.tournament(tid)["status"] == "finished"
    assert not store.finish_tournament(tid, {"other": 1})  # results are written once
    assert store.results(tid) == results(store, tid)


def test_no_rating_moves_before_the_tournament_finishes(store):
    """The matches of a round robin play the same boards: a rating moved by the first match
    to complete would tell the others how it went on boards they still play."""
    tid, _ = _tournament(store, boards=2, bots=("random", "rule", "x"))
    first, *rest = [store.match(mid) for mid in store.match_ids(tid)]
    store.record_pairs(first, [_record(1, 4), _record(2, 6)])
    assert not after_match_progress(store, first)
    assert store.ratings("american62") == {} and rebuild_ratings(store) == {}
    for match in rest:
        store.record_pairs(match, [_record(1, 1), _record(2, -3)])
        after_match_progress(store, match)
    assert store.tournament(tid)["status"] == "finished"
    assert {b: r["matches"] for b, r in store.ratings("american62").items()} == {"random": 2, "rule": 2, "x": 2}


def test_ratings_count_each_board_pair_once_however_many_tournaments_replay_it(store):
    _, first = _tournament(store, boards=4)
    store.record_pairs(first, [_record(n, 10) for n in (1, 2, 3, 4)])
    after_match_progress(store, first)
    once = store.ratings("american62")
    assert once["rule"]["boards"] == 4 and once["rule"]["matches"] == 1
    _, again = _tournament(store, boards=4, bots=("rule", "random"))  # same evidence, seats swapped
    store.record_pairs(again, [_record(n, -10) for n in (1, 2, 3, 4)])
    after_match_progress(store, again)
    assert store.ratings("american62") == once, "a replayed tournament moves nothing"
    spec = validate(
        {"bots": ["random", "rule"], "first": 3, "boards": 4, "deals": DEALS.name},
        registry.builtin_roster(["random", "rule"]),
    )
    tid = store.create_tournament(spec, plan_matches(spec), "test", 60_000)
    overlap = store.match(store.match_ids(tid)[0])
    store.record_pairs(overlap, [_record(n, 10) for n in (3, 4, 5, 6)])
    after_match_progress(store, overlap)
    assert store.ratings("american62")["rule"]["boards"] == 6, "only boards 5 and 6 are new"
    incremental = store.ratings("american62")
    assert rebuild_ratings(store) == {"american62": 2}
    assert store.ratings("american62") == incremental, "a rebuild from stored pairs gives the same ratings"


def test_a_finished_tournament_adds_one_history_point_per_bot_with_the_leaderboards_numbers(store):
    _, match = _tournament(store, boards=2)
    store.record_pairs(match, [_record(1, 4), _record(2, 6)])
    for _ in range(3):  # every chunk job calls it
        after_match_progress(store, match)
    history = store.rating_history("american62", ["random", "rule", "x"])
    assert [len(history[b]) for b in ("random", "rule", "x")] == [1, 1, 0]
    rows = {r["bot"]: r for r in leaderboard(store.ratings("american62"))}
    for bot in ("random", "rule"):
        [point] = history[bot]
        assert point["tournament"] == 1 and point["t"] > 0
        fields = ("rating", "se", "low", "high", "provisional")
        assert {k: point[k] for k in fields} == {k: rows[bot][k] for k in fields}
    assert rows["random"]["rating"] == -rows["rule"]["rating"] == 2.5, "half of random's margin of 5 each"


def test_a_match_applied_twice_or_with_only_counted_boards_adds_no_point(store):
    _, first = _tournament(store, boards=2)
    store.record_pairs(first, [_record(1, 4), _record(2, 6)])
    rate_match(store, first)
    assert not rate_match(store, first)
    _, again = _tournament(store, boards=2, bots=("rule", "random"))  # the same evidence again
    store.record_pairs(again, [_record(1, -4), _record(2, -6)])
    assert not rate_match(store, again)
    history = store.rating_history("american62", ["random", "rule"])
    assert [p["tournament"] for p in history["random"]] == [1] == [p["tournament"] for p in history["rule"]]


def test_history_keeps_the_last_points_and_clears_with_the_ratings(store):
    store.history_length = 3
    for n in range(1, 6):  # the same margin again each time: the interval narrows
        store.add_comparisons("american62", [record(f"t{n}.m1", [n, 0, 1], "a", "b", f"e{n}", {1: 4, 2: 5}, n)])
        store.refresh_ratings("american62")
    history = store.rating_history("american62", ["a", "b"])
    assert [p["tournament"] for p in history["a"]] == [3, 4, 5] == [p["tournament"] for p in history["b"]]
    assert [p["tournament"] for p in store.rating_history("american62", ["a"], last=2)["a"]] == [4, 5]
    assert [p["rating"] for p in history["a"]] == [2.25] * 3
    assert history["a"][0]["high"] - history["a"][0]["low"] > history["a"][-1]["high"] - history["a"][-1]["low"]
    assert history["a"][-1]["rating"] == leaderboard(store.ratings("american62"))[0]["rating"]
    store.clear_ratings("american62")
    assert store.rating_history("american62", ["a", "b"]) == {"a": [], "b": []}
    assert not list(store.redis.scan_iter(match=store.key("ratings", "*")))


def test_tournament_status_reads_interrupted_when_its_driver_lease_lapses(store):
    tid, _ = _tournament(store)
    assert store.tournament(tid)["status"] == "queued"
    store.redis.delete(store.key("tournament", tid, "lease"))
    assert store.tournament(tid)["status"] == "interrupted"
    assert store.take_over(tid, "cli:here:1", 60_000) is None
    assert store.take_over(tid, "cli:there:2", 60_000) == "cli:here:1", "a live driver keeps it"
    assert store.tournament(tid)["driver"] == "cli:here:1"
    assert store.stop_tournament(tid, "cancelled")
    assert tid not in store.active_tournaments()


def test_deal_set_is_published_once_and_a_different_one_refused(store):
    store.put_dealset(DEALS)
    store.put_dealset(DEALS)
    assert store.board(DEALS.name, 2) == DEALS.boards[1]
    other = dealsets.DealSet(DEALS.name, "another-seed", dealsets.generate("another-seed", 6).boards)
    with pytest.raises(ValueError, match="different deal set"):
        store.put_dealset(other)


def test_prefixes_isolate_arenas(store):
    _tournament(store)
    keys = [k.decode() for k in store.redis.scan_iter(match=f"{store.prefix}:*")]
    assert keys and all(k.startswith(store.prefix + ":") for k in keys)
    assert json.loads(store.redis.hget(store.key("deals", DEALS.name), "meta"))["boards"] == 6


def test_unknown_ids_raise_a_clear_error(store):
    with pytest.raises(KeyError, match="no tournament 't999'"):
        store.tournament("t999")
    with pytest.raises(KeyError, match="no match"):
        store.match("t999.m1")


def test_a_wait_in_the_last_instant_before_a_deadline_ends(store):
    """Redis truncates a block timeout to whole milliseconds and 0 means forever."""
    for timeout in (0.0004, 0.001, 1e-06):
        waiter = threading.Thread(target=store._blpop, args=(store.key("nothing"), timeout), daemon=True)
        waiter.start()
        waiter.join(timeout=2.0)
        assert not waiter.is_alive(), f"a wait of {timeout} s blocked"


def test_last_seen_and_open_count_show_whether_a_remote_bot_is_there(store):
    state = HandState(make_ruleset("american62"), generate_board("seen", 1))
    view = observation(state, state.seat_to_act())
    token = registry.register(store, "away")
    assert store.last_seen("away") is None and store.open_count("away") == 0
    first, _, _ = store.ask("away", "m1", view, 20000, 0)
    store.ask("away", "m1", view, 20000, 0)
    assert store.open_count("away") == 2 and store.last_seen("away") is None  # asked, not seen
    before = store.now()
    store.open_requests("away")
    seen = store.last_seen("away")
    assert before <= seen <= store.now()
    assert store.answer_decision(registry.token_hash(token), first, "away", view["legal"][0])[0] == "ok"
    assert store.open_count("away") == 1 and store.last_seen("away") >= seen
    store.ask("away", "m2", view, 0, 0)  # a deadline already past is not open
    assert store.open_count("away") == 1


def test_a_closed_decision_keeps_only_what_refusing_a_late_answer_needs(store):
    state = HandState(make_ruleset("american62"), generate_board("closed", 1))
    view = observation(state, state.seat_to_act())
    token = registry.register(store, "brief")
    answered, _, _ = store.ask("brief", "m1", view, 20000, 0)
    lapsed, now, deadline = store.ask("brief", "m1", view, 1, 0)
    assert store.answer_decision(registry.token_hash(token), answered, "brief", view["legal"][0])[0] == "ok"
    assert store.await_answer(lapsed, "brief", deadline, now) is None
    for did in (answered, lapsed):
        assert not store.redis.exists(store.key("decision", did))  # only its status is kept (close.lua)
    (bucket,) = store.redis.keys(store.key("bot", "brief", "closed", "*"))
    assert sorted(store.redis.hvals(bucket)) == [b"a", b"e"] and 600 <= store.redis.ttl(bucket) <= 660
    again = store.answer_decision(registry.token_hash(token), answered, "brief", view["legal"][0])
    assert again[0] == "answered"
    assert store.answer_context(registry.token_hash(token), lapsed)[1]["status"] == "expired"


def test_the_ratings_version_moves_with_every_refresh_and_clear_only(store):
    [v0] = store.ratings_versions(["american62"]).values()  # made on the first read
    assert store.ratings_versions(["american62"]) == {"american62": v0}
    store.add_comparisons("american62", [record("t1.m1", [1, 0, 1], "a", "b", "e1", {1: 4, 2: 5}, 1)])
    assert store.ratings_versions(["american62"]) == {"american62": v0}, "stored, not fitted: nothing shown moved"
    store.refresh_ratings("american62")
    v1, ratings = store.versioned_ratings("american62")
    assert v1 != v0 and ratings == store.ratings("american62") and set(ratings) == {"a", "b"}
    store.refresh_ratings("american62")  # nothing new: the ratings stay as they are
    assert store.versioned_ratings("american62")[0] == v1
    store.clear_ratings("american62")
    assert store.ratings_versions(["american62"])["american62"] not in (v0, v1)


def test_bot_kinds_of_stored_bots_only(store):
    registry.ensure_builtins(store, ["random"])
    registry.register(store, "remote-one")
    assert store.bot_kinds(["random", "remote-one", "nobody"]) == {"random": "builtin", "remote-one": "remote"}


def test_fault_records_parse_only_the_records_with_a_fault(store):
    tid, match = _tournament(store, boards=3)
    fault = {"seat": "N", "index": 3, "error": 'said "faults": [{"seat"'}
    faulty = {"board": 2, "score": 1, "rooms": [{"faults": []}, {"faults": [fault]}]}
    quiet = {"board": 3, "score": 0, "rooms": [{"faults": [], "note": 'a bot named "faults": [{x'}]}
    store.record_pairs(match, [_record(1, 4), faulty, quiet])
    found = store.fault_records(match["id"], [1, 2, 3, 4])
    assert found == {1: None, 2: store.pair(match["id"], 2), 3: None}, "board 4 is not stored: left out"
    assert found[2]["rooms"][1]["faults"] == [fault]
    plain = {"board": 1, "score": 4, "rooms": [{"faults": [fault]}]}  # stored before records were packed
    store.redis.hset(store.key("match", match["id"], "pairs"), "1", json.dumps(plain))
    assert store.fault_records(match["id"], [1])[1]["rooms"][0]["faults"] == [fault]
