"""``cinch serve`` with no configuration: embedded Redis, local workers, gunicorn; signals stop all."""

import os
import re
import signal
import threading
import time
from pathlib import Path

import pytest
import requests
from support.cliharness import (
    assert_all_gone,
    cinch,
    command_lines,
    free_port,
    processes_of,
    start,
    wait_ready,
)
from support.waiting import wait_for

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


def serve(home):
    port = free_port()
    proc = start("serve", "--bind", f"127.0.0.1:{port}", home=home, stderr=None)
    admin = proc.stdout.readline().split("admin token for this run: ")[1].split()[0]
    base = f"http://127.0.0.1:{port}/api/v1"
    try:
        wait_ready(base)
    except BaseException:  # never come up: stop it and all it started, not leave them behind
        os.kill(proc.pid, signal.SIGINT)
        proc.wait(timeout=30)
        raise
    return proc, base, {"Authorization": f"Bearer {admin}"}


def wait_finished(base, tid, what):
    """Until the tournament is finished, for as long as it stores boards."""
    tournament = lambda: requests.get(f"{base}/tournaments/{tid}", timeout=5).json()
    wait_for(lambda: tournament()["status"] == "finished", what, lambda: tournament()["pairs_done"], poll=0.2)


def metrics_dir_of(proc) -> Path:
    """The metrics directory ``cinch serve`` printed (after its URL line)."""
    for _ in range(3):
        line = proc.stdout.readline()
        if line.startswith("metrics:"):
            return Path(line.rsplit("files in ", 1)[1].strip())
    raise AssertionError("cinch serve printed no metrics directory")


def test_serve_plays_a_tournament_and_stops_cleanly_on_ctrl_c(tmp_path):
    proc, base, admin = serve(tmp_path)
    metrics_dir = metrics_dir_of(proc)
    try:
        created = requests.post(
            f"{base}/tournaments", json={"bots": ["random", "rule"], "boards": 3}, headers=admin, timeout=10
        )
        assert created.status_code == 201, created.text
        docs = base.removesuffix("/api/v1") + "/docs/"
        unbuilt = requests.get(docs, timeout=5)
        assert unbuilt.status_code == 404 and "cinch docs build" in unbuilt.text
        assert cinch("docs", "build", home=tmp_path).returncode == 0  # into the home it serves: no restart
        built = requests.get(docs + "rules/american62.html", timeout=5)
        assert built.status_code == 200 and "american62" in built.text
        wait_finished(base, created.json()["id"], "the tournament to finish")
        # a private directory of this run, which the workers' and gunicorn's counts reach
        assert metrics_dir.is_dir() and metrics_dir.stat().st_mode & 0o077 == 0
        metrics = requests.get(base.removesuffix("/api/v1") + "/metrics", headers=admin, timeout=10)
        assert metrics.status_code == 200, metrics.text
        assert re.search(r"^cinch_boards_stored_total 3\.0$", metrics.text, re.M), metrics.text
        assert re.search(r'^cinch_http_responses_total\{method="POST",route="/api/v1/tournaments",status="2xx"\} 1\.0$',
                         metrics.text, re.M), metrics.text  # fmt: skip
        assert requests.get(base.removesuffix("/api/v1") + "/metrics", timeout=10).status_code == 401
        procs = processes_of(proc.pid, tmp_path)
        names = command_lines(procs)
        assert "workers.worker" in names and "gunicorn" in names and "redis-server" in names
    finally:
        os.kill(proc.pid, signal.SIGINT)
        assert proc.wait(timeout=30) == 130
    assert_all_gone(procs)
    assert not metrics_dir.exists()  # removed with the run


def first_legal(decision: dict) -> dict:
    """The first legal action; a rob is offered as a choice: keep the forced cards, then the first ones."""
    legal = decision["legal"][0]
    if legal["type"] != "rob":
        return legal
    free = [card for card in legal["from"] if card not in legal["must_keep"]]
    return {"type": "rob", "keep": legal["must_keep"] + free[: legal["size"] - len(legal["must_keep"])]}


def thin_bot(base: str, token: str, stop: threading.Event) -> None:
    """A remote bot in a few lines: long-poll, answer the first legal action."""
    headers = {"Authorization": f"Bearer {token}"}
    while not stop.is_set():
        got = requests.get(f"{base}/decisions/next?wait=1", headers=headers, timeout=10)
        if got.status_code == 200:
            decision = got.json()
            requests.post(f"{base}/decisions/{decision['id']}", json=first_legal(decision), headers=headers, timeout=10)


def test_other_commands_on_the_same_home_leave_the_server_running_and_sigterm_stops_it(tmp_path):
    proc, base, admin = serve(tmp_path)
    try:
        others = [
            start("compare", "rule", "random", "--boards", "3", home=tmp_path),
            start("tournament", "--bots", "random", "rule", "--boards", "3", "--json", home=tmp_path),
        ]
        for other in others:
            out, err = other.communicate(timeout=120)
            assert other.returncode == 0, err
        assert requests.get(f"{base}/ready", timeout=5).status_code == 200

        registered = requests.post(f"{base}/bots", json={"name": "thin"}, timeout=10)
        assert registered.status_code == 201, registered.text
        stop = threading.Event()
        bot = threading.Thread(target=thin_bot, args=(base, registered.json()["token"], stop), daemon=True)
        bot.start()
        created = requests.post(
            f"{base}/tournaments", json={"bots": ["thin", "random"], "boards": 1}, headers=admin, timeout=10
        )
        assert created.status_code == 201, created.text
        wait_finished(base, created.json()["id"], "the remote bot's tournament")
        stop.set()
        bot.join(timeout=15)
        procs = processes_of(proc.pid, tmp_path)
    finally:
        began = time.monotonic()
        proc.terminate()
        status = proc.wait(timeout=30)
    assert status == 143 and time.monotonic() - began < 15
    assert_all_gone(procs)
    again = cinch("tournament", "--bots", "random", "rule", "--boards", "2", "--json", home=tmp_path)
    assert again.returncode == 0, again.stderr
