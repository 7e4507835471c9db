"""``cinch compare`` for every table shape: two units as a two-room match; more as a field
of as many bots, or two bots as X among copies of Y."""

import json
import re
from collections import Counter

import pytest
from redis import Redis
from support.cliharness import cinch

from server.arena.store import Store
from workers.embedded import EmbeddedRedis

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
    for args in (["rule", "random", "search", "search-play"], ["rule", "random", "search", "rule"]):
        run = cinch("compare", *args, "--ruleset", "seven_up", "--options", '{"players": 3}', home=tmp_path)
        assert run.returncode == 2 and "Traceback" not in run.stderr
        assert "3 units (P1 P2 P3): name 2 bots" in run.stderr or "named twice" in run.stderr
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
    assert run.returncode == 2 and "--sprt and --plan test two bots on a table of two sides" in run.stderr


@pytest.mark.parametrize(
    "ruleset, options, units",
    [
        ("auction_cinch", {}, ["P1", "P2", "P3", "P4", "P5"]),
        ("seven_up", {"players": 3}, ["P1", "P2", "P3"]),
        ("widow_cinch", {}, ["P1P4", "P2P5", "P3P6"]),
    ],
)
def test_two_bots_at_any_table_size_are_x_among_copies_of_y(tmp_path, ruleset, options, units):
    """``compare X Y`` where the table seats more than two: X at one unit among copies of Y,
    the unit turning so that X holds each one equally often, each board X's net less Y's at
    the same unit on the same cards (the blind movement with Y as the reference)."""
    boards = 2 * len(units)
    args = ("compare", "search", "rule", "--ruleset", ruleset, "--options", json.dumps(options))
    run = cinch(*args, "--boards", str(boards), home=tmp_path, timeout=300)
    assert run.returncode == 0, run.stderr
    assert f"search among rule: {ruleset}" in run.stdout and "the others rule" in run.stdout, run.stdout
    rows = re.findall(r"^\s+(\d+)\s+(\S+)\s+([-+][\d.]+)$", run.stdout, re.M)
    assert [int(r[0]) for r in rows] == list(range(1, boards + 1)), run.stdout
    held = Counter(r[1] for r in rows)
    assert sorted(held) == sorted(units) and set(held.values()) == {2}, held
    with EmbeddedRedis(tmp_path) as url, Redis.from_url(url) as redis:
        store = Store(redis)
        match = store.match("t1.m1")
        assert store.tournament("t1")["format"] == "blind" and (match["x"], match["y"]) == ("search", "rule")
        scores = store.scores("t1.m1")
    assert [float(r[2]) for r in rows] == pytest.approx([scores[n] for n in range(1, boards + 1)], abs=0.005)
    mine = cinch("compare", "rule", "tests/support/local_bots.py:FirstLegal", *args[3:], home=tmp_path)
    assert mine.returncode == 2 and "must be a built-in bot" in mine.stderr and "Traceback" not in mine.stderr
