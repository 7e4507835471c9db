"""``cinch tournament`` and ``cinch compare`` as a user runs them: the zero-setup path.

No REDIS_URL: the command starts an embedded Redis and two local ``rq worker``
processes itself, plays through them, prints the results, and stops them again.
"""

import json
import os
import subprocess
import sys

import pytest
from redis import Redis

from server.arena import anytime, dealsets
from server.arena.registry import builtin_roster
from server.arena.store import Store
from server.arena.tournaments import plan_matches, validate
from server.cli.report import live_match
from server.cli.tournament_cmd import progress_note, running_matches
from workers.bots import BUILTIN
from workers.embedded import EmbeddedRedis


def cinch(*args, home, timeout=240):
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env["CINCH_HOME"] = str(home)
    return subprocess.run(
        [sys.executable, "-m", "server.cli", *args], capture_output=True, text=True, timeout=timeout, env=env
    )


@pytest.mark.e2e
def test_round_robin_on_the_embedded_arena(tmp_path):
    run = cinch("tournament", "--bots", "random", "rule", "--boards", "8", "--chunk", "3", "--json", home=tmp_path)
    assert run.returncode == 0, run.stderr
    results = json.loads(run.stdout)
    assert [row["bot"] for row in results["standings"]] == ["rule", "random"]
    assert results["standings"][0]["boards"] == 8
    match = results["matches"][0]
    assert match["status"] == "complete" and match["stats"]["boards"] == 8


@pytest.mark.e2e
def test_human_output_and_compare_from_stored_results(tmp_path):
    run = cinch("tournament", "--bots", "random", "rule", "--boards", "5", home=tmp_path)
    assert run.returncode == 0, run.stderr
    assert "Standings" in run.stdout and "Cross-table" in run.stdout and "Ratings" in run.stdout
    cmp = cinch("compare", "rule", "random", "--boards", "5", home=tmp_path)
    assert cmp.returncode == 0, cmp.stderr
    assert "(from match t1.m1)" in cmp.stdout  # stored, not played again
    assert cmp.stdout.count("\n") >= 8


def test_the_progress_line_shows_running_matches_with_their_anytime_interval(store):
    """Deterministic, on a store filled by hand: a running match past ``MIN_BOARDS`` shows
    its mean and labelled anytime interval, one short of it its mean and board count, a
    complete one nothing."""
    deals = dealsets.generate("anytime-cli", 30)
    store.put_dealset(deals)
    spec = validate({"bots": ["random", "rule", "search"], "boards": 30, "deals": deals.name}, builtin_roster(BUILTIN))
    tid = store.create_tournament(spec, plan_matches(spec), "test", 60_000)
    long_run, done, young = (store.match(mid) for mid in store.match_ids(tid))
    scores = [(n * 7) % 23 - 8 for n in range(1, 25)]
    store.record_pairs(long_run, [{"board": n, "score": s, "rooms": []} for n, s in enumerate(scores, 1)])
    store.record_pairs(done, [{"board": n, "score": 1, "rooms": []} for n in range(1, 31)])
    store.record_pairs(young, [{"board": n, "score": -4, "rooms": []} for n in range(1, 4)])
    running = running_matches(store, tid)
    assert [m["id"] for m in running] == [long_run["id"], young["id"]]
    low, high = anytime.betting_interval(scores, 56.0, 5.6)  # live.STAKE_WIDTH of Cinch's bound
    mean = sum(scores) / len(scores)
    assert live_match(running[0]) == f"random vs rule {mean:+.1f} anytime 95% [{low:+.1f}, {high:+.1f}]"
    assert live_match(running[1]) == "rule vs search -4.0 (3 boards)"
    note = progress_note(store.tournament(tid), [], running)
    assert note == f"queued, {live_match(running[0])}, {live_match(running[1])}"  # no driver has started it


