"""``cmd:COMMAND`` entrants through the real CLI: the example line bots (Python and Node.js)
play tournaments and comparisons in real worker processes, and bad commands are refused."""

import json
import os
import shutil
import subprocess
import sys

import pytest

from server.arena.store import Store

pytestmark = pytest.mark.e2e

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


def cinch(*args, store=None, redis_url=None, home, timeout=240):
    """The CLI as a user runs it; given ``store``, on the test's Redis under its prefix with
    two worker processes of its own, so the test reads what was stored."""
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env["CINCH_HOME"] = str(home)
    if store is not None:
        env["REDIS_URL"] = redis_url
        env["CINCH_PREFIX"], env["CINCH_QUEUE"] = store.prefix, store.queue_name
        args = (*args, "--workers", "2")
    return subprocess.run(
        [sys.executable, "-m", "server.cli", *args], capture_output=True, text=True, timeout=timeout, env=env, cwd=ROOT
    )


def check_played(store: Store, entrant: str, boards: int) -> None:
    """The tournament finished with every board stored, the entrant's decisions in every
    room it sat in, and no fault or timeout anywhere."""
    (tid,) = store.tournament_ids()
    t = store.tournament(tid)
    assert t["status"] == "finished"
    assert t["local"][entrant]["kind"] == "cmd" and t["local"][entrant]["cwd"] == ROOT
    (mid,) = store.match_ids(tid)
    assert entrant in (store.match(mid)["x"], store.match(mid)["y"])
    assert store.timeouts(mid) == {}
    for n in range(1, boards + 1):
        pair = store.pair(mid, n)
        assert pair is not None
        for room in pair["rooms"]:
            assert room["faults"] == [], room["faults"]
            assert len(room["actions"]) > 4  # bids, trump, the draw and the tricks, every seat asked


@pytest.mark.parametrize(
    "command",
    [
        f"{sys.executable} examples/line_bot.py",
        pytest.param(
            "node examples/line_bot.js",
            marks=pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed"),
        ),
    ],
    ids=["python", "node"],
)
def test_a_line_bot_plays_a_tournament_in_worker_processes(store, redis_url, tmp_path, command):
    run = cinch(
        "tournament",
        *("--bots", f"cmd:{command}", "rule", "--boards", "4", "--json"),
        store=store,
        redis_url=redis_url,
        home=tmp_path,
    )
    assert run.returncode == 0, run.stderr
    results = json.loads(run.stdout)
    assert {row["bot"] for row in results["standings"]} == {f"cmd:{command}", "rule"}
    check_played(store, f"cmd:{command}", 4)


def test_compare_plays_a_line_bot_afresh_each_time(store, redis_url, tmp_path):
    """A program may change between runs: a second compare plays again instead of reusing."""
    for _ in range(2):
        run = cinch(
            "compare",
            *(f"cmd:{sys.executable} examples/line_bot.py", "rule", "--boards", "2"),
            store=store,
            redis_url=redis_url,
            home=tmp_path,
        )
        assert run.returncode == 0, run.stderr
        assert "luck-corrected mean" in run.stdout
    assert len(store.tournament_ids()) == 2


@pytest.mark.parametrize(
    "bot, message",
    [
        ("cmd:", "the command is empty"),
        ("cmd:no-such-program-anywhere", "no program 'no-such-program-anywhere' on PATH"),
    ],
)
def test_a_bad_command_is_a_clear_usage_error(tmp_path, bot, message):
    for args in (("tournament", "--bots", bot, "rule", "--boards", "2"), ("compare", bot, "rule", "--boards", "2")):
        run = cinch(*args, home=tmp_path, timeout=60)
        assert run.returncode == 2 and message in run.stderr, run.stderr
        assert "Traceback" not in run.stderr
