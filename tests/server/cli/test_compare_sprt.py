"""``cinch compare --sprt`` as a user runs it: the match stops as soon as the test decides."""

import re

import pytest

from cliharness import cinch


def test_a_lopsided_match_is_decided_early_and_the_rest_cancelled(tmp_path):
    run = cinch("compare", "search", "random", "--sprt", "--boards", "200", "--delta1", "5", home=tmp_path, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "H1 accepted: search is better than random" in run.stdout
    boards = int(re.search(r"boards (\d+), LLR \+[\d.]+ \(bounds -2\.94, \+2\.94\)", run.stdout).group(1))
    assert boards < 100
    listed = cinch("tournament", "list", home=tmp_path, timeout=60)
    row = next(line.split() for line in listed.stdout.splitlines() if line.startswith("t1 "))
    assert row[1] == "cancelled"
    played, total = map(int, row[5].split("/"))
    assert boards <= played < total == 200

    again = cinch("compare", "search", "random", "--sprt", "--boards", "200", "--delta1", "5", home=tmp_path, timeout=60)
    assert again.returncode == 0, again.stderr
    assert "(from match t1.m1)" in again.stdout and f"boards {boards}," in again.stdout   # stored: not played again
    assert "tournament t2" not in again.stdout


@pytest.mark.parametrize("args, message", [
    (["--delta0", "5", "--delta1", "5"], "delta0 (5) must be less than delta1 (5)"),
    (["--alpha", "0.5"], "alpha must be between 0 and 0.5"),
    (["--beta", "0"], "beta must be between 0 and 0.5"),
])
def test_bad_settings_are_refused_cleanly(tmp_path, args, message):
    run = cinch("compare", "search", "random", "--sprt", *args, home=tmp_path, timeout=60)
    assert run.returncode == 2
    assert message in run.stderr and "Traceback" not in run.stderr
