"""Ratings replayed in canonical order: the same stored comparisons give the same ratings
and histories whatever order they completed in, sequentially, from threads or from
processes, with each piece of evidence owned by the first comparison in canonical order."""

import multiprocessing
import random
import threading

from redis import Redis

from server.arena import dealsets, registry
from server.arena.ratings import record, replay
from server.arena.store import Store
from server.arena.tournaments import (
    after_match_progress,
    canonical_order,
    plan_matches,
    rate_match,
    rebuild_ratings,
    validate,
)

BOTS = ("ann", "ben", "cat", "dan", "eve")


def _records(count=40, seed=3):
    """Comparisons among five bots, in canonical order; about a third repeat an earlier
    comparison's evidence on some of their boards (the same deals and bots), so ownership
    matters. Fixed times, so two stores of them are comparable point for point."""
    rng = random.Random(seed)
    out = []
    for n in range(count):
        x, y = rng.sample(BOTS, 2)
        low, high = sorted((x, y))
        deals = f"d{rng.randrange(3)}" if n % 3 == 0 else f"fresh{n}"
        first = rng.randrange(1, 6)
        scores = {b: rng.randint(-6, 10) for b in range(first, first + rng.randrange(2, 9))}
        out.append(
            record(
                f"t{n // 4 + 1}.m{n % 4 + 1}",
                [n // 4 + 1, 0, n % 4 + 1],
                x,
                y,
                f"{deals}|{{}}|{low}|{high}",
                scores,
                1000.0 + n,
            )
        )
    return out


def _state(store, ruleset="american62"):
    """Everything the ratings show: the ratings and every bot's full history."""
    return store.ratings(ruleset), store.rating_history(ruleset, BOTS)


def _other(store, name):
    """A second store on the same Redis, under the test's prefix (so it is cleaned up)."""
    return Store(store.redis, prefix=f"{store.prefix}:{name}")


def test_a_replay_does_not_depend_on_the_order_records_come_in_or_on_where_it_resumes():
    records = _records()
    whole = replay(records, {})
    for seed in range(5):
        shuffled = random.Random(seed).sample(records, len(records))
        assert replay(shuffled, {}).ratings == whole.ratings
        known: dict = {}
        for r in shuffled:  # one at a time, as workers finish
            step = replay(shuffled[: shuffled.index(r) + 1], known)
            known.update(step.after)
        assert step.ratings == whole.ratings and known == whole.after


def test_evidence_belongs_to_the_first_comparison_in_canonical_order_not_the_first_to_finish():
    early = record("t1.m1", [1, 0, 1], "ann", "ben", "d|{}|ann|ben", {1: 8, 2: 9, 3: 7}, 5.0)
    late = record("t2.m1", [2, 0, 1], "ben", "ann", "d|{}|ann|ben", {2: -9, 3: -7, 4: -6, 5: -8}, 1.0)
    for arrival in ([early, late], [late, early]):
        done = replay(arrival, {})
        assert done.after["t1.m1"][0]["boards"] == 3, "the earlier tournament owns boards 1 to 3"
        assert done.ratings["ann"]["boards"] == 5 and done.ratings["ann"]["matches"] == 2, (
            "the later one counts only boards 4 and 5"
        )
    repeat = record("t3.m1", [3, 0, 1], "ann", "ben", "d|{}|ann|ben", {4: 1, 5: 1}, 0.5)
    assert replay([repeat, late, early], {}).after["t3.m1"] is None, "nothing new: it moves nothing"


def test_the_store_gives_the_same_ratings_and_histories_in_any_completion_order(store):
    records = _records()
    expected = _other(store, "canonical")
    expected.add_comparisons("american62", records)
    expected.refresh_ratings("american62")
    ratings, history = _state(expected)
    assert sum(len(points) for points in history.values()) == 2 * len(
        expected.counted("american62", [r["id"] for r in records])
    ), "one point per bot per comparison that moved it"
    assert all([p["t"] for p in points] == sorted(p["t"] for p in points) for points in history.values()), (
        "points in canonical order (the records' times rise with it here)"
    )
    for seed in range(3):
        other = _other(store, f"order{seed}")
        for r in random.Random(seed).sample(records, len(records)):
            other.add_comparisons("american62", [r])
            other.refresh_ratings("american62")
        assert _state(other) == (ratings, history)


def test_a_kept_history_resumes_correctly_when_comparisons_arrive_out_of_order(store):
    store.history_length = 4
    records = [
        record(f"t1.m{n}", [1, 0, n], "ann", "ben", f"d{n}|{{}}|ann|ben", {1: n - 3, 2: 2 * n}, float(n))
        for n in range(1, 9)
    ]
    for r in records[::-1]:  # every arrival redoes the ones after it
        store.add_comparisons("american62", [r])
        store.refresh_ratings("american62")
    history = store.rating_history("american62", ["ann", "ben"])
    assert (
        [p["match"] for p in history["ann"]]
        == ["t1.m5", "t1.m6", "t1.m7", "t1.m8"]
        == [p["match"] for p in history["ben"]]
    )
    assert history["ann"][-1]["mu"] == round(store.ratings("american62")["ann"]["mu"], 3)


def _rate_concurrently(url, prefix, records, barrier):
    """One worker: store each comparison and bring the ratings up to date, as ``rate`` does."""
    store = Store(Redis.from_url(url), prefix=prefix)
    barrier.wait()
    for r in records:
        store.add_comparisons("american62", [r])
        store.refresh_ratings("american62")


def test_two_threads_or_two_processes_finishing_at_once_both_count_once(store, redis_url):
    records = _records(60, seed=9)
    expected = _other(store, "canonical")
    expected.add_comparisons("american62", records)
    expected.refresh_ratings("american62")
    halves = [records[1::2], records[::2][::-1]]  # one from each end: late ones first
    spawn = multiprocessing.get_context("spawn")
    for name, runner, barrier in (
        ("threads", threading.Thread, threading.Barrier(2)),
        ("processes", spawn.Process, spawn.Barrier(2)),
    ):
        concurrent = _other(store, name)
        runs = [runner(target=_rate_concurrently, args=(redis_url, concurrent.prefix, h, barrier)) for h in halves]
        for run in runs:
            run.start()
        for run in runs:
            run.join(60)
            assert getattr(run, "exitcode", 0) == 0
        assert _state(concurrent) == _state(expected), name
        assert len(concurrent.comparisons("american62")) == 60


DEALS = dealsets.generate("ratings-order", 6)


def _two_tournaments(store):
    """Two stored round robins of three built-in bots on overlapping boards of one deal
    set (1-4 and 3-6), every board pair stored; nothing rated yet."""
    store.put_dealset(DEALS)
    roster = registry.builtin_roster(["random", "rule", "search"])
    matches = []
    for first in (1, 3):
        spec = validate(
            {"bots": ["random", "rule", "search"], "first": first, "boards": 4, "deals": DEALS.name}, roster
        )
        tid = store.create_tournament(spec, plan_matches(spec), "test", 60_000)
        for mid in store.match_ids(tid):
            match = store.match(mid)
            store.record_pairs(
                match,
                [{"board": n, "score": (n * 7 + len(mid)) % 11 - 4, "rooms": []} for n in range(first, first + 4)],
            )
            matches.append(store.match(mid))
    return matches


def _without_times(history):
    return {bot: [{k: v for k, v in p.items() if k != "t"} for p in points] for bot, points in history.items()}


def test_tournaments_completing_in_any_order_rate_the_same_and_a_rebuild_agrees(store):
    bots = ["random", "rule", "search"]
    results = []
    for name, order in (
        ("forward", lambda ms: ms),
        ("backward", lambda ms: ms[::-1]),
        ("shuffled", lambda ms: random.Random(1).sample(ms, len(ms))),
    ):
        arena = _other(store, name)
        for match in order(_two_tournaments(arena)):
            after_match_progress(arena, match)
        results.append((arena.ratings("american62"), _without_times(arena.rating_history("american62", bots))))
    assert results[0] == results[1] == results[2]
    ratings, history = results[0]
    assert all(r["boards"] == 12 and r["matches"] == 4 for r in ratings.values()), (
        "boards 3 and 4 count once per pair of bots: 6 boards against each of two others"
    )
    assert [p["match"] for p in history["rule"]] == ["t1.m1", "t1.m3", "t2.m1", "t2.m3"]
    before = arena.rating_history("american62", bots)
    assert rebuild_ratings(arena) == {"american62": 6}
    assert (arena.ratings("american62"), arena.rating_history("american62", bots)) == (ratings, before), (
        "a rebuild gives the same ratings, and keeps each point's time"
    )


def test_ratings_written_by_the_incremental_updates_are_rebuilt_on_the_next_rating(store):
    matches = _two_tournaments(store)
    store.redis.hset(store.key("ratings", "american62"), "random", '{"mu": 1, "sigma": 1, "matches": 9}')
    store.redis.sadd(store.key("ratings", "american62", "applied"), matches[0]["id"])
    for match in matches:
        rate_match(store, match)
    assert not store.legacy_ratings("american62")
    assert store.ratings("american62")["random"]["matches"] == 4
    assert canonical_order(matches[-1]) == [2, 0, 3]
