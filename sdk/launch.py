"""Running a bot from the command line: ``sdk.main(MyBot)`` in a script, or
``CINCH_TOKEN=T python -m sdk module:Class --server URL`` (``cinch bot run`` is the same);
``--cmd COMMAND`` runs a program in any language instead (``sdk.line``).

The server and token may come from ``CINCH_SERVER`` and ``CINCH_TOKEN``, the token also
from a file (``--token-file``). A token given as ``--token`` is on the command line, where
any user of the machine reads it (``ps``), so the runner says so on standard error. With
``--register NAME`` and no token, the bot is registered first and its token printed
(once) on standard error. A progress line (``sdk.progress``) goes to standard error
whenever it changes; with ``--until-done`` the bot exits (status 0) once the
tournaments it is entered in have ended.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from pathlib import Path
from typing import Any

from sdk.bot import Bot, as_bot, load_bot
from sdk.client import Client
from sdk.errors import SdkError
from sdk.line import LineBot
from sdk.progress import Progress
from sdk.runner import Runner

DEFAULT_SERVER = "http://127.0.0.1:8000"


def add_server_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--server",
        default=os.environ.get("CINCH_SERVER", DEFAULT_SERVER),
        help="the arena's URL (default: $CINCH_SERVER or %(default)s)",
    )


def add_run_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of running a bot (shared with ``cinch bot run``)."""
    add_server_argument(parser)
    parser.add_argument(
        "--cmd",
        metavar="COMMAND",
        help="run COMMAND as the bot instead of a Python class: a program in any language that reads "
        "one decision per line on stdin and writes one action per line on stdout (docs/line-protocol.md)",
    )
    parser.add_argument(
        "--token-file",
        metavar="PATH",
        help="read the bot's token from this file (- for standard input); the default is $CINCH_TOKEN",
    )
    parser.add_argument(
        "--token",
        help="the bot's token; visible to every user of the machine (ps): prefer $CINCH_TOKEN or --token-file",
    )
    parser.add_argument("--register", metavar="NAME", help="register the bot under NAME first (when no token)")
    parser.add_argument("--threads", type=int, default=8, help="decisions answered at once (default 8)")
    parser.add_argument("--wait", type=float, default=20.0, help="long-poll seconds, 1-25 (default 20)")
    parser.add_argument("--timeout", type=float, default=10.0, help="HTTP timeout in seconds (default 10)")
    parser.add_argument(
        "--max-backoff", type=float, default=10.0, help="longest pause between reconnection attempts (default 10 s)"
    )
    parser.add_argument("--seed", help="seed of the bot's random generator")
    parser.add_argument(
        "--until-done",
        action="store_true",
        help="exit once the tournaments the bot is entered in have ended (at least one)",
    )
    parser.add_argument(
        "--progress",
        type=float,
        default=3.0,
        metavar="SECONDS",
        help="how often to look at the bot's tournaments for the progress line (default 3)",
    )
    parser.add_argument("-v", "--verbose", action="count", default=0, help="more logging (-vv: debug)")
    parser.add_argument("-q", "--quiet", action="store_true", help="errors only")


def setup_logging(verbose: int = 0, quiet: bool = False) -> None:
    """The runner's lines at the level asked for. Its logger's own level is set too: run
    from the arena's ``cinch``, whose handler is already in place (basicConfig then does
    nothing), ``cinch.*`` is at WARNING and would hide "serving decisions"."""
    level = logging.ERROR if quiet else logging.DEBUG if verbose > 1 else logging.INFO
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(message)s", datefmt="%H:%M:%S")
    logging.getLogger("cinch.sdk").setLevel(level)
    if verbose < 2:
        logging.getLogger("urllib3").setLevel(logging.WARNING)


