"""The remote decision round trip: worker -> Redis -> API -> bot -> API -> worker.

    python benchmarks/remote.py [--bots 4] [--seconds 10] [--client thin|sdk]

Starts the API under gunicorn on loopback as ``cinch serve`` does, registers N remote
bots, and runs N bot processes and N worker processes (each calling
``RemoteAgent.decide`` on a real observation in a loop, as an RQ worker playing a match
would), concurrently. Each bot answers with the first legal action. ``thin`` is the
protocol's own loop on a keep-alive connection of the standard library's
``http.client``, as a bot in any language would write it: answer, and take the next
decision from the answer's response; long-poll only when none came back. ``sdk`` is
``sdk.Runner`` (on requests). Prints p50 and p99 of the round trip as the worker sees
it, decisions per second, where the CPU went per decision (on Linux: the API's
gunicorn processes, the bots, Redis and the workers, each role's user + system time over
the run divided by the decisions), the API's responses per decision by route (from its
multiprocess metrics: whatever a bot sends besides its answers shows here), and the load average. Uses
``REDIS_URL`` if set, else an embedded Redis.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import shutil
import socket
import statistics
import subprocess
import tempfile
import time
import uuid
from http.client import HTTPConnection
from pathlib import Path

import requests
from prometheus_client import CollectorRegistry
from prometheus_client.multiprocess import MultiProcessCollector
from redis import Redis

from server.arena.store import Store
from server.cli.serve_cmd import gunicorn_command
from server.engine import HandState, generate_board, make_ruleset, observation
from workers.embedded import EmbeddedRedis
from workers.remote import RemoteAgent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def thin_bot(base: str, token: str, stop_at: float) -> None:
    host, port = base.removeprefix("http://").split(":")
    http = HTTPConnection(host, int(port), timeout=30)
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}

    def call(method: str, path: str, body: str | None = None) -> tuple[int, bytes]:
        http.request(method, f"/api/v1/decisions{path}", body, headers)
        response = http.getresponse()
        return response.status, response.read()

    decision = None
    while time.time() < stop_at:
        if decision is None:
            status, body = call("GET", "/next?wait=1")
            decision = json.loads(body) if status == 200 else None
            continue
        status, body = call("POST", f"/{decision['id']}?wait=1", json.dumps(decision["legal"][0]))
        found = json.loads(body)["next"] if status == 200 else []
        decision = found[0] if found else None


def worker_loop(url: str, prefix: str, bot: str, obs: dict, begin: float, finish: float, results: mp.Queue) -> None:
    """A worker process's side of one remote seat: ask, wait for the answer, again."""
    agent = RemoteAgent(Store(Redis.from_url(url), prefix), bot, f"bench-{bot}", {"decision_ms": 5000, "bank_ms": 0})
    latencies = []
    time.sleep(max(0.0, begin - time.time()))
    while time.time() < finish:
        t0 = time.perf_counter()
        agent.decide(obs)
        latencies.append(time.perf_counter() - t0)
    results.put(latencies)


