"""``cinch tournament --format progressive``: a Progressive Cinch on the embedded arena
(real workers), its standings and rounds printed or as JSON, and bad requests refused
with a message and exit status 2."""

import json

import pytest
from support.cliharness import cinch

pytestmark = pytest.mark.e2e

ENTRANTS = ["--bots", "random", "rule", "random#2", "rule#2"]


def test_a_progressive_tournament_prints_its_standings_and_rounds(tmp_path):
    run = cinch("tournament", "--format", "progressive", "--rounds", "2", *ENTRANTS, home=tmp_path)
    assert run.returncode == 0, run.stderr
    assert "(progressive, foster51)" in run.stdout and "rounds won" in run.stdout
    assert "Round 1 (boards 1-4)" in run.stdout and "Round 2 (boards 5-8)" in run.stdout
    assert "Round 3" not in run.stdout and "Ratings" not in run.stdout
    stored = cinch("tournament", "list", home=tmp_path)
    assert "progressive" in stored.stdout and "8/8" in stored.stdout


def test_json_results_carry_the_rounds(tmp_path):
    run = cinch(
        "tournament",
        "--format",
        "progressive",
        "--rounds",
        "1",
        *ENTRANTS,
        "--ruleset",
        "american62",
        "--json",
        home=tmp_path,
    )
    assert run.returncode == 0, run.stderr
    results = json.loads(run.stdout)
    assert results["ruleset"] == "american62" and [r["round"] for r in results["rounds"]] == [1]
    [table] = results["rounds"][0]["tables"]
    assert sorted(table["seats"].values()) == ["random", "random#2", "rule", "rule#2"] and table["boards"] == 4
    assert sorted(r["bot"] for r in results["standings"]) == ["random", "random#2", "rule", "rule#2"]


@pytest.mark.parametrize(
    "args, message",
    [
        (["--bots", "random", "rule", "search"], "at least 4 entrants"),
        ([*ENTRANTS, "--rounds", "0"], "rounds must be a whole number from 1 to 250"),
        ([*ENTRANTS, "--boards", "8"], "boards: a progressive tournament"),
        ([*ENTRANTS, "--ruleset", "pedro"], "two partnerships at tables of four"),
        ([*ENTRANTS, "--rounds", "300"], "rounds must be a whole number from 1 to 250"),
    ],
)
def test_bad_progressive_requests_are_refused_cleanly(tmp_path, args, message):
    run = cinch("tournament", "--format", "progressive", *args, home=tmp_path, timeout=60)
    assert run.returncode == 2, run.stdout
    assert message in run.stderr and "Traceback" not in run.stderr


def test_rounds_is_refused_for_other_formats(tmp_path):
    run = cinch("tournament", "--bots", "random", "rule", "--rounds", "2", home=tmp_path, timeout=60)
    assert run.returncode == 2 and "rounds: only a progressive tournament" in run.stderr
