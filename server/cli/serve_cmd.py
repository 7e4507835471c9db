"""``cinch serve``: the REST API under gunicorn, with Redis and workers when none are given.

With ``REDIS_URL`` it serves that arena (start workers with ``cinch worker``). Without
it, as everywhere in the CLI, an embedded Redis and local workers are started, so a bot
author can run the whole arena on a laptop with one command.

Gunicorn runs gevent workers, as its documentation advises for long-polling: every bot
holds a long-poll open, which costs a greenlet rather than a thread, and a process
serving many bots does not lose its time to threads contending for the GIL (measured
with ``benchmarks/remote.py``: with 4 bots on one process, gevent kept the round trip
p50 at about 4.5 ms where threads took 5.5 to 7 ms).
"""

from __future__ import annotations

import argparse
import os
import secrets
import subprocess
import sys

from .connect import arena


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("serve", help="serve the REST API (gunicorn)")
    p.add_argument("--bind", default="127.0.0.1:8000", help="address to listen on (default 127.0.0.1:8000)")
    p.add_argument("--connections", type=int, default=1000,
                   help="open requests per process, long-polls included (default 1000)")
    p.add_argument("--processes", type=int, default=2, help="server processes (default 2)")
    p.add_argument("--workers", type=int, help="local RQ workers (default 2 embedded, 0 with REDIS_URL)")
    p.set_defaults(run=run)


def gunicorn_command(bind: str, processes: int = 2, connections: int = 1000, graceful: int = 5) -> list[str]:
    """The one way the API is served: here, in the benchmarks and in the tests."""
    return [sys.executable, "-m", "gunicorn", "--bind", bind, "--workers", str(processes),
            "--worker-class", "gevent", "--worker-connections", str(connections), "--timeout", "60",
            "--graceful-timeout", str(graceful), "--no-control-socket", "server.wsgi:app"]


def run(args: argparse.Namespace) -> int:
    env = dict(os.environ)
    if not env.get("CINCH_ADMIN_TOKEN"):
        env["CINCH_ADMIN_TOKEN"] = "cinch_admin_" + secrets.token_urlsafe(24)  # no leading dash
        print(f"admin token for this run: {env['CINCH_ADMIN_TOKEN']} (set CINCH_ADMIN_TOKEN to choose one)")
    with arena(args.workers) as a:
        env["REDIS_URL"] = a.url
        print(f"serving http://{args.bind}/api/v1/docs with Redis {a.url}", flush=True)
        server = subprocess.Popen(gunicorn_command(args.bind, args.processes, args.connections), env=env)
        try:
            return server.wait()
        finally:
            if server.poll() is None:
                server.terminate()
                server.wait(timeout=15)
