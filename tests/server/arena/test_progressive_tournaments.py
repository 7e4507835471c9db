"""Progressive tournaments in process: validation (what 422s say), the first round's plan,
a tournament played by ``play_chunk_with`` round after round, its results, and that it
is never rated."""

import re

import pytest

from server.arena import dealsets
from server.arena.formats import progressive as progressive_format
from server.arena.formats.base import SpecError
from server.arena.formats.progressive import advance
from server.arena.progressive import TableResult, first_seating, seating_after
from server.arena.registry import builtin_roster
from server.arena.tournaments import fit_boards, plan_matches, planned_totals, rebuild_ratings, results, validate
from server.web.api.schemas import MatchSchema, ResultsSchema, TournamentSchema
from server.web.app import create_app
from workers.bots import BUILTIN
from workers.jobs import play_chunk_with
from workers.supervisor import supervise

ROSTER = builtin_roster(BUILTIN)
FIVE = ["random", "rule", "search", "rule#2", "random#2"]
DEALS = dealsets.generate("progressive-test", 40)


def spec_of(**request):
    return validate({"format": "progressive", "deals": DEALS.name, **request}, ROSTER)


def test_defaults_follow_section_11_base_foster51_and_2T_rounds_of_four_boards():
    spec = spec_of(bots=FIVE)
    assert spec["ruleset"] == "foster51" and spec["rounds"] == 4 and (spec["first"], spec["boards"]) == (1, 16)
    assert spec["chunk"] == 4 and planned_totals(spec) == (8, 32)


def test_the_first_round_is_seated_by_the_entrant_hash_with_house_bots_at_the_last_table():
    spec = spec_of(bots=FIVE, rounds=3)
    matches = plan_matches(spec, DEALS.seed)
    assert [m["entrants"] for m in matches] == [list(t) for t in first_seating(DEALS.seed, FIVE)]
    assert sorted(e for m in matches for e in m["entrants"]) == sorted(FIVE + ["rule#h1", "rule#h2", "rule#h3"])
    with pytest.raises(ValueError, match="seated from its deal set's seed"):
        plan_matches(spec)
    assert [(m["kind"], m["round"], m["table"], m["first"], m["last"]) for m in matches] == [
        ("progressive", 1, 1, 1, 4),
        ("progressive", 1, 2, 1, 4),
    ]


@pytest.mark.parametrize(
    "request_, words",
    [
        ({"bots": ["random", "rule", "search"]}, "at least 4 entrants"),
        ({"bots": FIVE, "rounds": 0}, "rounds must be a whole number from 1 to 250"),
        ({"bots": FIVE, "rounds": 251}, "rounds must be a whole number from 1 to 250"),
        ({"bots": FIVE, "rounds": "2"}, "rounds must be a whole number"),
        ({"bots": FIVE, "boards": 8}, "boards: a progressive tournament plays boards 4r-3..4r"),
        ({"bots": FIVE, "first": 5}, "first: a progressive tournament"),
        ({"bots": FIVE, "sprt": {}}, "sprt: a progressive tournament"),
        ({"bots": FIVE, "ruleset": "pedro"}, "two partnerships at tables of four"),
        ({"bots": FIVE, "ruleset": "seven_up", "options": {"players": 3}}, "two partnerships at tables of four"),
        ({"bots": ["random", "rule", "search", "rule"]}, "names an entrant twice"),
        ({"bots": ["random", "rule", "search", "rule#0"]}, "'rule#0' is neither"),
        ({"bots": ["random", "rule", "search", "rule#h1"]}, "'rule#h1' is neither"),
        ({"bots": ["random", "rule", "search", "nobody#2"]}, "unknown bot 'nobody'"),
    ],
)
def test_bad_progressive_requests_are_refused_by_name(request_, words):
    with pytest.raises(SpecError, match=words):
        spec_of(**request_)


def test_rounds_must_fit_the_deal_set():
    spec = spec_of(bots=FIVE, rounds=11)
    with pytest.raises(SpecError, match="rounds must be a whole number from 1 to 10"):
        fit_boards(spec, len(DEALS.boards))
    fit_boards(spec_of(bots=FIVE, rounds=10), len(DEALS.boards))


