"""The systemd units of ``deploy/systemd/``, run as systemd would run them, without systemd.

Each unit is rendered (its ``EnvironmentFile``, the example ``cinch.env`` with this test's
Redis, prefix, queue and free ports; its specifiers ``%i`` and ``%H``; its ``${VAR}``s; the
install path ``/opt/cinch/venv/bin`` as this checkout's ``.venv/bin``), and its
``ExecStart`` line is started as a real process with only the environment systemd would
give it, and a ``NOTIFY_SOCKET`` for the ``Type=notify`` ones. Then: every role says it is
ready (``READY=1`` and a ``WATCHDOG=1`` to the socket; ``cinch health ... --ready`` exits
0), a tournament created through the API completes, the workers' own ``/metrics`` (the
admin's token, ``--metrics-port``) counted its jobs and boards, and ``KillSignal``
(SIGTERM; no unit has an ``ExecStop``) stops each within its ``TimeoutStopSec`` with an
exit status the unit counts as success, after which ``cinch health`` exits 1.
"""

from __future__ import annotations

import configparser
import os
import re
import shlex
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests
from prometheus_client.parser import text_string_to_metric_families
from support.apiclient import ADMIN, Api, wait_finished
from support.apiserver import free_port
from support.waiting import wait_for

# One process runs the module (./dev test --dist loadgroup): its module-scoped fixture is built once.
pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.xdist_group("systemd_units")]

UNITS = Path(__file__).resolve().parents[2] / "deploy" / "systemd"
BIN = Path(sys.executable).parent  # this checkout's .venv/bin, where /opt/cinch/venv/bin would be
INSTALLED = "/opt/cinch/venv/bin/"


def unit(name: str) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(interpolation=None, strict=True)
    parser.optionxform = str  # systemd's keys are case-sensitive
    parser.read(UNITS / name)
    return parser


def environment_file(path: Path) -> dict[str, str]:
    """``KEY=value`` lines, as systemd reads an ``EnvironmentFile`` (comments and blanks skipped)."""
    out = {}
    for line in path.read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            key, _, value = line.partition("=")
            out[key.strip()] = value.strip()
    return out


def render(line: str, env: dict[str, str], instance: str = "") -> list[str]:
    """An ``ExecStart`` as systemd runs it: specifiers, then ``${VAR}`` from the environment."""
    line = line.replace("%i", instance).replace("%H", socket.gethostname()).replace("%%", "%")
    line = re.sub(r"\$\{(\w+)\}", lambda m: env[m.group(1)], line)
    argv = shlex.split(line)
    assert argv[0].startswith(INSTALLED), f"ExecStart must run the installed cinch: {argv[0]}"
    return [str(BIN / argv[0][len(INSTALLED) :]), *argv[1:]]


