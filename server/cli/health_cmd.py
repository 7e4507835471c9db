"""``cinch health api|worker|supervisor``: exit 0 if that process says it is alive, else 1.

For probes that run a command (a compose ``healthcheck``, a Kubernetes ``exec`` probe, a
systemd timer, a shell): it asks the API's ``/api/v1/health`` (``/api/v1/ready`` with
``--ready``: Redis answers too), or a worker's or the supervisor's own endpoint, the one
``--metrics-port`` opens (``workers.monitor``: ``/health``, or ``/ready`` with
``--ready``: its last beat reached Redis). An HTTP prober (Kubernetes ``httpGet``, a load
balancer) asks those paths directly.
"""

from __future__ import annotations

import argparse
import sys
import urllib.error
import urllib.request

from server.cli.errors import UsageError

TIMEOUT = 5.0  # seconds: a probe that hangs is a probe that failed


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("health", help="exit 0 if the API, a worker or the supervisor is alive (1 if not)")
    p.add_argument("role", choices=("api", "worker", "supervisor"))
    p.add_argument("--ready", action="store_true", help="ask whether it is ready (reaches Redis), not only alive")
    p.add_argument("--host", default="127.0.0.1", help="where the process listens (default 127.0.0.1)")
    p.add_argument("--port", type=int, help="its port: the API's (default: CINCH_BIND's), or --metrics-port's")
    p.set_defaults(run=run)


def url_of(args: argparse.Namespace) -> str:
    if args.role == "api":
        port = args.port or int(args.config.bind.rpartition(":")[2])
        return f"http://{args.host}:{port}/api/v1/{'ready' if args.ready else 'health'}"
    if args.port is None:
        raise UsageError(f"give the {args.role}'s --port: the --metrics-port it was started with")
    return f"http://{args.host}:{args.port}/{'ready' if args.ready else 'health'}"


def run(args: argparse.Namespace) -> int:
    url = url_of(args)
    try:
        with urllib.request.urlopen(url, timeout=TIMEOUT) as response:
            status = response.status
    except urllib.error.HTTPError as exc:
        status = exc.code
    except (urllib.error.URLError, OSError) as exc:
        print(f"{args.role} at {url}: not reachable ({getattr(exc, 'reason', exc)})", file=sys.stderr)
        return 1
    if status == 200:
        print(f"{args.role} at {url}: {'ready' if args.ready else 'alive'}")
        return 0
    print(f"{args.role} at {url}: {'not ready' if args.ready else 'not alive'} (HTTP {status})", file=sys.stderr)
    return 1