def test_a_remote_bot_is_entered_once_and_may_be_untrusted():
    roster = {**ROSTER, "alice": {"kind": "remote", "trusted": False}}
    spec = validate({"format": "progressive", "bots": ["alice", "rule", "rule#2", "random"]}, roster)
    assert spec["deals"] == "secret", "a remote entrant gets secret deals"
    with pytest.raises(SpecError, match="only built-in bots may be entered more than once"):
        validate({"format": "progressive", "bots": ["alice", "alice#2", "rule", "random"]}, roster)


def test_rounds_belong_to_the_progressive_format_only():
    with pytest.raises(SpecError, match="rounds: only a progressive tournament"):
        validate({"bots": ["random", "rule"], "rounds": 2}, ROSTER)


def test_a_base_from_the_family_with_four_seats_is_accepted():
    assert spec_of(bots=FIVE, ruleset="seven_up", options={"players": 4})["ruleset"] == "seven_up"


def play(store, request):
    spec = spec_of(**request)
    store.put_dealset(DEALS)
    tid = store.create_tournament(spec, plan_matches(spec, DEALS.seed), "test", 60_000, planned_totals(spec))
    played = set()
    while store.tournament(tid)["status"] != "finished":
        todo = [mid for mid in store.match_ids(tid) if mid not in played]
        assert todo, "a round ended without the next one being seated"
        for mid in todo:
            match = store.match(mid)
            play_chunk_with(store, mid, match["first"], match["last"])
            played.add(mid)
    return tid


def stored_rounds(store, tid):
    rounds = {}
    for mid in store.match_ids(tid):
        m = store.match(mid)
        ns = ew = 0
        for board in range(m["first"], m["last"] + 1):
            delta = store.pair(mid, board)["rooms"][0]["result"]["delta"]
            ns, ew = ns + delta["NS"], ew + delta["EW"]
        rounds.setdefault(m["round"], []).append(TableResult(m["round"], m["table"], tuple(m["entrants"]), ns, ew))
    return [sorted(rounds[r], key=lambda t: t.table) for r in sorted(rounds)]


def test_a_played_tournament_moves_as_the_pure_module_says_and_is_not_rated(store):
    tid = play(store, {"bots": FIVE, "rounds": 3})
    t = store.tournament(tid)
    assert t["pairs_done"] == t["pairs_total"] == 24 and t["matches_total"] == 6
    rounds = stored_rounds(store, tid)
    assert len(rounds) == 3
    for r in range(1, 3):
        assert [tr.seats for tr in rounds[r]] == seating_after(DEALS.seed, FIVE, rounds[:r])
    for mid in store.match_ids(tid):
        m = store.match(mid)
        assert [(b, len(store.pair(mid, b)["rooms"])) for b in range(m["first"], m["last"] + 1)] == [
            (b, 1) for b in range(4 * m["round"] - 3, 4 * m["round"] + 1)
        ]
        assert play_chunk_with(store, mid, m["first"], m["last"]) == 0, "a rerun plays nothing"
    assert advance(store, tid) == 0 and len(store.match_ids(tid)) == 6, "no fourth round"
    assert store.ratings("foster51") == {} and rebuild_ratings(store) == {}
    res = store.results(tid)
    assert ResultsSchema().validate(res) == {} and res == results(store, tid)
    assert [row["bot"] for row in res["standings"]] and {r["bot"] for r in res["standings"]} == set(FIVE)
    for row in res["standings"]:  # each row's mean with its 95% interval over its boards' nets
        assert row["boards"] >= 2 and row["ci_low"] <= row["mean"] <= row["ci_high"]
    assert (
        sum(r["match_wins"] for r in res["standings"])
        + sum(
            1
            for tables in rounds
            for tr in tables
            for i, e in enumerate(tr.seats)
            if e.startswith("rule#h") and ("NS", "EW")[i % 2] == tr.winner(DEALS.seed)
        )
        == 3 * 2 * 2
    )
    assert [[tb["seats"] for tb in rd["tables"]] for rd in res["rounds"]] == [
        [dict(zip("NESW", tr.seats)) for tr in tables] for tables in rounds
    ]


ADMIN = "progressive-admin"


@pytest.fixture
def client(redis_url, store):
    app = create_app(
        {"REDIS_URL": redis_url, "CINCH_PREFIX": store.prefix, "CINCH_QUEUE": store.queue_name, "ADMIN_TOKEN": ADMIN}
    )
    return app.test_client()


