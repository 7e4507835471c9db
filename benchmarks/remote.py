"""The remote decision round trip: worker -> Redis -> API -> bot -> API -> worker.

    python benchmarks/remote.py [--bots 4] [--seconds 10]

Starts the API under gunicorn on loopback, registers N remote bots, and runs N bot
processes (long-poll, answer with the first legal action, as a thin SDK would) and N
worker-side loops calling ``RemoteAgent.decide`` on a real observation, concurrently.
Prints p50 and p99 of the round trip as the worker sees it, and decisions per second.
Uses ``REDIS_URL`` if set, else an embedded Redis.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

import requests
from redis import Redis

from server.engine import HandState, generate_board, make_ruleset, observation
from server.remote import RemoteAgent
from server.store import Store
from workers.local import embedded_redis, stop_embedded, url_of


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def bot_loop(base: str, token: str, stop_at: float) -> None:
    http = requests.Session()
    http.headers["Authorization"] = f"Bearer {token}"
    while time.time() < stop_at:
        r = http.get(f"{base}/api/v1/decisions/next", params={"wait": 1}, timeout=30)
        if r.status_code == 200:
            d = r.json()
            http.post(f"{base}/api/v1/decisions/{d['id']}", json=d["legal"][0], timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bots", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=10)
    args = parser.parse_args()
    embedded = None
    if os.environ.get("REDIS_URL"):
        url = os.environ["REDIS_URL"]
    else:
        embedded = embedded_redis(Path(tempfile.mkdtemp()) / "bench.rdb")
        url = url_of(embedded)
    prefix = f"bench{uuid.uuid4().hex[:8]}"
    store = Store(Redis.from_url(url), prefix)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "--bind", f"127.0.0.1:{port}", "--workers", "2", "--threads", "16",
         "-k", "gthread", "--no-control-socket", "server.wsgi:app"],
        env={**os.environ, "REDIS_URL": url, "CINCH_PREFIX": prefix}, stderr=subprocess.DEVNULL)
    try:
        while True:
            try:
                if requests.get(f"{base}/api/v1/ready", timeout=1).status_code == 200:
                    break
            except requests.ConnectionError:
                time.sleep(0.1)
        tokens = [requests.post(f"{base}/api/v1/bots", json={"name": f"b{i}"}, timeout=5).json()["token"]
                  for i in range(args.bots)]
        state = HandState(make_ruleset("american62"), generate_board("bench", 1))
        obs = observation(state, state.seat_to_act())
        stop_at = time.time() + args.seconds + 3
        bots = [mp.Process(target=bot_loop, args=(base, t, stop_at)) for t in tokens]
        for b in bots:
            b.start()
        time.sleep(1.0)
        latencies: list[float] = []
        lock = threading.Lock()
        end = time.monotonic() + args.seconds

        def worker(i: int) -> None:
            agent = RemoteAgent(Store(Redis.from_url(url), prefix), f"b{i}", f"bench-{i}",
                                {"decision_ms": 5000, "bank_ms": 0})
            mine = []
            while time.monotonic() < end:
                t0 = time.perf_counter()
                agent.decide(obs)
                mine.append(time.perf_counter() - t0)
            with lock:
                latencies.extend(mine)

        threads = [threading.Thread(target=worker, args=(i,)) for i in range(args.bots)]
        start = time.monotonic()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        elapsed = time.monotonic() - start
        for b in bots:
            b.join()
        latencies.sort()
        p50 = statistics.median(latencies) * 1000
        p99 = latencies[int(len(latencies) * 0.99) - 1] * 1000
        print(f"{args.bots} remote bots, {len(latencies)} decisions in {elapsed:.1f} s")
        print(f"  round trip p50 {p50:.2f} ms, p99 {p99:.2f} ms, {len(latencies) / elapsed:.0f} decisions/s")
    finally:
        server.terminate()
        server.wait(timeout=10)
        keys = list(store.redis.scan_iter(match=f"{prefix}:*"))
        for i in range(0, len(keys), 500):
            store.redis.delete(*keys[i:i + 500])
        if embedded is not None:
            stop_embedded(embedded)


if __name__ == "__main__":
    main()
