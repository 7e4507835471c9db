"""``cinch-bot``: the SDK's own command, for a bot author with the SDK alone installed
(``pip install cinch-arena-sdk``: requests and the standard library, no arena).

    cinch-bot run module:Class --server URL --token-file F    serve a bot (as ``cinch bot run``)
    cinch-bot run --cmd COMMAND --server URL --token-file F   a program in any language (line protocol)
    cinch-bot new NAME [--ruleset R] [--dir D]                write NAME.py and test_NAME.py (``sdk.scaffold``)

``cinch bot run`` and ``cinch bot new`` in the arena's ``cinch`` are the same commands
(they share ``add_run_arguments``/``run_from_args`` and ``add_new_arguments``/``run_new``).
Errors are one line on standard error and exit status 2.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from sdk.errors import SdkError
from sdk.launch import add_run_arguments, run_from_args, summary
from sdk.scaffold import DEFAULT_RULESET, RULESETS, class_name_of, compare_command, write_bot


def add_new_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``new`` (shared with ``cinch bot new``)."""
    parser.add_argument("name", help="the bot's module name (my_bot: writes my_bot.py with class MyBot)")
    parser.add_argument(
        "--ruleset",
        default=DEFAULT_RULESET,
        choices=RULESETS,
        metavar="RULESET",
        help=f"the game it plays (default {DEFAULT_RULESET}; one of {', '.join(RULESETS)})",
    )
    parser.add_argument("--dir", default=".", help="the folder to write in (default: the current one)")


def run_new(args: argparse.Namespace) -> int:
    """Write the two files and say what next; SdkError (exit 2) if either exists."""
    bot, test = write_bot(args.name, args.ruleset, args.dir)
    print(f"wrote {bot} ({class_name_of(bot.stem)}, a bot for {args.ruleset}) and {test}")
    print(f"next: pytest {test}    (plays it offline against random; needs the arena: cinch-arena)")
    print(f"      {compare_command(str(bot)[:-3], args.ruleset)}    (against the rule bot; needs the arena)")
    return 0


def run_bot(args: argparse.Namespace) -> int:
    stats = run_from_args(args.bot, args)
    if not args.quiet:
        print(summary(stats), file=sys.stderr)
    return 0


Command = Callable[[argparse.Namespace], int]


def add_bot_commands(
    actions: argparse._SubParsersAction[argparse.ArgumentParser], wrap: Callable[[Command], Command] = lambda run: run
) -> None:
    """``run`` and ``new``, as ``cinch-bot`` and the arena's ``cinch bot`` both offer them;
    ``wrap`` makes a command's SDK errors its CLI's one-line message."""
    p = actions.add_parser(
        "run",
        help="serve a bot's decisions until Ctrl-C",
        description="Serve every decision of a bot (all its seats, concurrently), "
        "reconnecting as needed, until Ctrl-C or SIGTERM.",
    )
    p.add_argument(
        "bot",
        nargs="?",
        help="module:Class or file.py:Class (a sdk.Bot subclass, or anything with decide()); or --cmd COMMAND",
    )
    add_run_arguments(p)
    p.set_defaults(run=wrap(run_bot))
    p = actions.add_parser(
        "new",
        help="write a new bot and its test",
        description="Write NAME.py, a sdk.Bot with every decision of the ruleset answered legally, and "
        "test_NAME.py, which plays it against random offline. Existing files are never overwritten.",
    )
    add_new_arguments(p)
    p.set_defaults(run=wrap(run_new))


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="cinch-bot", description="Write and run bots for the Cinch arena.")
    add_bot_commands(parser.add_subparsers(dest="action", required=True, metavar="ACTION"))
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.run(args))
    except SdkError as exc:
        print(f"cinch-bot {args.action}: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


def entry() -> None:
    """The console script's entry point."""
    sys.exit(main())
