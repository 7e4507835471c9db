"""``cinch serve``: the REST API under gunicorn, with Redis and workers when none are given.

With ``REDIS_URL`` it serves that arena (start workers with ``cinch worker``). Without
it, as everywhere in the CLI, an embedded Redis and local workers are started, so a bot
author can run the whole arena on a laptop with one command.
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
    p.add_argument("--threads", type=int, default=32, help="threads per process; each long-poll holds one")
    p.add_argument("--processes", type=int, default=2)
    p.add_argument("--workers", type=int, help="local RQ workers (default 2 embedded, 0 with REDIS_URL)")
    p.set_defaults(run=run)


def gunicorn_command(bind: str, processes: int, threads: int) -> list[str]:
    return [sys.executable, "-m", "gunicorn", "--bind", bind, "--workers", str(processes), "--threads",
            str(threads), "--worker-class", "gthread", "--timeout", "60", "--graceful-timeout", "5", "--no-control-socket",
            "server.wsgi:app"]


def run(args: argparse.Namespace) -> int:
    env = dict(os.environ)
    if not env.get("CINCH_ADMIN_TOKEN"):
        env["CINCH_ADMIN_TOKEN"] = "cinch_admin_" + secrets.token_urlsafe(24)  # no leading dash
        print(f"admin token for this run: {env['CINCH_ADMIN_TOKEN']} (set CINCH_ADMIN_TOKEN to choose one)")
    with arena(args.workers) as a:
        env["REDIS_URL"] = a.url
        print(f"serving http://{args.bind}/api/v1/docs with Redis {a.url}", flush=True)
        server = subprocess.Popen(gunicorn_command(args.bind, args.processes, args.threads), env=env)
        try:
            return server.wait()
        finally:
            if server.poll() is None:
                server.terminate()
                server.wait(timeout=15)
