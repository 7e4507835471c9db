"""``cinch compare --sprt`` as a user runs it: the match stops as soon as the test decides."""

import re

import pytest
from redis import Redis
from support.cliharness import cinch

from server.arena.store import Store
from workers.embedded import EmbeddedRedis
from workers.jobs import QUEUE, queue_for

pytestmark = pytest.mark.e2e


def test_a_lopsided_match_stops_early_through_the_workers_and_leaves_no_job_queued(tmp_path):
    run = cinch("compare", "rule", "random", "--sprt", "--max-boards", "400", home=tmp_path, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "H1 accepted: rule is better than random" in run.stdout
    found = re.search(
        r"boards (\d+), LLR \+[\d.]+ \(bounds -3\.00, \+3\.00\), luck-corrected mean ([-+][\d.]+) "
        r"anytime 95% \[([-+][\d.]+), ([-+][\d.]+)\]",
        run.stdout,
    )
    boards, mean, low, high = int(found.group(1)), *map(float, found.groups()[1:])
    assert boards < 20 and low < mean < high, "decided within a few boards, with the interval valid at the stop"
    played = int(
        re.search(
            r"tournament t1 stopped the match once the test decided, with (\d+) of 400 board pairs", run.stdout
        ).group(1)
    )
    assert boards <= played < 100, "well before --max-boards"
    listed = cinch("tournament", "list", home=tmp_path, timeout=60)
    row = next(line.split() for line in listed.stdout.splitlines() if line.startswith("t1 "))
    assert row[1] == "finished" and row[5] == f"{played}/400"
    with EmbeddedRedis(tmp_path) as url, Redis.from_url(url) as redis:
        store = Store(redis)
        assert queue_for(store, QUEUE).get_job_ids() == [], "the match's queued jobs are gone"
        assert store.tournament("t1")["status"] == "finished" and store.complete_matches("t1") == {"t1.m1"}

    again = cinch("compare", "random", "rule", "--sprt", "--boards", "400", home=tmp_path, timeout=60)
    assert again.returncode == 0, again.stderr
    assert "H0 accepted: random is not better than rule" in again.stdout
    assert "(from match t1.m1)" in again.stdout and int(re.search(r"boards (\d+),", again.stdout).group(1)) <= played
    assert "tournament t2" not in again.stdout

    elsewhere = cinch("compare", "rule", "random", "--sprt", "--first", "201", home=tmp_path, timeout=300)
    assert elsewhere.returncode == 0, elsewhere.stderr
    assert "boards from 201 (from match t2.m1)" in elsewhere.stdout, "other boards: a test of its own"
    with EmbeddedRedis(tmp_path) as url, Redis.from_url(url) as redis:
        assert Store(redis).match("t2.m1")["first"] == 201


@pytest.mark.parametrize(
    "args, message",
    [
        (["--delta0", "5", "--delta1", "5"], "delta0 (5) must be less than delta1 (5)"),
        (["--alpha", "0.5"], "alpha must be between 0 and 0.5"),
        (["--beta", "0"], "beta must be between 0 and 0.5"),
        (["--boards", "50", "--max-boards", "60"], "--boards 50 and --max-boards 60 disagree"),
    ],
)
def test_bad_settings_are_refused_cleanly(tmp_path, args, message):
    run = cinch("compare", "search", "random", "--sprt", *args, home=tmp_path, timeout=60)
    assert run.returncode == 2
    assert message in run.stderr and "Traceback" not in run.stderr


def test_max_boards_belongs_to_the_sequential_test(tmp_path):
    run = cinch("compare", "rule", "random", "--max-boards", "60", home=tmp_path, timeout=60)
    assert run.returncode == 2
    assert "--max-boards is the most boards the --sprt test plays" in run.stderr and "Traceback" not in run.stderr


@pytest.mark.parametrize("bot", ["tests/support/local_bots.py:FirstLegal", "cmd:python3 examples/line_bot.py"])
def test_your_own_bot_against_rule_is_decided_in_one_command(tmp_path, bot):
    """The bot author's question, answered with no server, no token and no registration: a
    local sdk.Bot or a line-protocol program against the rule bot, tested until decided."""
    run = cinch("compare", bot, "rule", "--sprt", "--max-boards", "200", home=tmp_path, timeout=600)
    assert run.returncode == 0, run.stderr
    decided = re.search(r"^(H1|H0) accepted: ", run.stdout, re.M)
    assert decided, run.stdout
    boards = int(re.search(r"boards (\d+), LLR", run.stdout).group(1))
    assert boards < 200 and "anytime 95% [" in run.stdout, run.stdout
