"""``cinch supervisor``: the service's supervisor (``workers.supervisor``) as a command of its own.

``cinch serve`` starts one beside gunicorn; a deployment that runs the API and the
supervisor as separate services (``deploy/systemd/``, compose) starts it with this, on
any machine that reaches Redis, with ``--metrics-port`` for its liveness, readiness and
metrics (``workers.monitor``). Of several on one Redis, one leads.
"""

from __future__ import annotations

import argparse

from server.cli.worker_cmd import check_usable, monitor_options, service_redis
from server.config import masked
from workers import monitor, supervisor


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("supervisor", help="supervise the tournaments created through the API (needs REDIS_URL)")
    monitor.add_arguments(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    config = args.config
    url = service_redis(args, "supervisor")
    options = monitor_options(args, "supervisor")
    print(f"cinch supervisor: queue {config.queue}, prefix {config.prefix} on Redis {masked(url)}", flush=True)
    check_usable(url)
    return supervisor.main(["--url", url, *options], config)
