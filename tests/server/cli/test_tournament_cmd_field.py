"""``cinch tournament`` for a ruleset of three single seats: matches of three entrants on
the embedded arena, ``--rooms``, and what such a tournament cannot do, refused cleanly."""

import json

import pytest
from support.cliharness import cinch

pytestmark = pytest.mark.e2e

THREE = ["--ruleset", "seven_up", "--options", '{"players": 3}']


def test_three_entrant_round_robin_with_permuted_rooms_prints_every_entrant(tmp_path):
    run = cinch(
        "tournament", *THREE, "--bots", "random", "rule", "search", "--boards", "4", "--rooms", "permute", home=tmp_path
    )
    assert run.returncode == 0, run.stderr
    assert "against the field" in run.stdout and "random vs rule vs search: 4 boards" in run.stdout
    stored = cinch("tournament", "list", home=tmp_path)
    assert "finished" in stored.stdout and "4/4" in stored.stdout


@pytest.mark.parametrize(
    "args, message",
    [
        (["--bots", "random", "rule"], "at least 3 bots"),
        (["--bots", "random", "rule", "search", "--sprt"], "sprt: the sequential test compares two entrants"),
        (["--format", "gauntlet", "--candidates", "random", "--references", "rule"], "at least 2 references"),
    ],
)
def test_what_three_entrant_matches_cannot_do_is_refused_cleanly(tmp_path, args, message):
    run = cinch("tournament", *THREE, *args, home=tmp_path, timeout=60)
    assert run.returncode == 2
    assert message in run.stderr and "Traceback" not in run.stderr


def test_a_blind_movement_of_three_single_seats_runs_from_the_cli(tmp_path):
    run = cinch("tournament", *THREE, "--format", "blind", "--bots", "random", "search", "--boards", "3", home=tmp_path)
    assert run.returncode == 0, run.stderr
    assert "against the reference bots' par room" in run.stdout and "search" in run.stdout


def test_json_results_carry_each_entrants_statistics(tmp_path):
    run = cinch("tournament", *THREE, "--bots", "random", "rule", "search", "--boards", "3", "--json", home=tmp_path)
    assert run.returncode == 0, run.stderr
    [match] = json.loads(run.stdout)["matches"]
    assert [e["bot"] for e in match["entrant_stats"]] == ["random", "rule", "search"]
