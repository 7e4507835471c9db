"""``cinch ratings``: the leaderboard, and rebuilding ratings from the stored board pairs.

    cinch ratings [RULESET] [--json]         the leaderboard (default american62)
    cinch ratings rebuild [--ruleset R ...]  recompute from every stored complete match

Ratings count each piece of evidence once: a board of the same bots on the same ruleset,
options, deal set and board number rates them at most once, however many tournaments
replay it. A rating is a bot's points per board against an average field, fitted to every
stored board at once (``server.arena.ratings``), so it depends neither on how the boards
were split into matches nor on the order they completed in. A rebuild makes the rated
comparisons again from the stored board pairs and refits them (the history a step per
tournament): after a change of how evidence is named or ratings computed, or to check them.
"""

from __future__ import annotations

import argparse
import json

from sdk.text import name_width, rating_row, ratings_title
from server.arena.ratings import leaderboard
from server.arena.tournaments import DEFAULTS, rebuild_ratings
from server.cli.connect import arena
from server.cli.errors import UsageError
from server.engine.games import GAMES

REBUILD = "rebuild"


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "ratings",
        help="the leaderboard of a ruleset; `rebuild` recomputes it from stored results",
        description="cinch ratings [RULESET] prints a leaderboard; cinch ratings rebuild [--ruleset R ...] "
        "recomputes ratings from every stored complete match.",
    )
    p.add_argument(
        "ruleset",
        nargs="?",
        default=DEFAULTS["ruleset"],
        help=f"a ruleset ({', '.join(GAMES)}; default {DEFAULTS['ruleset']}), or `rebuild`",
    )
    p.add_argument("--ruleset", nargs="+", dest="rulesets", help="rebuild: only these rulesets (default: all)")
    p.add_argument("--json", action="store_true", help="print the leaderboard as JSON, as the API serves it")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """A positional ``rebuild`` is the action, anything else a ruleset: one positional,
    because argparse cannot tell an optional ruleset from a subcommand."""
    if args.ruleset == REBUILD:
        return run_rebuild(args)
    if args.ruleset not in GAMES:
        raise UsageError(f"unknown ruleset {args.ruleset!r} (known: {', '.join(GAMES)}; or `rebuild`)")
    if args.rulesets:
        raise UsageError("--ruleset goes with `cinch ratings rebuild`; name one ruleset as `cinch ratings RULESET`")
    with arena(args.config, None, plays=False) as a:
        rows = leaderboard(a.store.ratings(args.ruleset))
    if args.json:
        print(json.dumps({"ruleset": args.ruleset, "bots": rows}, indent=2))
        return 0
    if not rows:
        print(f"no ratings for {args.ruleset} yet")
        return 0
    print(ratings_title(args.ruleset))
    width = name_width(row["bot"] for row in rows)
    for rank, row in enumerate(rows, 1):
        print(f"  {rank:>2} {rating_row(row, width)}")
    return 0


def run_rebuild(args: argparse.Namespace) -> int:
    with arena(args.config, None, plays=False) as a:
        counted = rebuild_ratings(a.store, args.rulesets)
    for ruleset, matches in counted.items():
        print(f"{ruleset}: ratings rebuilt from {matches} comparisons with new boards")
    if not counted:
        print("no stored matches for those rulesets")
    return 0
