"""``cinch ratings``: a leaderboard by ruleset name (as the docs write it), ``rebuild`` as the
action, and a clear refusal of an unknown ruleset; through the real command and store. The
same boards played by ``cinch tournament`` in one tournament or two, in bigger or smaller
jobs, with the bots listed either way, give the same ratings."""

import json

import pytest
from support.cliharness import cinch

pytestmark = pytest.mark.e2e  # real cinch commands


def test_a_ruleset_is_a_leaderboard_and_rebuild_the_action(tmp_path):
    played = cinch("tournament", "--bots", "random", "rule", "--boards", "2", home=tmp_path)
    assert played.returncode == 0, played.stderr
    board = cinch("ratings", "american62", home=tmp_path)
    assert board.returncode == 0 and "Ratings (american62" in board.stdout and "rule" in board.stdout
    assert "95% interval" in board.stdout and "*" in board.stdout, "two boards: provisional"
    assert "no ratings for snoozer yet" in cinch("ratings", "snoozer", home=tmp_path).stdout
    rebuilt = cinch("ratings", "rebuild", "--ruleset", "american62", home=tmp_path)
    assert rebuilt.returncode == 0 and "american62: ratings rebuilt" in rebuilt.stdout
    assert cinch("ratings", "american62", home=tmp_path).stdout == board.stdout, "a rebuild changes nothing"


def test_an_unknown_ruleset_is_refused_by_name(tmp_path):
    refused = cinch("ratings", "americn62", home=tmp_path)
    assert refused.returncode == 2 and "unknown ruleset 'americn62'" in refused.stderr
    assert "Traceback" not in refused.stderr


def _ratings(home):
    shown = cinch("ratings", "american62", "--json", home=home)
    assert shown.returncode == 0, shown.stderr
    return {row["bot"]: {k: v for k, v in row.items() if k != "matches"} for row in json.loads(shown.stdout)["bots"]}


def test_the_same_boards_rate_the_same_however_the_tournaments_split_them(tmp_path):
    whole = cinch("tournament", "--bots", "rule", "search", "--boards", "6", "--chunk", "6", home=tmp_path / "a")
    assert whole.returncode == 0, whole.stderr
    for first in (1, 4):  # the same six boards as two tournaments of three, bots the other way round
        half = cinch(
            "tournament",
            "--bots",
            "search",
            "rule",
            "--first",
            str(first),
            "--boards",
            "3",
            "--chunk",
            "1",
            home=tmp_path / "b",
        )
        assert half.returncode == 0, half.stderr
    one, two = _ratings(tmp_path / "a"), _ratings(tmp_path / "b")
    assert one == two and set(one) == {"rule", "search"} and one["rule"]["boards"] == 6
    assert one["search"]["rating"] == -one["rule"]["rating"]
