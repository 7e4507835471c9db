"""A table's game played by its job: an error the game cannot play through fails the table
(its seats freed, its finished hands served, the kind of error shown, never its message),
instead of leaving it "running" forever."""

import pytest
from redis.exceptions import ConnectionError as RedisConnectionError

from server.web.app import create_app
from workers import table as table_job


def _running_table(store):
    spec = {"ruleset": "american62", "options": {}, "limits": {}, "seed": 1, "deal_seed": "cd" * 16}
    tid = store.create_table(spec, {"N": "rule", "E": "random", "S": "rule", "W": "random"}, "", [], 50, 3)
    assert store.start_table(tid)
    return tid


def test_an_error_in_the_game_fails_the_table_and_frees_it(store, redis_url, monkeypatch):
    tid = _running_table(store)
    real, calls = table_job.hand_luck, []

    def breaks_on_the_third_hand(*args):
        calls.append(1)
        if len(calls) == 3:
            raise ZeroDivisionError("a secret detail: 7H")
        return real(*args)

    monkeypatch.setattr(table_job, "hand_luck", breaks_on_the_third_hand)
    with pytest.raises(ZeroDivisionError):
        table_job.play_table_with(store, tid)
    table = store.table(tid)
    assert table["status"] == "failed" and table["error"] == "ZeroDivisionError"
    assert not store.redis.sismember(store.key("tables", "live"), tid), "no longer counted among live tables"
    app = create_app({"REDIS_URL": redis_url, "CINCH_PREFIX": store.prefix, "CINCH_QUEUE": store.queue_name})
    client = app.test_client()
    served = client.get(f"/api/v1/tables/{tid}").get_json()
    assert served["status"] == "failed" and served["error"] == "ZeroDivisionError" and served["live"] is None
    assert served["hands_played"] == 2 and served["deal_seed"] == "cd" * 16
    assert len(client.get(f"/api/v1/tables/{tid}/record").get_json()["hands"]) == 2
    page = client.get(f"/tables/{tid}").get_data(as_text=True)
    assert "stopped on an error (ZeroDivisionError) after 2 hands" in page and "7H" not in page
    table_job.play_table_with(store, tid)  # a retried job: nothing more to do
    assert store.table(tid)["status"] == "failed" and len(store.table_hands(tid)) == 2


def test_losing_redis_mid_game_leaves_the_table_running_for_its_next_job(store, monkeypatch):
    """A Redis restart is not an error of the game: the table is not failed, and the next
    job resumes it from its checkpoints to the end."""
    tid = _running_table(store)
    real, calls = table_job.hand_luck, []

    def redis_goes_away(*args):
        calls.append(1)
        if len(calls) == 2:
            raise RedisConnectionError("Connection refused")
        return real(*args)

    monkeypatch.setattr(table_job, "hand_luck", redis_goes_away)
    with pytest.raises(RedisConnectionError):
        table_job.play_table_with(store, tid)
    assert store.table(tid)["status"] == "running" and len(store.table_hands(tid)) == 1
    table_job.play_table_with(store, tid)
    assert store.table(tid)["status"] == "finished"
