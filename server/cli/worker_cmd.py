"""``cinch worker``: an arena worker (``workers.worker``) on any machine that reaches Redis.

It runs in this process: SIGINT and SIGTERM stop it within a few seconds, and it waits
for Redis to come up, or to come back when Redis restarts; a Redis it can never use (a
TLS certificate it cannot verify, a refused password) is an error at once.
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
from workers import worker


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("worker", help="run an RQ worker for the arena (needs REDIS_URL)")
    p.add_argument("--name", help="worker name, unique per Redis (default: host and process id)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    url = args.config.redis_url
    if not url:
        raise UsageError("set REDIS_URL to the arena's Redis, e.g. REDIS_URL=redis://host:6379/0")
    name = args.name or f"{socket.gethostname()}-{os.getpid()}"
    print(f"cinch worker {name}: queue {args.config.queue} on Redis {masked(url)}", flush=True)
    try:
        with Redis.from_url(url) as redis:
            redis.ping()
    except RedisConnectionError as exc:  # a Redis not up yet is waited for; a wrong CA or password is not
        if redis_remedy(exc):
            raise UsageError(redis_problem(url, exc)) from None
    return worker.main(["--url", url, "--queue", args.config.queue, "--name", name, "--logging-level", "INFO"])
