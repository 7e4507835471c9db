"""Shared helpers for the in-process tournament tests: the API test client on the test
store, and a tournament created and played to the end without a queue."""

import pytest

from server.arena.tournaments import plan_matches
from server.web.app import create_app
from workers.jobs import play_chunk_with


@pytest.fixture
def client(redis_url, store):
    app = create_app({"REDIS_URL": redis_url, "CINCH_PREFIX": store.prefix, "CINCH_QUEUE": store.queue_name})
    return app.test_client()


def play_tournament(store, spec: dict, deals, boards: int) -> str:
    """Store the deal set ``deals``, create the tournament of ``spec`` and play boards
    1 ... ``boards`` of each of its matches in process; returns the tournament id."""
    store.put_dealset(deals)
    tid = store.create_tournament(spec, plan_matches(spec), "test", 60_000)
    for mid in store.match_ids(tid):
        play_chunk_with(store, mid, 1, boards)
    return tid
