"""``cinch deals verify --server --tournament`` checks the play as well as the deals:
tournaments really served (gunicorn, Redis, the supervisor and RQ worker processes, built-in
bots on a fresh secret set), then a played card or a stored result changed in the
server's own Redis, which the verify must name by match, board, room and action."""

import json

import pytest
from support.apiclient import ADMIN, wait_finished
from support.apiserver import start_api, stop_api
from support.cliharness import cinch

from server.arena.store.packing import unpack

pytestmark = pytest.mark.e2e


@pytest.fixture
def api(redis_url, store, rq_workers):
    client = start_api(redis_url, store)
    yield client
    stop_api(client)


def serve(api, request):
    """A finished tournament of ``request`` on a secret set: (its id, the verify's flags)."""
    created = api.call("POST", "/api/v1/tournaments", ADMIN, json={"deals": "secret", "chunk": 2, **request})
    assert created.status_code == 201, created.text
    tid, committed = created.json()["id"], created.json()["commitment"]
    seed = wait_finished(api, tid)["deals_seed"]
    flags = ["--seed", seed, "--commitment", committed["seed_sha256"], "--boards", str(committed["boards"])]
    return tid, [*flags, "--deals-sha256", committed["deals_sha256"], "--server", api.base, "--tournament", tid]


def verify(flags, tmp_path):
    return cinch("deals", "verify", *flags, home=tmp_path)


@pytest.mark.parametrize(
    "request_, boards",
    [
        ({"format": "blind", "bots": ["random"], "references": ["rule"], "boards": 2}, 2),
        ({"format": "progressive", "bots": ["random", "rule", "random#2", "rule#2"], "rounds": 1}, 4),
        (  # five single seats, a 53-card pack: no --players 5 --deck 53 needed
            {"format": "blind", "bots": ["random"], "references": ["rule"], "ruleset": "snoozer"}
            | {"options": {"players": 5}, "boards": 2},
            2,
        ),
    ],
    ids=["blind", "progressive", "snoozer-5p"],
)
def test_an_honest_tournament_verifies_deals_and_play(api, tmp_path, request_, boards):
    tid, flags = serve(api, request_)
    run = verify(flags, tmp_path)
    assert run.returncode == 0, run.stderr
    assert f"tournament {tid}: {boards} finished boards checked" in run.stdout
    assert "every room's play legal and scored as stored" in run.stdout
    if request_.get("ruleset") == "snoozer":
        wrong = verify([*flags, "--players", "4"], tmp_path)
        assert wrong.returncode == 2 and "Traceback" not in wrong.stderr
        assert f"--players 4, but tournament {tid} is snoozer at 5 players with a 53-card deck" in wrong.stderr


def _tamper(store, mid, board, change):
    """Rewrite board ``board`` of match ``mid`` as stored, by ``change(record)``; returns
    the record as it was."""
    key = store.key("match", mid, "pairs")
    raw = store.redis.hget(key, str(board))
    record = unpack(raw)
    change(record)
    store.redis.hset(key, str(board), json.dumps(record))
    return raw


def test_a_changed_card_or_result_is_named_by_match_board_room_and_action(api, store, tmp_path):
    tid, flags = serve(api, {"format": "round_robin", "bots": ["random", "rule"], "boards": 2})
    [mid] = store.match_ids(tid)
    assert verify(flags, tmp_path).returncode == 0
    key = store.key("match", mid, "pairs")

    actions = unpack(store.redis.hget(key, "2"))["rooms"][1]["actions"]
    i = next(i for i, a in enumerate(actions) if a["type"] == "play")
    other = next(a for a in actions[i:] if a["type"] == "play" and a["seat"] != actions[i]["seat"])
    honest = _tamper(store, mid, 2, lambda r: r["rooms"][1]["actions"][i].update(card=other["card"]))  # never held
    run = verify(flags, tmp_path)
    assert run.returncode == 2 and "Traceback" not in run.stderr, run.stderr
    [line] = run.stderr.strip().splitlines()
    assert f"match {mid} board 2 room 2: illegal action" in line
    assert f"at index {i}:" in line

    store.redis.hset(key, "2", honest)
    assert verify(flags, tmp_path).returncode == 0

    def score_one_more(record):
        delta = record["rooms"][0]["result"]["delta"]
        side = next(iter(delta))
        delta[side] += 1

    honest_1 = _tamper(store, mid, 1, score_one_more)
    run = verify(flags, tmp_path)
    assert run.returncode == 2 and "Traceback" not in run.stderr, run.stderr
    [line] = run.stderr.strip().splitlines()
    assert f"match {mid} board 1 room 1: the stored result differs from the replay of its" in line
    assert "delta" in line

    _tamper(store, mid, 1, lambda r: r.update(score=r["score"] + 3))  # the board's score, rooms intact
    store.redis.hset(key, "1", json.dumps({**unpack(store.redis.hget(key, "1")), "rooms": unpack(honest_1)["rooms"]}))
    run = verify(flags, tmp_path)
    assert run.returncode == 2 and f"match {mid} board 1: the stored score" in run.stderr, run.stderr
