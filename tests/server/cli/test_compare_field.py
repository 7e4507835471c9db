"""``cinch compare`` for every table shape: two units as a two-room match, more as a field."""

import re

import pytest
from support.cliharness import cinch

pytestmark = pytest.mark.e2e


def test_three_bots_at_a_three_player_table_are_compared_against_the_field(tmp_path):
    run = cinch(
        "compare",
        "rule",
        "random",
        "search",
        "--ruleset",
        "seven_up",
        "--options",
        '{"players": 3}',
        "--boards",
        "6",
        home=tmp_path,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    assert "deal set standard-3p" in run.stdout
    rows = re.findall(r"^\s+(\d+)\s+([-+][\d.]+)\s+([-+][\d.]+)\s+([-+][\d.]+)$", run.stdout, re.M)
    assert [int(r[0]) for r in rows] == list(range(1, 7))
    assert all(abs(sum(float(x) for x in r[1:])) < 0.02 for r in rows)  # nets against the field sum to 0
    for bot in ("rule", "random", "search"):
        assert re.search(rf"^{bot}: raw mean [-+][\d.]+ \[", run.stdout, re.M)


def test_two_players_are_a_two_room_match_by_seat(tmp_path):
    run = cinch(
        "compare",
        "rule",
        "random",
        "--ruleset",
        "pitch",
        "--options",
        '{"players": 2}',
        "--boards",
        "3",
        home=tmp_path,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    assert "rule at P1 (room 1)" in run.stdout and "rule at P2 (room 2)" in run.stdout


def test_the_bot_count_must_match_the_table(tmp_path):
    for args in (["rule", "random"], ["rule", "random", "search", "rule"]):
        run = cinch("compare", *args, "--ruleset", "seven_up", "--options", '{"players": 3}', home=tmp_path)
        assert run.returncode == 2 and "Traceback" not in run.stderr
        assert "3 units (P1 P2 P3)" in run.stderr or "named twice" in run.stderr
    run = cinch(
        "compare",
        "rule",
        "random",
        "search",
        "--sprt",
        "--ruleset",
        "seven_up",
        "--options",
        '{"players": 3}',
        home=tmp_path,
    )
    assert run.returncode == 2 and "--sprt and --plan compare two bots" in run.stderr
