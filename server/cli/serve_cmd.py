"""``cinch serve``: the REST API under gunicorn, with Redis and workers when none are given.

With ``REDIS_URL`` it serves that arena (start workers with ``cinch worker``). Without
it, as everywhere in the CLI, an embedded Redis and local workers are started, so a bot
author can run the whole arena on a laptop with one command.

Gunicorn runs gevent workers, as its documentation advises for long-polling: every bot
holds a long-poll open, which costs a greenlet rather than a thread, and a process
serving many bots does not lose its time to threads contending for the GIL (measured
with ``benchmarks/remote.py``: with 4 bots on one process, gevent kept the round trip
p50 at about 4.5 ms where threads took 5.5 to 7 ms).

Gunicorn (and any other child this command runs) is one process of a ``ProcessGroup``:
SIGINT or SIGTERM to ``cinch serve`` stops gunicorn, then the local workers, then
releases the embedded Redis; a SIGKILLed ``cinch serve`` takes its children with it
(PR_SET_PDEATHSIG). The command ends when one of its children exits, with its status;
local workers that die are replaced.
"""

from __future__ import annotations

import argparse
import os
import secrets
import shutil
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from server.cli.connect import Arena, arena
from server.config import Config, masked
from workers.local import ProcessGroup
from workers.supervisor import supervisor_command

CONNECTIONS = 1100  # per process: CINCH_LONG_POLLS (1,000) and 100 for answers and every other call


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("serve", help="serve the REST API (gunicorn)")
    p.add_argument("--bind", help="address to listen on (default: $CINCH_BIND, else 127.0.0.1:8000)")
    p.add_argument(
        "--connections",
        type=int,
        default=CONNECTIONS,
        help=f"open requests per process, long-polls included (default {CONNECTIONS})",
    )
    p.add_argument("--processes", type=int, default=2, help="server processes (default 2)")
    p.add_argument("--workers", type=int, help="local RQ workers (default 2 embedded, 0 with REDIS_URL)")
    p.add_argument(
        "--supervisor",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="start the service's supervisor beside gunicorn (default; --no-supervisor where it runs "
        "as a service of its own: cinch supervisor)",
    )
    p.set_defaults(run=run)


def gunicorn_command(bind: str, processes: int = 2, connections: int = CONNECTIONS, graceful: int = 5) -> list[str]:
    """The one way the API is served: here, in the benchmarks and in the tests."""
    return [
        sys.executable,
        "-m",
        "gunicorn",
        "--bind",
        bind,
        "--workers",
        str(processes),
        "--worker-class",
        "gevent",
        "--worker-connections",
        str(connections),
        "--timeout",
        "60",
        "--graceful-timeout",
        str(graceful),
        "--no-control-socket",
        "--config",  # the arena's logs and metrics (server.web.gunicorn_conf)
        "python:server.web.gunicorn_conf",
        # gunicorn answers over-long lines and headers with HTML: lift its limits to the
        # largest it allows, and let the app answer them as problem+json (server.web.app)
        "--limit-request-line",
        "0",
        "--limit-request-fields",
        "32768",
        "--limit-request-field_size",
        "0",
        "server.web.wsgi:app",
    ]


@contextmanager
def metrics_directory() -> Iterator[Path]:
    """A fresh private directory (mode 0700) for this run's metrics files
    (``PROMETHEUS_MULTIPROC_DIR``), removed afterwards: counts never carry over from an
    earlier run, nor from another arena on the machine."""
    path = Path(tempfile.mkdtemp(prefix="cinch-metrics-"))
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


def run(args: argparse.Namespace) -> int:
    config = args.config
    if not config.admin_token:
        config = config.replace(admin_token="cinch_admin_" + secrets.token_urlsafe(24))  # no leading dash
        print(f"admin token for this run: {config.admin_token} (set CINCH_ADMIN_TOKEN to choose one)")
    bind = args.bind or config.bind
    with metrics_directory() as metrics_dir:
        config = config.replace(metrics_dir=metrics_dir)
        # the local workers write their metrics there too (the URL is theirs already)
        workers_env = {**os.environ, **config.environ()}
        with (
            arena(config, args.workers, worker_env=workers_env, worker_logging="INFO") as a,
            ProcessGroup() as children,
        ):
            return serve(args, config, bind, a, children)


def serve(args: argparse.Namespace, config: Config, bind: str, a: Arena, children: ProcessGroup) -> int:
    """Run gunicorn and the supervisor beside the arena's workers until one of them exits."""
    # the children build their own Config from these: the same settings, this Redis
    env = {**os.environ, **config.replace(redis_url=a.url, bind=bind).environ()}
    print(f"serving http://{bind}/api/v1/docs with Redis {masked(a.url)}", flush=True)
    print(f"metrics: http://{bind}/metrics with the admin token; files in {config.metrics_dir}", flush=True)
    built = (config.docs_site / "index.html").is_file()
    print(f"docs site: http://{bind}/docs/" + ("" if built else " (not built yet: cinch docs build)"), flush=True)
    children.spawn("gunicorn", gunicorn_command(bind, args.processes, args.connections), env=env)
    if args.supervisor:
        children.spawn("supervisor", supervisor_command(a.url, config.prefix, config.queue), env=env)
    while not (exited := children.exited()):
        if a.workers:
            a.workers.replace_dead()
        time.sleep(0.5)
    name, status = next(iter(exited.items()))
    print(f"cinch serve: {name} exited with status {status}", file=sys.stderr)
    return status or 1
