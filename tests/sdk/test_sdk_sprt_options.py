"""The sequential test's options and lines, shared by the local CLI and ``cinch remote`` (no server)."""

import argparse

import pytest

from sdk.sprt_options import SETTINGS, add_sprt_arguments, board_count, sprt_request
from sdk.text import sprt_decision
from server.arena.tournaments import SPRT_SETTINGS
from server.cli import sprt_options as local


def test_the_sprt_options_are_one_definition_with_the_local_defaults_or_the_servers():
    assert tuple(SPRT_SETTINGS) == SETTINGS
    remote = argparse.ArgumentParser()
    add_sprt_arguments(remote, "cap")
    assert sprt_request(remote.parse_args(["--sprt", "--beta", "0.1"])) == {"sprt": {"beta": 0.1}}
    assert sprt_request(remote.parse_args(["--beta", "0.1"])) == {}
    here = argparse.ArgumentParser()
    local.add_sprt_arguments(here, "cap")
    assert local.sprt_request(here.parse_args(["--sprt", "--beta", "0.1"])) == {"sprt": {**SPRT_SETTINGS, "beta": 0.1}}


def test_board_count_takes_max_boards_only_with_sprt_and_only_when_it_agrees():
    assert board_count(None, None, True) is None and board_count(7, None, False) == 7
    assert board_count(None, 9, True) == board_count(9, 9, True) == 9
    with pytest.raises(ValueError, match="without --sprt"):
        board_count(None, 9, False)
    with pytest.raises(ValueError, match="disagree"):
        board_count(8, 9, True)


def test_a_decision_line_is_short_and_none_while_undecided():
    sprt = {"decision": "H1", "boards": 14, "anytime_low": 2.06, "anytime_high": 56.0}
    assert (
        sprt_decision("random", "rule", sprt)
        == "random vs rule: H1 accepted after 14 boards, anytime 95% [+2.1, +56.0]"
    )
    assert sprt_decision("a", "b", {**sprt, "decision": "inconclusive"}).startswith("a vs b: inconclusive after 14")
    assert sprt_decision("a", "b", {**sprt, "decision": None}) is None
    assert sprt_decision("a", "b", {}) is None