def test_the_api_and_the_pages_show_rounds_and_standings(store, client):
    tid = play(store, {"bots": FIVE, "rounds": 2})
    t = client.get(f"/api/v1/tournaments/{tid}").get_json()
    assert TournamentSchema().validate(t) == {} and t["rounds"] == 2 and t["format"] == "progressive"
    res = client.get(f"/api/v1/tournaments/{tid}/results").get_json()
    assert len(res["rounds"]) == 2 and all(tb["winner"] in ("NS", "EW") for rd in res["rounds"] for tb in rd["tables"])
    views = client.get(f"/api/v1/tournaments/{tid}/matches").get_json()
    assert all(MatchSchema().validate(v) == {} and len(v["entrants"]) == 4 for v in views)
    page = client.get(f"/tournaments/{tid}").get_data(as_text=True)
    assert 'id="rounds"' in page and "/bots/rule%232" not in page and 'href="/bots/rule"' in page
    mid = res["rounds"][1]["tables"][0]["match"]
    board = client.get(f"/matches/{mid}/boards/5").get_data(as_text=True)
    assert (
        "round 2, table 1" in board
        and board.count('<tr data-room="') == 1
        and board.count('<section class="room') == 1
        and board.count('class="board-score"') == 4
    )
    match_page = client.get(f"/matches/{mid}").get_data(as_text=True)
    assert "round 2, table 1" in match_page and all("#" not in h for h in re.findall(r'href="([^"]*)"', match_page))
    assert 'data-bot="rule#2"' in page and all("#" not in h for h in re.findall(r'href="([^"]*)"', page))


@pytest.mark.parametrize(
    "body, words",
    [
        ({"bots": ["random", "rule"]}, "at least 4 entrants"),
        ({"bots": FIVE, "rounds": 0}, "rounds"),
        ({"bots": FIVE, "rounds": 300}, "rounds"),
        ({"bots": FIVE, "rounds": 251, "deals": "standard"}, "rounds"),
        ({"bots": FIVE, "ruleset": "pedro"}, "two partnerships"),
        ({"bots": ["random", "rule", "search", "rule#h2"]}, "neither a bot's name"),
    ],
)
def test_the_api_refuses_bad_progressive_requests_with_422(store, client, body, words):
    store.put_dealset(DEALS)
    bad = client.post(
        "/api/v1/tournaments", json={"format": "progressive", **body}, headers={"Authorization": f"Bearer {ADMIN}"}
    )
    assert bad.status_code == 422, bad.get_json()
    problem = bad.get_json()
    assert words in str(problem)
    assert store.tournament_ids() == []


def test_the_supervisor_seats_and_enqueues_a_round_that_a_dead_job_left(store, queue):
    spec = spec_of(bots=FIVE, rounds=2)
    store.put_dealset(DEALS)
    tid = store.create_tournament(spec, plan_matches(spec, DEALS.seed), "test", 60_000, planned_totals(spec))
    for mid in store.match_ids(tid):
        play_chunk_with(store, mid, 1, 4)  # no queue: as if the job died before enqueueing round 2
    assert len(store.match_ids(tid)) == 4, "the round is seated by whoever completes it"
    supervise(store, queue, tid)
    round_two = {mid for mid in store.match_ids(tid) if store.match(mid)["round"] == 2}
    queued = [queue.fetch_job(j) for j in queue.get_job_ids()]
    assert {job.args[1] for job in queued} == round_two and all(job.args[2:] == [5, 8] for job in queued)


def test_advance_reads_only_the_latest_round_until_it_is_played(store, monkeypatch):
    """advance runs after every job and for every complete table in each supervisor pass:
    reading every round's results each time made a pass quadratic in the rounds (21 s at
    80 rounds, past the driver's lease)."""

    spec = spec_of(bots=FIVE, rounds=3)
    store.put_dealset(DEALS)
    tid = store.create_tournament(spec, plan_matches(spec, DEALS.seed), "test", 60_000, planned_totals(spec))
    first, second = store.match_ids(tid)
    play_chunk_with(store, first, 1, 4)
    full_readings = []
    real = progressive_format.progressive_rounds
    monkeypatch.setattr(progressive_format, "progressive_rounds", lambda *a: full_readings.append(1) or real(*a))
    assert advance(store, tid) == 0 and full_readings == [], "round 1 is not played yet: nothing read beyond it"
    play_chunk_with(store, second, 1, 4)
    assert len(store.match_ids(tid)) == 4 and full_readings == [1], "the job that ends round 1 seats round 2"
    assert advance(store, tid) == 0 and full_readings == [1], "round 2 is seated and not played: no full reading"
