"""Soak: N remote SDK bots through one ``cinch serve`` for a while, as a club would run it.

    python benchmarks/soak.py [--bots 16] [--seconds 300] [--workers 4]

Starts ``cinch serve`` exactly as a user would (embedded Redis in a fresh
``$CINCH_HOME``, gunicorn, local workers, the supervisor), registers N bots and runs each
as its own ``cinch bot run examples.random_bot:RandomBot`` process, then keeps API
tournaments going (round robins of all N remote bots, one board pair a match) until the
time is up and lets the last one finish. Meanwhile it polls ``/ready`` and a tournament
every second and samples the service's memory and open files every 5 s.

At the end it reports: decisions answered by the bots (their own summaries) against the
actions in every stored board pair (each action is either an accepted answer or a
default applied at a timeout), so lost = timeouts and double-answered = answers beyond
the stored actions; 5xx answers seen by the poller, the bots and in the server's log;
and the service's RSS and open files a minute in and at the end.
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil
import requests

ROOT = Path(__file__).resolve().parents[1]
ADMIN = "soak-admin-token"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def service_processes(serve: psutil.Process, home: Path) -> list[psutil.Process]:
    """``cinch serve`` and everything it runs, the embedded redis-server included."""
    procs = [serve, *serve.children(recursive=True)]
    for p in psutil.process_iter(["cmdline"]):
        if "redis-server" in " ".join(p.info["cmdline"] or []) and p not in procs:
            try:
                if any(str(home) in (f.path or "") for f in p.open_files()) or str(home) in p.cwd():
                    procs.append(p)
            except psutil.Error:
                pass
    return procs


ROLES = ("redis-server", "gunicorn", "workers.worker", "workers.supervisor", "serve")


def role_of(p: psutil.Process) -> str:
    line = " ".join(p.cmdline())
    return next((r for r in ROLES if r in line), "other")


def sample(procs: list[psutil.Process]) -> tuple[float, int, dict[str, float]]:
    """Total RSS (MiB) and open files of the service, and RSS by role."""
    rss, fds, by_role = 0, 0, {}
    for p in procs:
        try:
            mine = p.memory_info().rss
            fds += p.num_fds()
            role = role_of(p)
        except psutil.Error:
            continue
        rss += mine
        by_role[role] = by_role.get(role, 0) + mine / 2**20
    return rss / 2**20, fds, by_role


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=300)
    parser.add_argument("--workers", type=int, default=4)
    args = parser.parse_args()

    home = Path(tempfile.mkdtemp(prefix="cinch-soak-"))
    port = free_port()
    base = f"http://127.0.0.1:{port}/api/v1"
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "CINCH_PREFIX")}
    env.update(CINCH_HOME=str(home), CINCH_ADMIN_TOKEN=ADMIN, PYTHONUNBUFFERED="1")
    serve_log = home / "serve.log"
    serve = subprocess.Popen(
        [sys.executable, "-m", "server.cli", "serve", "--bind", f"127.0.0.1:{port}", "--workers", str(args.workers)],
        cwd=ROOT,
        env=env,
        stdout=open(serve_log, "wb"),
        stderr=subprocess.STDOUT,
    )
    http = requests.Session()
    admin = {"Authorization": f"Bearer {ADMIN}"}
    bots: list[tuple[str, subprocess.Popen, Path]] = []
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if http.get(f"{base}/ready", timeout=2).status_code == 200:
                    break
            except requests.RequestException:
                pass
            if time.monotonic() > deadline:
                raise SystemExit("cinch serve did not come up:\n" + serve_log.read_text()[-2000:])
            time.sleep(0.2)
        for i in range(args.bots):
            name = f"soak{i:02d}"
            token = http.post(f"{base}/bots", json={"name": name}, timeout=10).json()["token"]
            http.post(f"{base}/bots/{name}/trust", json={"trusted": True}, headers=admin, timeout=10)  # round robin
            log = home / f"{name}.log"
            proc = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "server.cli",
                    "bot",
                    "run",
                    "examples.random_bot:RandomBot",
                    "--server",
                    f"http://127.0.0.1:{port}",
                    "--token",
                    token,
                    "--seed",
                    str(i),
                ],
                cwd=ROOT,
                env=env,
                stdout=open(log, "wb"),
                stderr=subprocess.STDOUT,
            )
            bots.append((name, proc, log))
        names = [b[0] for b in bots]
        service = service_processes(psutil.Process(serve.pid), home)
        print(
            f"{args.bots} bots, {args.workers} workers, {len(service)} service processes; "
            f"soaking for {args.seconds:.0f} s",
            flush=True,
        )

        began = time.monotonic()
        statuses: dict[int, int] = {}
        samples: list[tuple[float, float, int, dict[str, float]]] = []
        tournaments: list[str] = []
        current = None
        last_sample = 0.0
        while True:
            now = time.monotonic()
            if current is None and now - began < args.seconds:
                r = http.post(
                    f"{base}/tournaments",
                    headers=admin,
                    timeout=10,
                    json={
                        "bots": names,
                        "boards": 1,
                        "chunk": 1,
                        "deals": "standard",
                        "practice": True,
                        "first": 1 + len(tournaments) * 7 % 900,
                    },
                )
                statuses[r.status_code] = statuses.get(r.status_code, 0) + 1
                current = r.json()["id"]
                tournaments.append(current)
            for path in ("/ready", f"/tournaments/{current}" if current else "/tournaments"):
                try:
                    r = http.get(base + path, timeout=10)
                    statuses[r.status_code] = statuses.get(r.status_code, 0) + 1
                    if current and path.startswith("/tournaments/") and r.json().get("status") == "finished":
                        current = None
                except requests.RequestException as exc:
                    statuses[type(exc).__name__] = statuses.get(type(exc).__name__, 0) + 1
            if now - last_sample >= 5:
                last_sample = now
                samples.append((now - began, *sample(service)))
            if current is None and now - began >= args.seconds:
                break
            if now - began > args.seconds + 300:
                raise SystemExit(f"tournament {current} did not finish 5 minutes after the soak")
            time.sleep(1)
        elapsed = time.monotonic() - began

        answered = missed = bot_5xx = 0
        for _name, proc, log in bots:
            proc.send_signal(signal.SIGINT)
            proc.wait(timeout=30)
            text = log.read_text(errors="replace")
            found = re.findall(r"(\d+) decisions answered, \d+ illegal replaced, \d+ bot errors, (\d+) missed", text)
            answered += int(found[-1][0]) if found else 0
            missed += int(found[-1][1]) if found else 0
            bot_5xx += len(re.findall(r"\b5\d\d [A-Z][a-z]", text))  # an ApiError: "503 Service Unavailable"
        actions = timeouts = defaulted = pairs = 0
        for tid in tournaments:
            first = http.get(f"{base}/tournaments/{tid}", timeout=10).json()["first"]
            for m in http.get(f"{base}/tournaments/{tid}/matches", timeout=30).json():
                timeouts += sum(m["timeouts"].values())
                record = http.get(f"{base}/matches/{m['id']}/boards/{first}", timeout=30).json()
                pairs += 1
                actions += sum(len(room["actions"]) for room in record["rooms"])
                defaulted += sum(len(room.get("faults", [])) for room in record["rooms"])
        server_log = serve_log.read_text(errors="replace")
        warm = next((s for s in samples if s[0] >= 60), samples[0])
        end = samples[-1]
        print(f"\nran {elapsed:.0f} s: {len(tournaments)} tournaments, {pairs} board pairs, {actions} decisions stored")
        print(
            f"bots: {answered} answered, {missed} missed; timeouts recorded: {timeouts}, "
            f"default actions in the records: {defaulted}"
        )
        print(
            f"lost decisions: {defaulted + missed}; double-answered: {answered - (actions - defaulted)}"
            f" (bots' answers {answered} against stored decisions not defaulted {actions - defaulted})"
        )
        fivexx = {k: v for k, v in statuses.items() if isinstance(k, int) and k >= 500}
        print(f"poller responses: {dict(sorted(statuses.items(), key=str))}; 5xx: {sum(fivexx.values())}")
        print(
            f"server log: {server_log.count('500: unexpected')} logged 500s, {server_log.count('503:')} 503s; "
            f"5xx codes in bot logs: {bot_5xx}"
        )
        print(
            f"service RSS {warm[1]:.0f} MiB at {warm[0]:.0f} s -> {end[1]:.0f} MiB at {end[0]:.0f} s "
            f"({(end[1] - warm[1]) / warm[1] * 100:+.1f}%); open files {warm[2]} -> {end[2]}"
        )
        print(
            "  by role: "
            + ", ".join(f"{role} {warm[3].get(role, 0):.0f} -> {mib:.0f} MiB" for role, mib in sorted(end[3].items()))
        )
    finally:
        for _, proc, _ in bots:
            if proc.poll() is None:
                proc.kill()
        serve.send_signal(signal.SIGINT)
        try:
            serve.wait(timeout=30)
        except subprocess.TimeoutExpired:
            serve.kill()


if __name__ == "__main__":
    main()
