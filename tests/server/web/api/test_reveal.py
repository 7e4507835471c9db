"""Secret deals: commitments before play, seeds after, and board views gated until a board
is finished in every match of its tournament (set up through the store; the API serves)."""

import hashlib
import subprocess
import sys

import pytest

from server.arena import dealsets, registry
from server.arena.duplicate import play_sides
from server.arena.tournaments import plan_matches, validate
from server.engine import Board, make_ruleset
from workers.bots import RandomBot

pytestmark = pytest.mark.e2e

BOTS = ["random", "rule", "search"]
AMERICAN62 = make_ruleset("american62")


def _secret_tournament(store, boards=4, first=1):
    deals, committed = dealsets.secret(6)
    registry.ensure_builtins(store, BOTS)
    spec = validate(
        {
            "format": "gauntlet",
            "candidates": ["random"],
            "references": ["rule", "search"],
            "deals": deals.name,
            "first": first,
            "boards": boards,
        },
        registry.builtin_roster(BOTS),
    )
    spec["commitment"] = committed
    store.put_dealset(deals)
    tid = store.create_tournament(spec, plan_matches(spec), "test", 60_000)
    return tid, deals, committed


def _pair(deals, n, board=None):
    """Board ``n`` really played in both rooms (by the random bot), or ``board``'s cards
    stored under number ``n``."""
    board = Board.from_dict(board) if board else deals.board(n)
    rooms = [play_sides(AMERICAN62, board, RandomBot(n), RandomBot(n + 1)) for _ in range(2)]
    return {"board": n, "score": 0, "rooms": rooms}


def _record(store, mid, deals, *numbers):
    store.record_pairs(store.match(mid), [_pair(deals, n) for n in numbers])


def test_a_board_is_shown_only_once_finished_in_every_match(api, store):
    tid, deals, _ = _secret_tournament(store)
    first, second = store.match_ids(tid)
    _record(store, first, deals, 1, 2)
    for mid in (first, second):
        for n in (1, 2, 3):
            r = api.call("GET", f"/api/v1/matches/{mid}/boards/{n}")
            assert r.status_code == 404 and r.headers["Content-Type"].startswith("application/problem+json")
            assert "not finished in every match" in r.json()["detail"]
            assert "deck" not in r.text and "actions" not in r.text
    assert not store.board_done_everywhere(tid, 1)
    _record(store, second, deals, 1)
    assert store.board_done_everywhere(tid, 1) and not store.board_done_everywhere(tid, 2)
    for mid in (first, second):
        r = api.call("GET", f"/api/v1/matches/{mid}/boards/1")
        assert r.status_code == 200 and r.json()["rooms"][0]["board"] == deals.board(1).to_dict()
        assert api.call("GET", f"/api/v1/matches/{mid}/boards/2").status_code == 404
    assert api.call("GET", f"/api/v1/matches/{first}/boards/99").status_code == 404
    assert api.call("GET", "/api/v1/matches/t999.m1/boards/1").status_code == 404
    assert not store.board_done_everywhere("t999", 1)


def test_a_blind_board_is_shown_once_every_match_that_plays_it_has(api, store):
    """With two references the boards are split between them: board 1 is played only in
    the matches against the first reference, board 3 only against the second."""
    deals, _ = dealsets.secret(6)
    registry.ensure_builtins(store, BOTS)
    spec = validate(
        {
            "format": "blind",
            "bots": ["random", "search"],
            "references": ["rule", "random"],
            "deals": deals.name,
            "boards": 4,
        },
        registry.builtin_roster(BOTS),
    )
    store.put_dealset(deals)
    tid = store.create_tournament(spec, plan_matches(spec), "test", 60_000)
    by_block = {}
    for mid in store.match_ids(tid):
        by_block.setdefault(store.match(mid)["first"], []).append(mid)
    assert sorted(by_block) == [1, 3] and all(len(ms) == 2 for ms in by_block.values())
    first, second = by_block[1]
    _record(store, first, deals, 1)
    assert not store.board_done_everywhere(tid, 1)
    _record(store, second, deals, 1)
    assert store.board_done_everywhere(tid, 1)
    assert api.call("GET", f"/api/v1/matches/{first}/boards/1").status_code == 200
    assert not store.board_done_everywhere(tid, 3) and not store.board_done_everywhere(tid, 5)
    for mid in by_block[3]:
        _record(store, mid, deals, 3)
    assert store.board_done_everywhere(tid, 3) and not store.board_done_everywhere(tid, 4)


