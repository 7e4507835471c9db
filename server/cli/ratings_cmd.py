"""``cinch ratings``: the leaderboard, and rebuilding ratings from the stored board pairs.

    cinch ratings [RULESET]                  the leaderboard (default american62)
    cinch ratings rebuild [--ruleset R ...]  recompute from every stored complete match

Ratings count each piece of evidence once: a board pair of the same two bots on the same
ruleset, options, deal set and board number moves them at most once, however many
tournaments replay it. The ratings are the replay of every rated comparison in canonical
order (tournament number, then match index; ``server.arena.ratings``), so they do not depend
on the order matches completed in. A rebuild makes those comparisons again from the
stored board pairs and replays them: after a change of how evidence is named or ratings
computed, or to check them.
"""

from __future__ import annotations

import argparse

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
    if not rows:
        print(f"no ratings for {args.ruleset} yet")
        return 0
    print(f"Ratings ({args.ruleset}, openskill; rating = mu - 3 sigma)")
    for rank, row in enumerate(rows, 1):
        print(
            f"  {rank:>2} {row['bot']:16} {row['rating']:8.2f}  (mu {row['mu']:.2f}, sigma {row['sigma']:.2f}, "
            f"{row['matches']} matches, {row['boards']} board pairs)"
        )
    return 0


def run_rebuild(args: argparse.Namespace) -> int:
    with arena(args.config, None, plays=False) as a:
        counted = rebuild_ratings(a.store, args.rulesets)
    for ruleset, matches in counted.items():
        print(f"{ruleset}: ratings rebuilt from {matches} comparisons with new board pairs")
    if not counted:
        print("no stored matches for those rulesets")
    return 0
