"""The ``cinch`` command: one entry point, one module per subcommand.

Each subcommand module exposes ``register(subparsers)``; the parser it adds carries a
``run(args) -> int`` default; ``args.config`` is the arena's configuration
(``server.config``), the one place a subcommand takes a setting from. Errors a user can cause are raised as ``UsageError`` (or
the engine's own ValueError subclasses) and become a one-line message and exit status 2,
never a traceback.

SIGTERM takes the same path as Ctrl-C: it raises ``Terminated``, a KeyboardInterrupt, so
every ``finally`` and context manager on the way out runs (local workers and servers are
stopped, the embedded Redis is released) and the command exits with 143 (130 for Ctrl-C).
"""

from __future__ import annotations

import argparse
import signal
import sys

from server import logs
from server.cli import (
    archive_cmd,
    compare_cmd,
    deals_cmd,
    demo_cmd,
    docs_cmd,
    health_cmd,
    ratings_cmd,
    replay_cmd,
    sdk_cmd,
    serve_cmd,
    supervisor_cmd,
    tournament_cmd,
    worker_cmd,
)
from server.cli.errors import UsageError
from server.config import Config, ConfigError
from server.errors import ArenaError

SUBCOMMANDS = (
    tournament_cmd,
    compare_cmd,
    ratings_cmd,
    serve_cmd,
    worker_cmd,
    supervisor_cmd,
    health_cmd,
    demo_cmd,
    replay_cmd,
    deals_cmd,
    docs_cmd,
    sdk_cmd,
    archive_cmd,
)


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised where the main thread is so that clean-up runs as for Ctrl-C."""


def _terminate(signum, frame) -> None:
    raise Terminated()


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="cinch", description="The Cinch (Double Pedro) bot arena.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module in SUBCOMMANDS:
        module.register(sub)
    return parser


def main(argv: list[str] | None = None, config: Config | None = None) -> int:
    """Run one subcommand with the arena's configuration (``config``, or the environment's,
    read here once and handed to the subcommand as ``args.config``)."""
    args = build_parser().parse_args(argv)
    try:
        args.config = config or Config.from_env()
    except ConfigError as exc:
        print(f"cinch {args.command}: {exc}", file=sys.stderr)
        return 2
    if config is None:  # a process's own command line, not a test calling in: its logs are set once
        logs.configure(args.config.log_format, "WARNING")
    signal.signal(signal.SIGTERM, _terminate)
    try:
        return args.run(args)
    except (UsageError, ArenaError) as exc:  # ArenaError: a refusal a subcommand let rise
        print(f"cinch {args.command}: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt as exc:
        print("terminated" if isinstance(exc, Terminated) else "interrupted", file=sys.stderr)
        return 143 if isinstance(exc, Terminated) else 130


if __name__ == "__main__":
    sys.exit(main())
