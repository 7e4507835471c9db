"""Long-polls arriving at once on one API process, as when every bot reconnects after a restart.

    python benchmarks/burst.py [--polls 1000] [--wait 10] [--bots N] [--long-polls N] [--connections N]

Starts the API under gunicorn on loopback as ``cinch serve`` does (one process, so
every long-poll lands on it), registers the bots (two long-polls per bot unless
``--bots`` says otherwise, as a runner with two threads holds), opens ``--polls``
connections, writes every long-poll request at once and probes ``/ready`` every 100 ms
until the last long-poll is answered. Prints how many were held (204 after the whole
wait), refused with 503 (past the process's capacity) or anything else, and the
``/ready`` latency max and p99. Uses ``REDIS_URL`` if set, else an embedded Redis.
Raises its soft limit on open files if it is too low for the connections (the server,
its child, inherits it). The client is ``tests/support/burst.py``, the one the capacity
test (``tests/server/web/api/test_burst.py``) runs.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.append(str(ROOT / "tests"))  # for support.burst; last, as tests/server is not server

from support.apiserver import free_port  # noqa: E402
from support.backend import fresh_store  # noqa: E402
from support.burst import allow_connections, burst  # noqa: E402

from server.arena import registry  # noqa: E402
from server.arena.store import Store  # noqa: E402
from server.cli.serve_cmd import gunicorn_command  # noqa: E402
from workers.embedded import EmbeddedRedis  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--polls", type=int, default=1000, help="long-polls sent at once (default 1000)")
    parser.add_argument("--wait", type=float, default=10, help="their wait= in seconds (default 10)")
    parser.add_argument("--bots", type=int, help="bots whose tokens they use in turn (default polls / 2)")
    parser.add_argument("--long-polls", type=int, help="CINCH_LONG_POLLS for the server (default: its own)")
    parser.add_argument("--connections", type=int, help="gunicorn worker connections (default: cinch serve's)")
    args = parser.parse_args()
    limit = allow_connections(args.polls + 500)
    embedded = None
    if os.environ.get("REDIS_URL"):
        url = os.environ["REDIS_URL"]
    else:
        embedded = EmbeddedRedis(Path(tempfile.mkdtemp()))
        url = embedded.acquire()
    try:
        with fresh_store(url) as store:  # its keys removed afterwards, as a test's are
            run(args, url, store, limit)
    finally:
        if embedded is not None:
            embedded.release()


def run(args: argparse.Namespace, url: str, store: Store, limit: int) -> None:
    """Start one API process on ``store``'s prefix, send the burst, print what came back."""
    prefix = store.prefix
    port = free_port()
    env = {**os.environ, "REDIS_URL": url, "CINCH_PREFIX": prefix}
    if args.long_polls:
        env["CINCH_LONG_POLLS"] = str(args.long_polls)
    command = gunicorn_command(f"127.0.0.1:{port}", 1, *([args.connections] if args.connections else []))
    server = subprocess.Popen(command, env=env, stderr=subprocess.DEVNULL)
    try:
        while True:
            try:
                if requests.get(f"http://127.0.0.1:{port}/api/v1/ready", timeout=5).status_code == 200:
                    break
            except requests.RequestException:  # not listening yet, or still importing the app
                time.sleep(0.1)
        tokens = [registry.register(store, f"burst{i}") for i in range(args.bots or max(1, args.polls // 2))]
        print(f"{args.polls} long-polls (wait={args.wait:g}) of {len(tokens)} bots at once on one process")
        print(f"  open files limit {limit}; server {' '.join(command[command.index('--worker-connections') :][:2])}")
        result = burst(port, tokens, args.polls, args.wait)
        print("  " + result.summary())
        slow = [f"{at:.1f} s: {latency * 1000:.0f} ms" for at, latency in result.ready if latency > 0.5]
        if slow:
            print("  /ready over 500 ms (probe sent at, after the long-polls were): " + ", ".join(slow))
        if result.refused_at:
            print(f"  503s answered {min(result.refused_at):.1f} to {max(result.refused_at):.1f} s after the burst")
        for detail, count in result.refusals.most_common():
            print(f"  503 x{count}: {detail}")
    finally:
        server.terminate()
        server.wait(timeout=20)


if __name__ == "__main__":
    main()
