"""Run ``docker-compose.yml`` and the ``Dockerfile`` for real, without Docker Hub.

    python3 tools/compose_check.py [--keep-images] [--rebuild-base] [--mirror URL]

Needs root, a running Docker engine, Compose (``docker compose`` or ``docker-compose``)
and, for the base images, ``mmdebstrap``. The standard library only: no venv needed.

1. Two base images made from Debian bookworm's packages (``mmdebstrap``, ``docker
   import``), in place of Docker Hub's: ``cinch-check/python:bookworm`` (python3 3.11,
   its venv module and headers, and the host's CA certificates, so that pip in the build
   trusts what the host trusts, a TLS-intercepting proxy included) and
   ``cinch-check/redis:bookworm`` (redis-server). Kept between runs (``--rebuild-base``
   makes them again).
2. ``compose build`` and ``compose up -d --scale worker=2`` with those images
   (``CINCH_PYTHON_IMAGE``, ``CINCH_REDIS_IMAGE``), a fresh admin token and free host
   ports (``CINCH_API_PORT``, ``CINCH_REDIS_PORT``), as project ``cinch-check``.
3. The api and both workers' healthchecks say ``healthy``.
4. ``compose run --rm cli cinch tournament --boards 2 --bots random rule --json``: both
   bots played both board pairs.
5. A tournament through the API with the admin token (search against rule, 40 board
   pairs in jobs of 10); once a worker is inside a job, its container is killed
   (SIGKILL from the host, as a crash); the tournament must still finish with every
   board pair stored, the supervisor having given the lost job's boards to the other
   worker, and Docker must have restarted the container (healthy again).
6. ``compose down -v`` (volumes too; the built images too unless ``--keep-images``),
   whatever happened.

Prints each step's time and the total; exits 0 when every check passed, 1 when one
failed, 2 when it cannot run here (no engine, no Compose, no mmdebstrap).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROJECT = "cinch-check"
PYTHON_IMAGE = "cinch-check/python:bookworm"
REDIS_IMAGE = "cinch-check/redis:bookworm"
HOST_CA = Path("/etc/ssl/certs/ca-certificates.crt")
HEALTHY_WITHIN = 120  # s: the healthchecks run every 15 s
FINISH_WITHIN = 300  # s: a lost job is noticed within about 15 s, then replayed


class CheckFailed(Exception):
    pass


class CannotRun(Exception):
    pass


def run(cmd: list[str], **kwargs) -> subprocess.CompletedProcess:
    kwargs.setdefault("check", True)
    return subprocess.run(cmd, **kwargs)


def output(cmd: list[str], **kwargs) -> str:
    return run(cmd, capture_output=True, text=True, **kwargs).stdout


def compose_command() -> list[str]:
    """``docker compose`` (v2) when the plugin is there, else ``docker-compose`` (v1,
    Debian bookworm's package)."""
    if subprocess.run(["docker", "compose", "version"], capture_output=True).returncode == 0:
        return ["docker", "compose"]
    if shutil.which("docker-compose"):
        return ["docker-compose"]
    raise CannotRun("no Compose: neither `docker compose` nor `docker-compose` runs")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def image_exists(name: str) -> bool:
    return subprocess.run(["docker", "image", "inspect", name], capture_output=True).returncode == 0


def debian_image(name: str, packages: list[str], changes: list[str], mirror: str, hooks: list[str] = ()) -> None:
    """A bookworm image with ``packages`` (minbase), made by mmdebstrap and docker import."""
    if shutil.which("mmdebstrap") is None:
        raise CannotRun("no mmdebstrap to make the base images (apt-get install mmdebstrap)")
    with tempfile.TemporaryDirectory(prefix="cinch-check-") as tmp:
        tar = Path(tmp) / "rootfs.tar"
        cmd = ["nice", "-n", "10", "mmdebstrap", "--quiet", "--variant=minbase", "--include=" + ",".join(packages)]
        cmd += [f"--customize-hook={hook}" for hook in hooks]
        run([*cmd, "bookworm", str(tar), mirror])
        run(["docker", "import", *(f"--change={c}" for c in changes), str(tar), name], capture_output=True)


def base_images(mirror: str, rebuild: bool) -> None:
    if rebuild or not image_exists(PYTHON_IMAGE):
        hooks = []
        if HOST_CA.exists():  # update-ca-certificates keeps it in the image's bundle whatever is installed later
            hooks = [
                f"copy-in {HOST_CA} /usr/local/share/ca-certificates/",
                'mv "$1/usr/local/share/ca-certificates/ca-certificates.crt" "$1/usr/local/share/ca-certificates/host.crt"',
                'chroot "$1" update-ca-certificates',
            ]
        debian_image(
            PYTHON_IMAGE,
            ["python3", "python3-venv", "python3-dev", "ca-certificates"],
            ['CMD ["python3"]'],
            mirror,
            hooks,
        )
    if rebuild or not image_exists(REDIS_IMAGE):
        debian_image(REDIS_IMAGE, ["redis-server"], ["WORKDIR /data", 'CMD ["redis-server"]'], mirror)


class Stack:
    """The compose project: its commands, its containers, its API."""

    def __init__(self, compose: list[str]):
        self.token = "cinch_admin_" + secrets.token_urlsafe(24)
        self.api_port, redis_port = free_port(), free_port()
        self.env = {
            **os.environ,
            "CINCH_ADMIN_TOKEN": self.token,
            "CINCH_PYTHON_IMAGE": PYTHON_IMAGE,
            "CINCH_REDIS_IMAGE": REDIS_IMAGE,
            "CINCH_API_PORT": str(self.api_port),
            "CINCH_REDIS_PORT": str(redis_port),
        }
        self.base = [*compose, "-p", PROJECT, "-f", str(ROOT / "docker-compose.yml")]

    def compose(self, *args: str, **kwargs) -> subprocess.CompletedProcess:
        return run([*self.base, *args], env=self.env, cwd=ROOT, **kwargs)

    def containers(self, service: str) -> list[str]:
        ids = self.compose("ps", "-q", service, capture_output=True, text=True).stdout.split()
        return sorted(output(["docker", "inspect", "-f", "{{.Name}}", i]).strip().lstrip("/") for i in ids)

    def health(self, name: str) -> str:
        return output(["docker", "inspect", "-f", "{{if .State.Health}}{{.State.Health.Status}}{{end}}", name]).strip()

    def logs(self, name: str) -> str:
        return run(["docker", "logs", name], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True).stdout

    def api(self, method: str, path: str, body: dict | None = None) -> dict:
        request = urllib.request.Request(
            f"http://127.0.0.1:{self.api_port}/api/v1{path}",
            method=method,
            data=None if body is None else json.dumps(body).encode(),
            headers={"Authorization": f"Bearer {self.token}", "Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.load(response)


def wait_healthy(stack: Stack, workers: int) -> None:
    deadline = time.monotonic() + HEALTHY_WITHIN
    while True:
        names = stack.containers("api") + stack.containers("worker")
        states = {name: stack.health(name) for name in names}
        if len(names) == 1 + workers and all(s == "healthy" for s in states.values()):
            print("  healthy:", ", ".join(sorted(states)))
            return
        if time.monotonic() > deadline:
            raise CheckFailed(f"not healthy within {HEALTHY_WITHIN} s: {states}")
        time.sleep(2)


def cli_tournament(stack: Stack) -> None:
    done = stack.compose(
        "run", "--rm", "-T", "cli", "cinch", "tournament", "--boards", "2", "--bots", "random", "rule", "--json",
        capture_output=True, text=True,
    )  # fmt: skip
    start = re.search(r"^\{$", done.stdout, re.MULTILINE)  # after whatever compose printed first
    if start is None:
        raise CheckFailed(f"the CLI printed no results:\n{done.stdout}")
    results = json.loads(done.stdout[start.start() :])
    boards = {row["bot"]: row["boards"] for row in results["standings"]}
    print(f"  cli: tournament {results['tournament']}: boards per bot {boards}")
    if boards != {"random": 2, "rule": 2}:
        raise CheckFailed(f"the CLI's tournament did not play 2 board pairs for each bot: {boards}")


def in_a_job(log: str) -> bool:
    """The worker's last job event is a start: it is playing boards now."""
    events = re.findall(r"(: started\"|Job OK)", log)
    return bool(events) and events[-1] != "Job OK"


def killed_worker_tournament(stack: Stack) -> None:
    created = stack.api("POST", "/tournaments", {"bots": ["search", "rule"], "boards": 40, "chunk": 10})
    tid = created["id"]
    deadline = time.monotonic() + 60
    victim = None
    while victim is None:
        victim = next((w for w in stack.containers("worker") if in_a_job(stack.logs(w))), None)
        if time.monotonic() > deadline:
            raise CheckFailed(f"tournament {tid}: no worker started a job within 60 s")
        time.sleep(0.2)
    # SIGKILL to the container's process from the host, as a crash: `docker kill` would
    # count as a stop by hand, which restart: unless-stopped leaves stopped
    os.kill(int(output(["docker", "inspect", "-f", "{{.State.Pid}}", victim])), signal.SIGKILL)
    killed = time.monotonic()
    t = stack.api("GET", f"/tournaments/{tid}")
    print(
        f"  api: tournament {tid}: killed {victim}'s worker inside a job at {t['pairs_done']}/{t['pairs_total']} pairs"
    )
    if not in_a_job(stack.logs(victim)):
        raise CheckFailed(f"{victim} finished its job before it was killed: nothing was lost, nothing to check")
    deadline = time.monotonic() + FINISH_WITHIN
    while (t := stack.api("GET", f"/tournaments/{tid}"))["status"] != "finished":
        if t["status"] in ("failed", "cancelled") or time.monotonic() > deadline:
            raise CheckFailed(f"tournament {tid}: {t['status']} at {t['pairs_done']}/{t['pairs_total']}")
        time.sleep(1)
    print(f"  api: tournament {tid} finished {time.monotonic() - killed:.0f} s after the kill")
    if t["pairs_done"] != t["pairs_total"] or t["pairs_total"] != 40:
        raise CheckFailed(f"tournament {tid}: {t['pairs_done']} of {t['pairs_total']} board pairs stored")
    standings = stack.api("GET", f"/tournaments/{tid}/results")["standings"]
    boards = {row["bot"]: row["boards"] for row in standings}
    print(f"  api: tournament {tid}: boards per bot {boards}")
    if boards != {"search": 40, "rule": 40}:
        raise CheckFailed(f"tournament {tid}: boards per bot {boards}, not 40 each")
    api_log = "".join(stack.logs(name) for name in stack.containers("api"))
    if "lost its worker" not in api_log:
        raise CheckFailed("the supervisor never said it gave a lost job's boards to another worker")
    restarts = int(output(["docker", "inspect", "-f", "{{.RestartCount}}", victim]))
    if restarts < 1:
        raise CheckFailed(f"{victim} was not restarted (restart: unless-stopped)")
    wait_healthy(stack, 2)
    print(f"  {victim}: restarted by Docker, healthy again")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--keep-images", action="store_true", help="keep the built images (the base images are kept anyway)"
    )
    parser.add_argument("--rebuild-base", action="store_true", help="make the Debian base images again")
    parser.add_argument("--mirror", default="http://deb.debian.org/debian", help="the Debian mirror for mmdebstrap")
    args = parser.parse_args()

    began = time.monotonic()
    timings: list[tuple[str, float]] = []

    def step(name: str, fn, *a) -> None:
        print(f"{name} ...", flush=True)
        t0 = time.monotonic()
        fn(*a)
        timings.append((name, time.monotonic() - t0))
        print(f"  {timings[-1][1]:.0f} s", flush=True)

    try:
        info = subprocess.run(["docker", "info", "--format", "{{.ServerVersion}}"], capture_output=True, text=True)
        if info.returncode != 0:
            raise CannotRun(f"no Docker engine reachable: {info.stderr.strip() or info.stdout.strip()}")
        compose = compose_command()
        print(f"Docker engine {info.stdout.strip()}; compose: {' '.join(compose)}")
        step("base images from Debian's packages", base_images, args.mirror, args.rebuild_base)
    except CannotRun as exc:
        print(f"cannot run: {exc}", file=sys.stderr)
        return 2

    stack = Stack(compose)
    failed = None
    try:
        step("compose build", lambda: stack.compose("build", "-q"))
        step("compose up -d --scale worker=2", lambda: stack.compose("up", "-d", "--scale", "worker=2"))
        step("healthchecks", wait_healthy, stack, 2)
        step("compose run cli: a tournament", cli_tournament, stack)
        step("an API tournament, a worker killed", killed_worker_tournament, stack)
    except (CheckFailed, subprocess.CalledProcessError, OSError, ValueError, KeyError) as exc:
        failed = exc
        detail = getattr(exc, "stderr", None)
        print(f"FAILED: {exc}" + (f"\n{detail}" if detail else ""), file=sys.stderr)
        for service in ("api", "worker"):
            for name in stack.containers(service):
                print(f"--- last lines of {name}:\n" + "\n".join(stack.logs(name).splitlines()[-15:]), file=sys.stderr)
    finally:
        down = ["down", "-v", "--remove-orphans"] + ([] if args.keep_images else ["--rmi", "local"])
        step("compose " + " ".join(down), lambda: stack.compose(*down, capture_output=True))
    print("\n".join(f"{seconds:6.0f} s  {name}" for name, seconds in timings))
    print(f"{time.monotonic() - began:6.0f} s  in all: {'FAILED' if failed else 'passed'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