def test_commitment_always_seed_only_once_finished(api, store):
    tid, deals, committed = _secret_tournament(store)
    for n in (1, 2, 3, 4):
        for mid in store.match_ids(tid):
            _record(store, mid, deals, n)
    shown = api.call("GET", f"/api/v1/tournaments/{tid}").json()
    assert shown["commitment"] == committed and shown["deals_seed"] is None and shown["deals"] == deals.name
    listed = {t["id"]: t for t in api.call("GET", "/api/v1/tournaments").json()}
    assert listed[tid]["commitment"] == committed and listed[tid]["deals_seed"] is None
    for path in ("", "/matches", "/results"):  # nothing served before the end holds the seed
        assert deals.seed not in api.call("GET", f"/api/v1/tournaments/{tid}{path}").text
    assert deals.seed not in api.call("GET", "/api/v1/tournaments").text

    store.finish_tournament(tid, {"tournament": tid})
    shown = api.call("GET", f"/api/v1/tournaments/{tid}").json()
    assert shown["status"] == "finished" and shown["deals_seed"] == deals.seed and shown["commitment"] == committed
    assert hashlib.sha256(shown["deals_seed"].encode()).hexdigest() == committed["seed_sha256"]
    listed = {t["id"]: t for t in api.call("GET", "/api/v1/tournaments").json()}
    assert listed[tid]["deals_seed"] == deals.seed


def test_a_public_set_has_no_commitment(api, store):
    deals = dealsets.generate("public-reveal", 3)
    registry.ensure_builtins(store, BOTS)
    spec = validate({"bots": ["random", "rule"], "deals": deals.name, "boards": 2}, registry.builtin_roster(BOTS))
    store.put_dealset(deals)
    tid = store.create_tournament(spec, plan_matches(spec), "test", 60_000)
    shown = api.call("GET", f"/api/v1/tournaments/{tid}").json()
    assert shown["commitment"] is None and shown["deals_seed"] is None


def _verify(*args):
    return subprocess.run(
        [sys.executable, "-m", "server.cli", "deals", "verify", *args], capture_output=True, text=True, timeout=120
    )


def test_cinch_deals_verify_checks_every_served_board_against_the_revealed_seed(api, store):
    tid, deals, committed = _secret_tournament(store, boards=3, first=2)
    for mid in store.match_ids(tid):
        _record(store, mid, deals, 2, 3, 4)
    store.finish_tournament(tid, {"tournament": tid})
    seed = api.call("GET", f"/api/v1/tournaments/{tid}").json()["deals_seed"]
    flags = [
        "--seed",
        seed,
        "--commitment",
        committed["seed_sha256"],
        "--boards",
        str(committed["boards"]),
        "--deals-sha256",
        committed["deals_sha256"],
        "--server",
        api.base,
        "--tournament",
        tid,
    ]
    run = _verify(*flags)
    assert run.returncode == 0, run.stderr
    assert "6 finished boards checked" in run.stdout and committed["deals_sha256"] in run.stdout

    # a server that dealt a board other than the committed one is caught
    tid2, deals2, committed2 = _secret_tournament(store, boards=3)
    first, second = store.match_ids(tid2)
    _record(store, first, deals2, 1, 2)
    store.record_pairs(store.match(second), [_pair(deals2, 1), _pair(deals2, 2, board=deals2.board(3).to_dict())])
    flags = [
        "--seed",
        deals2.seed,
        "--commitment",
        committed2["seed_sha256"],
        "--boards",
        "6",
        "--server",
        api.base,
        "--tournament",
        tid2,
    ]
    run = _verify(*flags)
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert f"match {second} board 2 room 1: the served board differs" in run.stderr

    # the seed of another set does not pass for this tournament's
    flags = [
        "--seed",
        deals.seed,
        "--commitment",
        committed["seed_sha256"],
        "--boards",
        "6",
        "--server",
        api.base,
        "--tournament",
        tid2,
    ]
    run = _verify(*flags)
    assert run.returncode == 2 and "the tournament's commitment has name" in run.stderr, run.stderr
