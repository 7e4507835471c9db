"""Soak: N remote SDK bots through one ``cinch serve`` for a while, as a club would run it.

    python benchmarks/soak.py [--bots 16] [--minutes 30] [--workers 4]

Starts ``cinch serve`` exactly as a user would (embedded Redis in a fresh
``$CINCH_HOME``, gunicorn, local workers, the supervisor), registers N bots and runs each
as its own ``cinch bot run examples.random_bot:RandomBot`` process, then keeps API
tournaments of every format going, one after another (a round robin of all N remote
bots, one board pair a match; a gauntlet of a quarter of them against the rest; a blind
movement of all of them on two boards of a fresh secret set; a Progressive round at
N/4 tables) until the time is up, and lets the last one finish. Meanwhile it polls
``/ready`` and a tournament every second, samples the service's memory and open files
every 5 s and Redis's ``used_memory`` every minute.

At the end it reports: decisions answered by the bots (their own summaries) against the
actions in every stored board pair (each action is either an accepted answer or a
default applied at a timeout), so lost = timeouts and double-answered = answers beyond
the stored actions; 5xx answers seen by the poller, the bots and in the server's log;
the service's RSS and open files a minute in and at the end; and Redis's memory minute by
minute, with its change over the last half of the run (flat: within a few per cent).
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
import redis
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


def formats(names: list[str], index: int) -> dict:
    """The ``index``-th tournament's request: the formats in turn, each on boards no
    earlier tournament of the run used (public ``standard`` as practice, blind on a
    fresh secret set, as for untrusted bots)."""
    first = 1 + index * 7 % 900
    quarter = max(1, len(names) // 4)
    return [
        {
            "format": "round_robin",
            "bots": names,
            "boards": 1,
            "chunk": 1,
            "deals": "standard",
            "practice": True,
            "first": first,
        },
        {
            "format": "gauntlet",
            "candidates": names[:quarter],
            "references": names[quarter:],
            "boards": 1,
            "chunk": 1,
            "deals": "standard",
            "practice": True,
            "first": first,
        },
        {"format": "blind", "bots": names, "boards": 2},
        {"format": "progressive", "bots": names, "rounds": 1, "deals": "standard", "practice": True},
    ][index % 4]


def remote_actions(record: dict, names: set[str]) -> int:
    """Actions of a board record taken by the soak's remote bots: every action of a
    two-room or Progressive room (all seats remote), the entrant's unit only in a blind
    movement's own room, nothing of its par room."""
    rooms = record["rooms"]
    if "side" in record:  # blind: [the entrant's room, the par room]
        return sum(1 for a in rooms[0]["actions"] if a["seat"] in record["side"])
    return sum(len(room["actions"]) for room in rooms)


def redis_memory(home: Path) -> tuple[float, int, float] | None:
    """The embedded Redis's ``used_memory`` in MiB (its socket is in the home), with the
    decision keys (open and closed: the transient part) and their memory in MiB."""
    for path in home.rglob("*.sock"):
        try:
            r = redis.Redis(unix_socket_path=str(path))
            used = r.info("memory")["used_memory"] / 2**20
            keys = list(r.scan_iter(match="*:decision:*", count=1000))
            decisions = sum(r.memory_usage(k) or 0 for k in keys) / 2**20
            return used, len(keys), decisions
        except redis.RedisError:
            continue
    return None


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
    parser.add_argument("--seconds", type=float, default=None, help="how long to soak (default 5 minutes)")
    parser.add_argument("--minutes", type=float, default=None, help="the same in minutes")
    parser.add_argument("--workers", type=int, default=4)
    args = parser.parse_args()
    if args.seconds is not None and args.minutes is not None:
        parser.error("give --seconds or --minutes, not both")
    args.seconds = args.minutes * 60 if args.minutes is not None else (args.seconds or 300.0)

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
            token = http.post(f"{base}/bots", json={"name": name}, headers=admin, timeout=10).json()[
                "token"
            ]  # no rate limit
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
        memory: list[tuple[float, float, int, float]] = []  # (seconds in, used_memory, decision keys, their MiB)
        last_memory = -60.0
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
                    json=formats(names, len(tournaments)),
                )
                statuses[r.status_code] = statuses.get(r.status_code, 0) + 1
                if r.status_code != 201:
                    raise SystemExit(f"creating a tournament: {r.status_code} {r.text}")
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
            if now - last_memory >= 60:
                last_memory = now
                used = redis_memory(home)
                if used is not None:
                    memory.append((now - began, *used))
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
        kinds: dict[str, int] = {}
        for tid in tournaments:
            t = http.get(f"{base}/tournaments/{tid}", timeout=10).json()
            kinds[t["format"]] = kinds.get(t["format"], 0) + 1
            for m in http.get(f"{base}/tournaments/{tid}/matches", timeout=30).json():
                timeouts += sum(m["timeouts"].values())
                for board in range(m.get("first", t["first"]), m.get("last", t["first"] + t["boards"] - 1) + 1):
                    response = http.get(f"{base}/matches/{m['id']}/boards/{board}", timeout=30)
                    if response.status_code == 404:
                        continue  # not a board of this match (a Progressive table plays its round's)
                    record = response.json()
                    pairs += 1
                    actions += remote_actions(record, set(names))
                    defaulted += sum(len(room.get("faults", [])) for room in record["rooms"])
        server_log = serve_log.read_text(errors="replace")
        warm = next((s for s in samples if s[0] >= 60), samples[0])
        end = samples[-1]
        print(
            f"\nran {elapsed:.0f} s: {len(tournaments)} tournaments ({kinds}), {pairs} board records, "
            f"{actions} remote decisions stored"
        )
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
        if memory:
            print("Redis used_memory by minute (MiB): " + " ".join(f"{m[1]:.1f}" for m in memory))
            print("  of which decision keys: " + " ".join(f"{m[2]}/{m[3]:.2f}" for m in memory) + " (keys/MiB)")
            half = next(m for m in memory if m[0] >= memory[-1][0] / 2)
            print(
                f"over the last half: used_memory {half[1]:.1f} -> {memory[-1][1]:.1f} MiB, decision keys "
                f"{half[3]:.2f} -> {memory[-1][3]:.2f} MiB; the rest is the stored results "
                f"({(memory[-1][1] - memory[-1][3]) * 2**20 / max(pairs, 1):.0f} bytes a board record at the end)"
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
