"""``cinch tournament`` for widow_cinch: a match of three sides of two on the embedded arena,
and a seating plan that cannot apply to sides of two refused cleanly."""

import pytest
from support.cliharness import cinch

pytestmark = pytest.mark.e2e

WIDOW = ["--ruleset", "widow_cinch"]


def test_three_sides_round_robin_prints_every_entrant(tmp_path):
    run = cinch("tournament", *WIDOW, "--bots", "random", "rule", "search", "--boards", "2", home=tmp_path)
    assert run.returncode == 0, run.stderr
    assert "against the field" in run.stdout and "random vs rule vs search: 2 boards" in run.stdout


def test_permuted_rooms_are_refused_for_sides_of_two(tmp_path):
    run = cinch(
        "tournament", *WIDOW, "--bots", "random", "rule", "search", "--rooms", "permute", home=tmp_path, timeout=60
    )
    assert run.returncode == 2
    assert "rooms=permute is for single seats" in run.stderr and "Traceback" not in run.stderr
