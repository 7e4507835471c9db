"""Ctrl-C halfway through ``cinch tournament``, then ``resume``: as a user would do it.

The resumed tournament's results must equal an uninterrupted run's, no board pair may
be counted twice, and the ratings must move once per board pair.
"""

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time

import pytest

pytestmark = pytest.mark.e2e

BOARDS = 200  # long enough to be interrupted halfway: some seconds, with a search bot at ~0.05 s a pair
ARGS = ["--bots", "search", "rule", "--boards", str(BOARDS), "--chunk", "2", "--seed", "5"]


def env_for(home):
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env["CINCH_HOME"] = str(home)
    return env


def cinch(*args, home, timeout=240):
    return subprocess.run(
        [sys.executable, "-m", "server.cli", *args], capture_output=True, text=True, timeout=timeout, env=env_for(home)
    )


def per_board(results):
    return [(m["x"], m["y"], m["stats"]) for m in results["matches"]]


@pytest.mark.slow
def test_ctrl_c_leaves_the_tournament_interrupted_and_resume_finishes_it_exactly(tmp_path):
    home = tmp_path / "interrupted"
    proc = subprocess.Popen(
        [sys.executable, "-m", "server.cli", "tournament", *ARGS],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env_for(home),
        text=True,
    )
    seen = []
    reader = threading.Thread(target=lambda: seen.extend(iter(lambda: proc.stderr.read(1), "")), daemon=True)
    reader.start()
    deadline = time.monotonic() + 120
    while not any(int(n) >= 3 for n in re.findall(rf"\b(\d+)/{BOARDS}\b", "".join(seen))):
        assert proc.poll() is None and time.monotonic() < deadline, "".join(seen)[-2000:]
        time.sleep(0.1)
    proc.send_signal(signal.SIGINT)
    assert proc.wait(timeout=30) == 130
    reader.join(timeout=5)
    err = "".join(seen)
    assert "cinch tournament resume t1" in err and "Traceback" not in err

    listing = cinch("tournament", "list", home=home)
    assert re.search(r"t1\s+interrupted\s", listing.stdout), listing.stdout + listing.stderr
    done = int(re.search(rf"(\d+)/{BOARDS}", listing.stdout).group(1))
    assert 3 <= done < BOARDS, "interrupted halfway"

    resumed = cinch("tournament", "resume", "t1", "--json", home=home)
    assert resumed.returncode == 0, resumed.stderr
    alone = cinch("tournament", *ARGS, "--json", home=tmp_path / "alone")
    assert alone.returncode == 0, alone.stderr
    assert per_board(json.loads(resumed.stdout)) == per_board(json.loads(alone.stdout))

    listing = cinch("tournament", "list", home=home).stdout
    assert re.search(rf"t1\s+finished\s.*{BOARDS}/{BOARDS}", listing), listing
    ratings = cinch("ratings", home=home).stdout
    assert ratings.count(f"1 match, {BOARDS} boards)") == 2, ratings  # both bots, once per pair
    again = cinch("tournament", "resume", "t1", home=home)
    assert again.returncode == 2 and "finished" in again.stderr and "Traceback" not in again.stderr


def test_cancel_and_unknown_ids_are_clean_errors(tmp_path):
    run = cinch("tournament", "cancel", "t9", home=tmp_path)
    assert run.returncode == 2 and "no tournament 't9'" in run.stderr and "Traceback" not in run.stderr
    run = cinch("tournament", "resume", "t9", home=tmp_path)
    assert run.returncode == 2 and "no tournament 't9'" in run.stderr