def run_from_args(bot: Any, args: argparse.Namespace) -> dict[str, int]:
    """Run ``bot`` (a Bot, a class, or a ``module:Class`` string) as the parsed options say."""
    if not 1 <= args.wait <= 25:
        raise SdkError("--wait must be from 1 to 25 seconds")
    if args.threads < 1:
        raise SdkError("--threads must be at least 1")
    bot = bot_of(bot, args.cmd)
    if args.seed is not None and isinstance(bot, Bot):
        bot.seed = int(args.seed) if args.seed.lstrip("-").isdigit() else args.seed
        bot.__dict__.pop("_rng", None)
    setup_logging(args.verbose, args.quiet)
    client = Client(args.server, token=token_of(args), timeout=args.timeout, max_backoff=args.max_backoff)
    if not client.token:
        if not args.register:
            raise SdkError("a bot token is needed: CINCH_TOKEN, --token-file PATH, or --register NAME")
        issued = client.register_bot(args.register)
        client.token = issued.token
        print(f"registered {issued.name}; its token (shown once): {issued.token}", file=sys.stderr, flush=True)
    runner = Runner(bot, client, threads=args.threads, wait=args.wait, max_backoff=args.max_backoff)
    Progress(
        runner, client, every=args.progress, until_done=args.until_done, out=None if args.quiet else sys.stderr
    ).start()
    try:
        return runner.run()
    finally:
        bot.close()


def bot_of(bot: Any, command: str | None) -> Bot:
    """The bot to run: a line program (``--cmd``), or ``bot`` (a Bot, a class, or a
    ``module:Class`` string); exactly one of them."""
    if command is not None:
        if bot is not None:
            raise SdkError(f"give the bot once: {bot} or --cmd, not both")
        return LineBot(command, os.getcwd())
    if bot is None:
        raise SdkError("name the bot: module:Class, file.py:Class, or --cmd COMMAND")
    return load_bot(bot) if isinstance(bot, str) else as_bot(bot)


def token_of(args: argparse.Namespace) -> str | None:
    """The bot's token: ``--token-file``, ``--token`` (with a warning: the command line is
    public on the machine) or ``$CINCH_TOKEN``. SdkError for an unreadable or empty file."""
    if args.token_file and args.token:
        raise SdkError("give the token once: --token-file or --token, not both")
    if args.token_file:
        try:
            text = sys.stdin.read() if args.token_file == "-" else Path(args.token_file).read_text(encoding="utf-8")
        except OSError as exc:
            raise SdkError(f"--token-file: cannot read {args.token_file}: {exc.strerror}") from None
        token = text.strip()
        if not token:
            raise SdkError(f"--token-file: {args.token_file} holds no token")
        if args.token_file != "-" and Path(args.token_file).stat().st_mode & 0o077:
            print(
                f"warning: {args.token_file} can be read by other users of this machine; chmod 600 it",
                file=sys.stderr,
                flush=True,
            )
        return token
    if args.token:
        print(
            "warning: a token on the command line can be read by every user of this machine (ps); "
            "set CINCH_TOKEN or use --token-file instead",
            file=sys.stderr,
            flush=True,
        )
        return str(args.token)
    return os.environ.get("CINCH_TOKEN") or None


def summary(stats: dict[str, int]) -> str:
    return (
        f"{stats.get('answered', 0)} decisions answered, {stats.get('illegal', 0)} illegal replaced, "
        f"{stats.get('bot_errors', 0)} bot errors, {stats.get('expired', 0) + stats.get('undelivered', 0)} "
        f"missed, {stats.get('reconnects', 0)} reconnections"
    )


def main(bot: Any = None, argv: list[str] | None = None) -> None:
    """Parse the command line, run the bot until Ctrl-C, and exit (status 2 on errors)."""
    parser = argparse.ArgumentParser(
        prog=None if bot is not None else "python -m sdk", description="Serve a Cinch bot's decisions for the arena."
    )
    if bot is None:
        parser.add_argument("bot", nargs="?", help="module:Class or file.py:Class (or --cmd COMMAND)")
    add_run_arguments(parser)
    args = parser.parse_args(argv)
    try:
        stats = run_from_args(bot if bot is not None else args.bot, args)
    except SdkError as exc:
        print(f"{parser.prog}: {exc}", file=sys.stderr)
        raise SystemExit(2) from None
    if not args.quiet:
        print(summary(stats), file=sys.stderr)
    raise SystemExit(0)
