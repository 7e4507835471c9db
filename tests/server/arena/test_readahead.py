"""Reading many matches ahead (``server.arena.readahead``): every read it answers is the
store's, the gate works through it, and ``match_view`` over it serves what it serves over
the store, on a tournament part played."""

import pytest

from server.arena import dealsets
from server.arena.readahead import read_ahead
from server.arena.registry import builtin_roster
from server.arena.store import StoreError
from server.arena.tournaments import plan_matches, validate
from server.arena.visibility import gated
from server.web.readmodel import match_view
from workers.bots import BUILTIN
from workers.jobs import play_chunk_with

DEALS = dealsets.generate("readahead-test", 4)


def test_read_ahead_answers_as_the_store_does_through_the_gate(store):
    store.put_dealset(DEALS)
    spec = validate({"bots": ["random", "rule", "search"], "boards": 2, "deals": DEALS.name}, builtin_roster(BUILTIN))
    tid = store.create_tournament(spec, plan_matches(spec), "test", 60_000)
    first, second, third = store.match_ids(tid)
    play_chunk_with(store, first, 1, 2)
    play_chunk_with(store, second, 1, 2)
    play_chunk_with(store, third, 1, 1)  # board 2 is not finished everywhere yet
    store.mark_faulty(first, "random")
    store.add_timeout(second, "rule")
    ahead = read_ahead(store, [first, second, "t999.m1"])  # third is left to the store
    for mid in (first, second, third):
        for read in ("match", "scores", "entrant_scores", "lucks", "stored_boards", "timeouts"):
            assert getattr(ahead, read)(mid) == getattr(store, read)(mid), (mid, read)
        assert [ahead.is_faulty(mid, b) for b in BUILTIN] == [store.is_faulty(mid, b) for b in BUILTIN]
        assert match_view(ahead, mid) == match_view(store, mid)
    assert ahead.tournament(tid) == store.tournament(tid) and ahead.secret() == store.secret()
    assert gated(ahead, tid).scores(first) == {1: store.scores(first)[1]}
    with pytest.raises(StoreError):
        ahead.match("t999.m1")


def test_match_and_remote_reads_are_the_single_reads_of_each_match(store):
    store.put_dealset(DEALS)
    spec = validate({"bots": ["random", "rule"], "boards": 2, "deals": DEALS.name}, builtin_roster(BUILTIN))
    tid = store.create_tournament(spec, plan_matches(spec), "test", 60_000)
    [mid] = store.match_ids(tid)
    play_chunk_with(store, mid, 1, 2)
    store.add_timeout(mid, "rule")
    [read] = store.match_reads([mid, "t999.m1"]).values()
    assert (read.match, read.entrant_scores, read.lucks) == (
        store.match(mid),
        store.entrant_scores(mid),
        store.lucks(mid),
    )
    assert store.remote_reads([mid]) == {mid: ({"rule": 1}, set())}