def sdk_bot(base: str, token: str, stop_at: float) -> None:
    import sdk

    class FirstLegal(sdk.Bot):
        def act(self, observation):
            return observation["legal"][0]

    runner = sdk.Runner(FirstLegal(), sdk.Client(base, token=token), threads=2, wait=1).start()
    time.sleep(max(0.0, stop_at - time.time()))
    runner.stop()
    runner.join(timeout=5)


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU time of these processes so far (Linux /proc; 0 elsewhere)."""
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 0.0


def children(pid: int) -> list[int]:
    try:
        return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def redis_cpu(redis: Redis) -> float:
    info = redis.info("cpu")
    return float(info["used_cpu_user"]) + float(info["used_cpu_sys"])


def requests_per_decision(metrics_dir: str, decisions: int) -> str:
    """The API's responses over the run (its multiprocess metrics), per decision and route:
    a bot in steady play makes one answer per decision and little else."""
    registry = CollectorRegistry()
    MultiProcessCollector(registry, path=metrics_dir)
    counts: dict[str, float] = {}
    for metric in registry.collect():
        if metric.name == "cinch_http_responses":
            for sample in metric.samples:
                if sample.name.endswith("_total"):
                    route = f"{sample.labels['method']} {sample.labels['route'].removeprefix('/api/v1')}"
                    counts[route] = counts.get(route, 0.0) + sample.value
    busy = sorted(counts.items(), key=lambda item: -item[1])
    return ", ".join(f"{route} {count / decisions:.2f}" for route, count in busy if count >= decisions / 100)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bots", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--client", choices=["thin", "sdk"], default="thin")
    parser.add_argument("--processes", type=int, default=2, help="gunicorn processes (as cinch serve)")
    args = parser.parse_args()
    embedded = None
    if os.environ.get("REDIS_URL"):
        url = os.environ["REDIS_URL"]
    else:
        embedded = EmbeddedRedis(Path(tempfile.mkdtemp()))
        url = embedded.acquire()
    prefix = f"bench{uuid.uuid4().hex[:8]}"
    store = Store(Redis.from_url(url), prefix)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    metrics_dir = tempfile.mkdtemp(prefix="cinch-metrics-")  # as cinch serve runs it: multiprocess metrics
    server = subprocess.Popen(
        gunicorn_command(f"127.0.0.1:{port}", args.processes),
        env={**os.environ, "REDIS_URL": url, "CINCH_PREFIX": prefix, "PROMETHEUS_MULTIPROC_DIR": metrics_dir},
        stderr=subprocess.DEVNULL,
    )
    try:
        while True:
            try:
                if requests.get(f"{base}/api/v1/ready", timeout=5).status_code == 200:
                    break
            except requests.RequestException:  # not up yet (slow to start on a loaded machine)
                time.sleep(0.1)
        tokens = [
            requests.post(f"{base}/api/v1/bots", json={"name": f"b{i}"}, timeout=5).json()["token"]
            for i in range(args.bots)
        ]
        state = HandState(make_ruleset("american62"), generate_board("bench", 1))
        obs = observation(state, state.seat_to_act())
        stop_at = time.time() + args.seconds + 3
        loop = thin_bot if args.client == "thin" else sdk_bot
        bots = [mp.Process(target=loop, args=(base, t, stop_at)) for t in tokens]
        for b in bots:
            b.start()
        begin = time.time() + 1.5  # bots and workers are up and connected by then
        finish = begin + args.seconds
        results: mp.Queue = mp.Queue()
        workers = [
            mp.Process(target=worker_loop, args=(url, prefix, f"b{i}", obs, begin, finish, results))
            for i in range(args.bots)
        ]
        for w in workers:
            w.start()
        roles = {
            "bots": lambda: cpu_seconds([b.pid for b in bots]),
            "API (gunicorn)": lambda: cpu_seconds([server.pid, *children(server.pid)]),
            "Redis": lambda: redis_cpu(store.redis),
            "workers": lambda: cpu_seconds([w.pid for w in workers]),
        }
        time.sleep(max(0.0, begin - time.time()))
        before = {role: read() for role, read in roles.items()}
        time.sleep(max(0.0, finish - time.time()))
        used = {role: read() - before[role] for role, read in roles.items()}
        latencies = [x for _ in workers for x in results.get(timeout=30)]
        for process in workers + bots:
            process.join()
        elapsed = args.seconds
        latencies.sort()
        p50 = statistics.median(latencies) * 1000
        p99 = latencies[int(len(latencies) * 0.99) - 1] * 1000
        print(f"{args.bots} remote bots ({args.client}), {len(latencies)} decisions in {elapsed:.1f} s")
        print(f"  round trip p50 {p50:.2f} ms, p99 {p99:.2f} ms, {len(latencies) / elapsed:.0f} decisions/s")
        print(
            "  CPU per decision: "
            + ", ".join(f"{role} {seconds / len(latencies) * 1000:.2f} ms" for role, seconds in used.items())
            + f"; total {sum(used.values()) / len(latencies) * 1000:.2f} ms on {os.cpu_count()} cores"
        )
        print("  API requests per decision: " + requests_per_decision(metrics_dir, len(latencies)))
        print(
            "  load average {:.2f} {:.2f} {:.2f} (other work on the machine inflates every figure)".format(
                *os.getloadavg()
            )
        )
    finally:
        server.terminate()
        server.wait(timeout=10)
        shutil.rmtree(metrics_dir, ignore_errors=True)
        keys = list(store.redis.scan_iter(match=f"{prefix}:*"))
        for i in range(0, len(keys), 500):
            store.redis.delete(*keys[i : i + 500])
        if embedded is not None:
            embedded.release()


if __name__ == "__main__":
    main()
