"""Several commands on one ``CINCH_HOME`` share its embedded Redis; signals stop what a command started."""

import json
import os
import signal
import time

import pytest
from support.cliharness import assert_all_gone, cinch, cmdline, processes_of, redis_servers, start
from support.waiting import wait_for

pytestmark = pytest.mark.e2e

ROUND_ROBIN = ("tournament", "--bots", "random", "rule", "--json", "--boards")


def match_stats(output: str) -> list:
    """What a run's results say about play (ids and ratings differ between runs on one home)."""
    results = json.loads(output)
    return [(m["x"], m["y"], m["stats"]) for m in results["matches"]] + [results["standings"]]


@pytest.mark.slow
def test_two_tournaments_on_one_home_both_finish_with_their_own_results(tmp_path):
    # one job per worker for the long one, so the short one's jobs need not queue behind it;
    # the short one starts once the long one is playing, and the long one is long enough
    # (seconds, however fast the search bot gets) to outlast it
    long_args = ("tournament", "--bots", "random", "search", "--boards", "200", "--chunk", "100", "--json")
    short_args = (*ROUND_ROBIN, "4")
    home = tmp_path / "home"
    long = started(*long_args, home=home)
    short = start(*short_args, home=home)
    short_out, short_err = short.communicate(timeout=120)
    assert short.returncode == 0, short_err
    assert long.poll() is None, "the longer tournament should still be running when the shorter ends"
    long_out, long_err = long.communicate(timeout=180)
    assert long.returncode == 0, long_err
    assert not redis_servers(home), "the last command out stops the server"
    for n, (args, output) in enumerate(((short_args, short_out), (long_args, long_out))):
        alone = cinch(*args, home=tmp_path / f"alone{n}", timeout=180)
        assert alone.returncode == 0, alone.stderr
        assert match_stats(output) == match_stats(alone.stdout)


def started(*args, home):
    """A command started, once its two workers and the home's Redis are up."""
    proc = start(*args, home=home)
    wait_for(
        lambda: sum("workers.worker" in cmdline(p) for p in processes_of(proc.pid, home)) == 2 and redis_servers(home),
        "the workers and Redis",
    )
    return proc


def running_tournament(home):
    """A tournament long enough to be interrupted, into its jobs."""
    proc = started("tournament", "--bots", "random", "search", "--boards", "200", "--json", home=home)
    time.sleep(2)
    return proc


def test_sigterm_stops_a_tournament_and_everything_it_started(tmp_path):
    proc = running_tournament(tmp_path)
    procs = processes_of(proc.pid, tmp_path)
    began = time.monotonic()
    proc.terminate()
    assert proc.wait(timeout=30) == 143
    assert time.monotonic() - began < 12
    assert_all_gone(procs)
    again = cinch(*ROUND_ROBIN, "2", home=tmp_path)
    assert again.returncode == 0, again.stderr


@pytest.mark.slow
def test_the_workers_of_a_killed_tournament_stop_by_themselves(tmp_path):
    proc = running_tournament(tmp_path)
    workers = [p for p in processes_of(proc.pid, tmp_path) if "workers.worker" in cmdline(p)]
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=10)
    assert_all_gone(workers, timeout=15)
    again = cinch(*ROUND_ROBIN, "2", home=tmp_path)
    assert again.returncode == 0, again.stderr
    assert not redis_servers(tmp_path), "the next command adopted the server and stopped it"


def test_impossible_arguments_are_refused_without_a_traceback(tmp_path):
    for args, message in (
        (("compare", "rule", "random", "--boards", "0"), "--boards must be 1 or more"),
        (("compare", "rule", "random", "--boards", "-3"), "--boards must be 1 or more"),
        ((*ROUND_ROBIN, "2", "--workers", "0"), "--workers 0 needs REDIS_URL"),
        (("compare", "rule", "random", "--workers", "0"), "--workers 0 needs REDIS_URL"),
        ((*ROUND_ROBIN, "2", "--workers", "-1"), "--workers must be 0 or more"),
    ):
        run = cinch(*args, home=tmp_path, timeout=30)
        assert run.returncode == 2 and message in run.stderr and "Traceback" not in run.stderr, (args, run.stderr)
    assert not redis_servers(tmp_path)
