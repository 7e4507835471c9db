"""``cinch tournament`` and ``cinch compare`` as a user runs them: the zero-setup path.

No REDIS_URL: the command starts an embedded Redis and two local ``rq worker``
processes itself, plays through them, prints the results, and stops them again.
"""

import json
import os
import subprocess
import sys

import pytest


def cinch(*args, home, timeout=240):
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env["CINCH_HOME"] = str(home)
    return subprocess.run([sys.executable, "-m", "server.cli", *args], capture_output=True, text=True,
                          timeout=timeout, env=env)


def test_round_robin_on_the_embedded_arena(tmp_path):
    run = cinch("tournament", "--bots", "random", "rule", "--boards", "8", "--chunk", "3", "--json", home=tmp_path)
    assert run.returncode == 0, run.stderr
    results = json.loads(run.stdout)
    assert [row["bot"] for row in results["standings"]] == ["rule", "random"]
    assert results["standings"][0]["boards"] == 8
    match = results["matches"][0]
    assert match["status"] == "complete" and match["stats"]["boards"] == 8


def test_human_output_and_compare_from_stored_results(tmp_path):
    run = cinch("tournament", "--bots", "random", "rule", "--boards", "5", home=tmp_path)
    assert run.returncode == 0, run.stderr
    assert "Standings" in run.stdout and "Cross-table" in run.stdout and "Ratings" in run.stdout
    cmp = cinch("compare", "rule", "random", "--boards", "5", home=tmp_path)
    assert cmp.returncode == 0, cmp.stderr
    assert "(from match t1.m1)" in cmp.stdout          # stored, not played again
    assert cmp.stdout.count("\n") >= 8


@pytest.mark.parametrize("args, message", [
    (["--bots", "random", "nosuchbot"], "unknown bot 'nosuchbot'"),
    (["--boards", "0"], "boards must be"),
    (["--boards", "5000"], "boards must be"),
    (["--ruleset", "pedro99"], "unknown ruleset"),
    (["--deals", "nosuchset"], "no deal set"),
    (["--bots", "rule"], "at least two bots"),
])
def test_bad_requests_are_refused_cleanly(tmp_path, args, message):
    run = cinch("tournament", *args, home=tmp_path, timeout=60)
    assert run.returncode == 2
    assert message in run.stderr and "Traceback" not in run.stderr
