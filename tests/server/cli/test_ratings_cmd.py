"""``cinch ratings``: a leaderboard by ruleset name (as the docs write it), ``rebuild`` as the
action, and a clear refusal of an unknown ruleset; through the real command and store."""

import pytest
from support.cliharness import cinch

pytestmark = pytest.mark.e2e  # real cinch commands


def test_a_ruleset_is_a_leaderboard_and_rebuild_the_action(tmp_path):
    played = cinch("tournament", "--bots", "random", "rule", "--boards", "2", home=tmp_path)
    assert played.returncode == 0, played.stderr
    board = cinch("ratings", "american62", home=tmp_path)
    assert board.returncode == 0 and "Ratings (american62" in board.stdout and "rule" in board.stdout
    assert "no ratings for snoozer yet" in cinch("ratings", "snoozer", home=tmp_path).stdout
    rebuilt = cinch("ratings", "rebuild", "--ruleset", "american62", home=tmp_path)
    assert rebuilt.returncode == 0 and "american62: ratings rebuilt" in rebuilt.stdout
    assert cinch("ratings", "american62", home=tmp_path).stdout == board.stdout, "a rebuild changes nothing"


def test_an_unknown_ruleset_is_refused_by_name(tmp_path):
    refused = cinch("ratings", "americn62", home=tmp_path)
    assert refused.returncode == 2 and "unknown ruleset 'americn62'" in refused.stderr
    assert "Traceback" not in refused.stderr