@pytest.mark.e2e
def test_a_long_match_shows_its_anytime_interval_while_it_runs(tmp_path):
    run = cinch("tournament", "--bots", "random", "rule", "--boards", "200", "--chunk", "5", home=tmp_path)
    assert run.returncode == 0, run.stderr
    assert "random vs rule" in run.stderr and "anytime 95% [" in run.stderr  # the progress bar's line
    assert "Matches (X's mean per board pair, 95% interval: raw as played, and luck-corrected)" in run.stdout
    assert ", raw " in run.stdout and ", corrected " in run.stdout  # both means, each named


@pytest.mark.e2e
@pytest.mark.parametrize(
    "args, message",
    [
        (["--bots", "random", "nosuchbot"], "unknown bot 'nosuchbot'"),
        (["--boards", "0"], "boards must be"),
        (["--boards", "5000"], "boards must be"),
        (["--ruleset", "pedro99"], "unknown ruleset"),
        (["--deals", "nosuchset"], "no deal set"),
        (["--bots", "rule"], "at least two bots"),
    ],
)
def test_bad_requests_are_refused_cleanly(tmp_path, args, message):
    run = cinch("tournament", *args, home=tmp_path, timeout=60)
    assert run.returncode == 2
    assert message in run.stderr and "Traceback" not in run.stderr


@pytest.mark.e2e
def test_a_local_bot_enters_a_tournament_by_its_file(tmp_path):
    """The bot author's journey: their own sdk.Bot, by file, against a built-in bot."""
    run = cinch(
        "tournament", "--bots", "tests/support/local_bots.py:FirstLegal", "rule", "--boards", "4", home=tmp_path
    )
    assert run.returncode == 0, run.stderr
    assert "local_bots:FirstLegal" in run.stdout and "Standings" in run.stdout
    bad = cinch("tournament", "--bots", "tests/support/local_bots.py:NotABot", "rule", "--boards", "4", home=tmp_path)
    assert bad.returncode != 0 and "is not a subclass of sdk.Bot" in bad.stderr
    assert "Traceback" not in bad.stderr


@pytest.mark.e2e
@pytest.mark.parametrize(
    "args, rows",
    [
        (["--format", "gauntlet", "--candidates", "LOCAL", "--references", "rule", "random", "--boards", "4"], 3),
        (["--format", "progressive", "--bots", "LOCAL", "rule", "random", "search", "--rounds", "1"], 4),
        (["--format", "blind", "--bots", "LOCAL", "--references", "rule", "--boards", "4"], 1),
    ],
)
def test_a_local_bot_enters_every_format(tmp_path, args, rows):
    """A local bot is trusted (the user's own): a gauntlet's candidate, a Progressive
    entrant, a blind entrant, each played to the end with its decisions answered, no fault."""
    local = "tests/support/local_bots.py:FirstLegal"
    run = cinch("tournament", *[local if a == "LOCAL" else a for a in args], home=tmp_path)
    assert run.returncode == 0, run.stderr
    standings = run.stdout.split("Standings", 1)[1].split("\n\n", 1)[0].splitlines()[2:]
    assert len(standings) == rows and any("local_bots:FirstLegal" in line for line in standings), run.stdout
    with EmbeddedRedis(tmp_path) as url, Redis.from_url(url) as redis:
        store = Store(redis)
        assert store.tournament("t1")["status"] == "finished"
        records = [store.pair(mid, b) for mid in store.match_ids("t1") for b in store.stored_boards(mid)]
        assert records and not [f for r in records for room in r["rooms"] for f in room.get("faults", [])]


@pytest.mark.e2e
def test_a_named_tournament_is_headed_and_listed_by_its_name_and_a_bad_name_refused(tmp_path):
    run = cinch("tournament", "--bots", "random", "rule", "--boards", "2", "--name", "Spring cup", home=tmp_path)
    assert run.returncode == 0, run.stderr
    assert "Tournament t1 'Spring cup' (round_robin, american62)" in run.stdout
    listed = cinch("tournament", "list", home=tmp_path)
    assert listed.returncode == 0 and "'Spring cup'" in listed.stdout, listed.stderr
    bad = cinch("tournament", "--bots", "random", "rule", "--name", " padded", home=tmp_path)
    assert bad.returncode == 2 and "name must not start or end with a space" in bad.stderr
