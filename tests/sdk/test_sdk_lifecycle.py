"""Waiting made visible, and cancel and resume, through the SDK and ``cinch remote``.

A registered bot that is not running holds a tournament up: the tournament says which
bot it is waiting for. Once the bot runs, the tournament goes on; cancelled, it stops;
resumed, it finishes.
"""

import time

import pytest
from support.sdkharness import ADMIN, BotProcess, cinch_command, run_cli
from support.waiting import wait_for

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


def test_a_missing_bot_is_shown_and_cancel_and_resume_work(server, admin, rq_workers, bot_processes, tmp_path):
    token = admin.register_bot("late").token
    tid = admin.create_tournament(["late"], boards=40, chunk=1, limits={"decision_ms": 60_000})
    t = wait_for(lambda: (t := admin.tournament(tid)).waiting and t, "the tournament to show its waiting")
    assert t.status == "queued" and t.driver == "service"
    [late] = t.waiting
    assert late["bot"] == "late" and not late["connected"] and late["seen_seconds_ago"] is None
    wait_for(lambda: admin.tournament(tid).waiting[0]["open_decisions"] >= 1, "a decision for the bot")

    command = [*cinch_command(), "bot", "run", "examples.random_bot:RandomBot"]
    command += ["--server", server.url, "--token", token, "--wait", "5"]
    bot = BotProcess("late", command, tmp_path)
    bot_processes.append(bot)
    wait_for(lambda: admin.tournament(tid).pairs_done >= 2, "play to go on once the bot runs")
    now = admin.tournament(tid)
    assert now.status == "running" and now.waiting[0]["connected"]
    # Hold play where it is: a random bot can play the other 38 boards while the cancel's
    # process starts (CI saw "t1 is finished; there is nothing to cancel").
    bot.kill()

    cancelled = run_cli("remote", "tournament", "cancel", tid, "--server", server.url, "--admin-token", ADMIN)
    assert cancelled.returncode == 0 and "cancelled" in cancelled.stdout, cancelled.stderr
    assert admin.tournament(tid).status == "cancelled" and admin.tournament(tid).waiting == []
    watched = run_cli("remote", "tournament", "watch", tid, "--server", server.url)
    assert watched.returncode == 2 and "was cancelled" in watched.stderr and "resume" in watched.stderr
    time.sleep(2)
    frozen = admin.tournament(tid).pairs_done
    time.sleep(2)
    assert admin.tournament(tid).pairs_done == frozen < 40

    resumed = admin.resume_tournament(tid)
    assert resumed.status in ("queued", "running")
    assert admin.resume_tournament(tid).status in ("queued", "running"), "resuming twice is harmless"
    bot_processes.append(BotProcess("late-again", command, tmp_path))
    done = admin.wait_for_tournament(tid, poll=0.5, timeout=120)
    assert done.is_finished and done.pairs_done == 40
    assert [m.timeouts for m in admin.matches(tid)] == [{}]
