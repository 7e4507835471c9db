"""``cinch worker``: an RQ worker for the arena's queue, on any machine that reaches Redis."""

from __future__ import annotations

import argparse
import os
import socket

from workers.jobs import QUEUE
from workers.local import worker_command

from .errors import UsageError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("worker", help="run an RQ worker for the arena (needs REDIS_URL)")
    p.add_argument("--name", help="worker name (default: host and process id)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    url = os.environ.get("REDIS_URL")
    if not url:
        raise UsageError("set REDIS_URL to the arena's Redis, e.g. REDIS_URL=redis://host:6379/0")
    command = worker_command(url, QUEUE, args.name or f"{socket.gethostname()}-{os.getpid()}")
    os.execv(command[0], command)
    return 0
