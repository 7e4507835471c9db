"""A tournament's ``sprt`` option: its validation, and deciding a match on stored scores
(over a real Redis): a decided match is complete with the boards it has, takes no more,
counts once, and its unplayed boards hold back no other match's cards."""

import pytest

from server.arena import dealsets
from server.arena.formats.base import SpecError
from server.arena.match_sprt import decide, sprt_scores
from server.arena.sequential import Sprt, run
from server.arena.tournaments import SPRT_CHUNK, after_match_progress, plan_matches, results, validate

ROSTER = {name: {"kind": "builtin", "trusted": True} for name in ("rule", "random", "search")}
GAUNTLET = {"format": "gauntlet", "candidates": ["rule"], "references": ["random", "search"], "boards": 60}


def test_settings_default_and_small_chunks_unless_asked():
    spec = validate({**GAUNTLET, "sprt": {"delta1": 8}}, ROSTER)
    assert spec["sprt"] == {"delta0": 0.0, "delta1": 8, "alpha": 0.05, "beta": 0.05}
    assert spec["chunk"] == SPRT_CHUNK
    assert validate({**GAUNTLET, "sprt": {}, "chunk": 3}, ROSTER)["chunk"] == 3
    assert all(m["sprt"] == spec["sprt"] for m in plan_matches(spec)), "each match carries its test"
    plain = validate(GAUNTLET, ROSTER)
    assert plain["sprt"] is None and plain["chunk"] == 20 and "sprt" not in plan_matches(plain)[0]


@pytest.mark.parametrize(
    "sprt, message",
    [
        ({"delta0": 5, "delta1": 5}, r"sprt: delta0 \(5\) must be less than delta1 \(5\)"),
        ({"alpha": 0.5}, "sprt: alpha must be between 0 and 0.5"),
        ({"beta": 0}, "sprt: beta must be between 0 and 0.5"),
        ({"delta1": "5"}, "sprt: delta1 must be a number, not '5'"),
        ({"alpha": True}, "sprt: alpha must be a number"),
        ({"delta1": 1e9}, "sprt: delta1 must be from -1000 to 1000"),
        ({"gamma": 1}, "sprt: unknown setting 'gamma'"),
        ([0, 5], "sprt must be an object"),
    ],
)
def test_bad_settings_name_what_is_wrong(sprt, message):
    with pytest.raises(SpecError, match=message):
        validate({**GAUNTLET, "sprt": sprt}, ROSTER)


def test_the_blind_movement_is_refused_with_why():
    with pytest.raises(SpecError, match="sprt: the sequential test stops a two-room match"):
        validate({"format": "blind", "bots": ["random"], "sprt": {}}, ROSTER)


def record(store, mid, boards, score):
    match = store.match(mid)
    return store.record_pairs(match, [{"board": n, "score": score(n), "rooms": []} for n in boards])


def test_a_decided_match_is_complete_with_its_boards_and_the_others_go_on(store):
    deals = dealsets.generate("sprt-decide", 60)
    spec = validate({**GAUNTLET, "deals": deals.name, "sprt": {}}, ROSTER)
    store.put_dealset(deals)
    tid = store.create_tournament(spec, plan_matches(spec), "test", 60_000)
    lopsided, close = store.match_ids(tid)

    record(store, lopsided, [1, 2, 3, 25], lambda n: 40 + n % 7)
    assert sprt_scores(store, lopsided) == [40 + n % 7 for n in range(1, 4)], "board order, up to a gap"
    assert not decide(store, store.match(lopsided)), "three boards are not enough evidence"
    record(store, lopsided, range(4, 23), lambda n: 40 + n % 7)
    deciding = run([40 + n % 7 for n in range(1, 23)], Sprt()).boards
    assert decide(store, store.match(lopsided)) and decide(store, store.match(lopsided))
    assert store.match(lopsided)["status"] == "complete" and store.complete_matches(tid) == {lopsided}
    assert record(store, lopsided, [23, 24], lambda n: 40) == (0, 1), "a decided match stores nothing more"
    assert store.claim_board(tid, lopsided, 30, "job", 10_000) == "done", "nor is a board of it claimed"
    assert store.is_live(tid) and not store.is_live(tid, lopsided)
    assert not after_match_progress(store, store.match(lopsided)), "the other match goes on"
    assert store.tournament(tid)["status"] == "queued"

    assert not store.board_done_everywhere(tid, 30)
    record(store, close, [30], lambda n: 0)
    assert store.board_done_everywhere(tid, 30), "the decided match will never play board 30"
    record(store, close, range(1, 30), lambda n: -10 if n % 2 else -20)
    assert after_match_progress(store, store.match(close)), "both decided: the tournament is finished"
    assert store.tournament(tid)["pairs_done"] == 23 + 30

    out = store.results(tid)
    assert out == results(store, tid)
    first, second = out["matches"]
    assert first["status"] == "complete" and first["stats"]["boards"] == 23, "the boards played, 25 included"
    assert first["sprt"]["decision"] == "H1" and first["sprt"]["boards"] == deciding < 20
    assert first["sprt"]["anytime_low"] < first["sprt"]["mean"] < first["sprt"]["anytime_high"]
    assert first["sprt"]["lower"] < 0 < first["sprt"]["upper"] <= first["sprt"]["llr"]
    assert first["sprt"]["ci_low"] < first["sprt"]["mean"] < first["sprt"]["ci_high"]
    assert second["sprt"]["decision"] == "H0" and second["sprt"]["llr"] <= second["sprt"]["lower"]
    assert second["stats"]["boards"] == 30
    assert max(s["boards"] for s in out["standings"]) == 53, "ratings and standings use the boards played"
    assert {lopsided, close} <= set(store.comparisons("american62"))  # both rated
