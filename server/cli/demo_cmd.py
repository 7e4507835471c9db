"""``cinch demo``: a few hands of a game between random legal players, printed one a line.

A zero-setup look at the engine (no Redis, no workers); the tournament is the real job.
"""

from __future__ import annotations

import argparse
from random import Random

from server.arena import dealsets
from server.cli.errors import UsageError
from server.engine import BASE_RULESETS, Game, make_ruleset
from server.engine.playout import playout


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("demo", help="play a few hands between random players and print them")
    p.add_argument("--ruleset", default="american62", choices=sorted(BASE_RULESETS))
    p.add_argument("--deals", default="standard", help="deal set name or file (default: standard)")
    p.add_argument("--seed", type=int, default=1, help="seed of the random players")
    p.add_argument("--hands", type=int, default=8, help="stop after this many hands (default 8)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        deals = dealsets.load(args.deals, args.config.deals_dir)
    except dealsets.DealSetError as exc:
        raise UsageError(str(exc)) from None
    rules = make_ruleset(args.ruleset)
    rng = Random(args.seed)
    game = Game(rules, lambda n: deals.board((n - 1) % len(deals.boards) + 1))
    print(f"{rules.name}: random players, deal set {deals.name}, game to {rules.target}")
    if args.hands < 1:
        raise UsageError("--hands must be at least 1")
    while game.winner is None and game.hands_played < args.hands:
        hand = playout(game.new_hand(), rng)
        game.finish_hand(hand)
        contract = hand.contract_dict()
        bid = f"{contract['seat']} bids {contract['amount']}" if contract else "no bid"
        trump = "CDHS"[hand.trump_tables().trump]
        pts, delta = hand.points(), hand.delta()
        print(
            f"hand {game.hands_played:3}  dealer {hand.board.dealer}  {bid:12} trump {trump}  "
            f"points NS {pts[0]:2} EW {pts[1]:2}  score NS {game.scores[0]:4} EW {game.scores[1]:4}"
            f"  ({delta[0]:+d}/{delta[1]:+d})"
        )
    if game.winner:
        print(f"{game.winner} win after {game.hands_played} hands")
    return 0
