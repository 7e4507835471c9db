"""``cinch worker``: an arena worker (``workers.worker``) on any machine that reaches Redis.

It runs in this process: SIGINT and SIGTERM stop it within a few seconds, and it waits
for Redis to come up, or to come back when Redis restarts; a Redis it can never use (a
TLS certificate it cannot verify, a refused password) is an error at once. With
``--metrics-port`` it serves its liveness, readiness and metrics (``workers.monitor``).
"""

from __future__ import annotations

import argparse
import os
import socket

from redis import Redis
from redis.exceptions import ConnectionError as RedisConnectionError

from server.cli.connect import redis_problem, redis_remedy
from server.cli.errors import UsageError
from server.config import masked
from workers import monitor, worker


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("worker", help="run an RQ worker for the arena (needs REDIS_URL)")
    p.add_argument("--name", help="worker name, unique per Redis (default: host and process id)")
    monitor.add_arguments(p)
    p.set_defaults(run=run)


def service_redis(args: argparse.Namespace, role: str) -> str:
    """The arena's ``REDIS_URL`` for a worker or the supervisor; unset, a usage error."""
    url = args.config.redis_url
    if not url:
        raise UsageError(f"set REDIS_URL to the arena's Redis for the {role}, e.g. REDIS_URL=redis://host:6379/0")
    return url


def check_usable(url: str) -> None:
    """A usage error for a Redis this machine can never use (a certificate it cannot
    verify, a refused password); a Redis that is merely not up yet is waited for by the
    process."""
    try:
        with Redis.from_url(url) as redis:
            redis.ping()
    except RedisConnectionError as exc:
        if redis_remedy(exc):
            raise UsageError(redis_problem(url, exc)) from None


def monitor_options(args: argparse.Namespace, role: str) -> list[str]:
    """``--metrics-port`` and ``--metrics-host`` as given, for the process's own parser;
    an address open to the network without the admin token is a usage error here."""
    if args.metrics_port is None:
        return []
    try:
        monitor.check_exposure(role, args.metrics_host, args.config.admin_token)
    except monitor.MonitorError as exc:
        raise UsageError(str(exc)) from None
    return ["--metrics-port", str(args.metrics_port), "--metrics-host", args.metrics_host]


def run(args: argparse.Namespace) -> int:
    url = service_redis(args, "worker")
    endpoint = monitor_options(args, "worker")
    name = args.name or f"{socket.gethostname()}-{os.getpid()}"
    print(f"cinch worker {name}: queue {args.config.queue} on Redis {masked(url)}", flush=True)
    check_usable(url)
    options = ["--url", url, "--queue", args.config.queue, "--name", name, "--logging-level", "INFO"]
    return worker.main(options + endpoint)