class Role:
    """One unit's ``ExecStart`` running as a process, with its notify socket."""

    def __init__(self, name: str, argv: list[str], env: dict[str, str], notify: Path | None, log: Path):
        self.name, self.notify = name, None
        if notify is not None:
            self.notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
            self.notify.bind(str(notify))
            self.notify.settimeout(0.2)
            env = {**env, "NOTIFY_SOCKET": str(notify)}
        self.log = log
        self.proc = subprocess.Popen(
            argv,
            env=env,
            cwd=env["CINCH_HOME"],
            stdout=open(log, "wb"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.told: list[str] = []

    def read_notices(self) -> list[str]:
        while self.notify is not None:
            try:
                self.told += self.notify.recv(4096).decode().split("\n")
            except TimeoutError:
                break
        return self.told


def health(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run([str(BIN / "cinch"), "health", *args], env=env, capture_output=True, text=True, timeout=30)


def scrape(port: int, token: str | None = ADMIN) -> dict[str, float]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    r = requests.get(f"http://127.0.0.1:{port}/metrics", headers=headers, timeout=10)
    assert r.status_code == 200, r.text
    return {s.name: s.value for f in text_string_to_metric_families(r.text) for s in f.samples if not s.labels}


@pytest.fixture(scope="module")
def deployed(redis_url, tmp_path_factory):
    """Every unit's process on one Redis prefix of its own, stopped (and checked) at the end."""
    from support.backend import fresh_store

    tmp = tmp_path_factory.mktemp("systemd")
    home = tmp / "var-lib-cinch"
    home.mkdir()
    with fresh_store(redis_url) as store:
        env_file = environment_file(UNITS / "cinch.env")
        env_file.update(
            REDIS_URL=redis_url,
            CINCH_ADMIN_TOKEN=ADMIN,
            CINCH_BIND=f"127.0.0.1:{free_port()}",
            CINCH_HOME=str(home),
            CINCH_SUPERVISOR_PORT=str(free_port()),
            CINCH_PREFIX=store.prefix,  # the test's own keys and queue on the shared test Redis
            CINCH_QUEUE=store.queue_name,
        )
        env = {"PATH": os.environ["PATH"], "LANG": "C.UTF-8", **env_file}  # what systemd passes, and the file
        workers = [str(free_port()), str(free_port())]
        plan = [("cinch-api.service", "", None), ("cinch-supervisor.service", "", "")]
        plan += [("cinch-worker@.service", port, port) for port in workers]
        roles = {}
        for name, instance, _ in plan:
            spec = unit(name)["Service"]
            assert spec["EnvironmentFile"] == "/etc/cinch/cinch.env" and "ExecStop" not in spec
            label = name.replace("@", f"@{instance}")
            notify = tmp / f"{label}.notify" if spec.get("Type") == "notify" else None
            roles[label] = Role(label, render(spec["ExecStart"], env, instance), env, notify, tmp / f"{label}.log")
        yield roles, env, store, workers
        for role in roles.values():
            if role.proc.poll() is None:
                os.killpg(role.proc.pid, signal.SIGKILL)
                role.proc.wait()


def test_each_role_comes_up_plays_a_tournament_and_stops_on_sigterm(deployed):
    roles, env, store, workers = deployed
    api = Api(f"http://{env['CINCH_BIND']}")
    supervisor_port = env["CINCH_SUPERVISOR_PORT"]

    probes = {
        ("api", env["CINCH_BIND"].rpartition(":")[2]): f"http://{env['CINCH_BIND']}/api/v1/ready",
        ("supervisor", supervisor_port): f"http://127.0.0.1:{supervisor_port}/ready",
        **{("worker", port): f"http://127.0.0.1:{port}/ready" for port in workers},
    }

    def answers(url):
        try:
            return requests.get(url, timeout=5).status_code == 200
        except requests.RequestException:  # not listening yet, or gunicorn's processes still booting
            return False

    def every_role_ready():
        for label, role in roles.items():
            assert role.proc.poll() is None, f"{label} exited: {role.log.read_text()[-2000:]}"
        return all(answers(url) for url in probes.values())

    wait_for(every_role_ready, "every unit's process to be ready", poll=0.2)
    for role, port in probes:  # and the probe a compose healthcheck or a timer would run says so
        assert health(role, "--ready", "--port", port, env=env).returncode == 0
    for label, role in roles.items():  # Type=notify: told systemd it started, and beats its watchdog
        if role.notify is not None:
            wait_for(lambda: {"READY=1", "WATCHDOG=1"} <= set(role.read_notices()), f"{label} to notify systemd")

    before = [scrape(int(port)) for port in workers]
    assert requests.get(f"http://127.0.0.1:{workers[0]}/metrics", timeout=10).status_code == 401  # the admin's
    created = api.call("POST", "/api/v1/tournaments", ADMIN, json={"bots": ["random", "rule"], "boards": 4, "chunk": 1})
    assert created.status_code == 201, created.text
    finished = wait_finished(api, created.json()["id"])
    assert finished["pairs_done"] == finished["pairs_total"] == 4
    after = [scrape(int(port)) for port in workers]

    def moved(name):
        return sum(a.get(name, 0) - b.get(name, 0) for a, b in zip(after, before))

    assert moved("cinch_boards_stored_total") == 4  # every board pair, counted by the worker that stored it
    assert moved("cinch_jobs_started_total") == moved("cinch_jobs_finished_total") >= 4
    assert "cinch_jobs_requeued_total" in scrape(int(supervisor_port))

    for label, role in roles.items():  # KillSignal=SIGTERM; no ExecStop
        spec = unit(label.split("@")[0] + ("@.service" if "@" in label else ""))["Service"]
        clean = {0, *(int(s) for s in spec.get("SuccessExitStatus", "").split())}
        started = time.monotonic()
        role.proc.send_signal(signal.SIGTERM)
        status = role.proc.wait(timeout=int(spec["TimeoutStopSec"]))
        assert status in clean, f"{label} exited {status} on SIGTERM: {role.log.read_text()[-2000:]}"
        assert time.monotonic() - started < int(spec["TimeoutStopSec"])
        assert "Traceback" not in role.log.read_text(), role.log.read_text()[-2000:]
    assert health("worker", "--port", workers[0], env=env).returncode == 1  # gone: the probe says so
    assert health("api", "--port", env["CINCH_BIND"].rpartition(":")[2], env=env).returncode == 1


@pytest.mark.skipif(not Path("/usr/bin/systemd-analyze").exists(), reason="systemd-analyze is not installed")
def test_the_units_pass_systemd_analyze_verify(tmp_path):
    """systemd's own checker accepts every unit, rendered with paths that exist here."""
    names = []
    for path in UNITS.glob("*.service"):
        text = path.read_text().replace(INSTALLED, f"{BIN}/").replace("/etc/cinch/cinch.env", str(UNITS / "cinch.env"))
        name = path.name.replace("@.", "@9101.")
        (tmp_path / name).write_text(text)
        names.append(f"./{name}")
    checked = subprocess.run(
        ["systemd-analyze", "verify", "--man=no", *names], cwd=tmp_path, capture_output=True, text=True, timeout=60
    )
    assert checked.returncode == 0 and not checked.stderr.strip(), checked.stderr
