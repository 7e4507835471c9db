"""The order a match plays its boards in: secret with a remote entrant, board order else."""

from server.arena import dealsets, registry
from server.arena.match_sprt import sprt_scores
from server.arena.order import play_order
from server.arena.tournaments import plan_matches, validate

DEALS = dealsets.generate("order-test", 40)
REMOTE = {**registry.builtin_roster(["random", "rule"]), "remote": {"kind": "remote", "trusted": True}}


def _match(mid="t1.m1", first=1, last=40, secret=True):
    return {"id": mid, "first": first, "last": last, "secret_order": secret}


def test_a_remote_entrants_match_plays_a_secret_permutation_the_same_in_every_process():
    order = play_order(b"s" * 32, _match())
    assert sorted(order) == list(range(1, 41)) and order != list(range(1, 41))
    assert play_order(b"s" * 32, _match()) == order, "every process finds the same order"
    assert play_order(b"t" * 32, _match()) != order, "another arena's secret, another order"
    assert play_order(b"s" * 32, _match("t1.m2")) != order, "each match (entrant, table) its own"


def test_built_in_matches_keep_board_order():
    assert play_order(b"s" * 32, _match(first=5, last=9, secret=False)) == [5, 6, 7, 8, 9]
    assert play_order(b"s" * 32, {"id": "t1.m1", "first": 1, "last": 3}) == [1, 2, 3], "matches stored before"


def test_a_remote_entrant_makes_the_order_secret_and_one_job_play_the_match():
    remote = validate({"bots": ["remote", "rule"], "boards": 40, "deals": "secret"}, REMOTE)
    assert remote["secret_order"] and remote["chunk"] == 40
    assert all(m["secret_order"] for m in plan_matches(remote))
    asked = validate({"bots": ["remote", "rule"], "boards": 40, "chunk": 10}, REMOTE)
    assert asked["chunk"] == 10, "a chunk the request sets is kept"
    builtin = validate({"bots": ["random", "rule"], "boards": 40}, REMOTE)
    assert not builtin["secret_order"] and builtin["chunk"] == 20
    assert not any(m["secret_order"] for m in plan_matches(builtin))


def test_the_sequential_test_reads_the_scores_in_play_order(store):
    spec = validate(
        {"bots": ["remote", "rule"], "format": "round_robin", "boards": 40, "sprt": {}, "deals": "secret"}, REMOTE
    )
    store.put_dealset(DEALS)
    spec["deals"] = DEALS.name
    tid = store.create_tournament(spec, plan_matches(spec), "test", 60_000)
    match = store.match(store.match_ids(tid)[0])
    order = play_order(store.secret(), match)
    store.record_pairs(match, [{"board": n, "score": n, "rooms": []} for n in order[:5] + order[6:9]])
    assert sprt_scores(store, match["id"]) == [float(n) for n in order[:5]], "up to the first board not played"
