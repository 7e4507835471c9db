"""``cinch compare X Y``: two bots side by side on identical deals, board by board.

Uses stored board pairs when some match of X and Y (in either order) on the same
ruleset, options and deal set holds every requested board; otherwise plays the match
as a two-bot tournament through the workers (so it is stored for next time).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from server import dealsets
from server.stats import summarize
from server.store import Store
from server.tournaments import DEFAULTS, PUBLIC_DEALS, SpecError
from workers.driver import cli_driver, start
from workers.match import net

from .connect import arena
from .errors import UsageError
from .report import interval
from .tournament_cmd import drive


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("compare", help="compare two bots board by board on identical deals")
    p.add_argument("x")
    p.add_argument("y")
    p.add_argument("--deals", default=PUBLIC_DEALS)
    p.add_argument("--boards", type=int, default=100, help="number of boards (default 100)")
    p.add_argument("--first", type=int, default=1)
    p.add_argument("--ruleset", default=DEFAULTS["ruleset"])
    p.add_argument("--options", type=json.loads, default={})
    p.add_argument("--seed", type=int, default=DEFAULTS["seed"])
    p.add_argument("--workers", type=int, help="local worker processes (default 2 embedded, 0 with REDIS_URL)")
    p.set_defaults(run=run)


def find_stored(store: Store, x: str, y: str, spec: dict[str, Any], boards: range) -> tuple[str, bool] | None:
    """A stored match of X and Y holding every board in ``boards``: (match id, X sat as X)."""
    for tid in reversed(store.tournament_ids()):
        for mid in store.match_ids(tid):
            m = store.match(mid)
            same = all(m[k] == spec[k] for k in ("ruleset", "options", "deals", "seed"))
            if same and {m["x"], m["y"]} == {x, y} and set(boards) <= store.stored_boards(mid):
                return mid, m["x"] == x
    return None


def room_line(room: dict[str, Any], side: str) -> str:
    c = room["contract"]
    contract = f"{c['seat']}{c['amount']}" if c else "--"
    t, p = room["tricks"], room["points"]
    return (f"{contract:>4}{room['trump']} tr {t['NS']}-{t['EW']} pts {p['NS']:2}-{p['EW']:<2} "
            f"net {net(room['delta'], side):+4}")


def run(args: argparse.Namespace) -> int:
    if args.x == args.y:
        raise UsageError("compare two different bots")
    if args.boards < 1:
        raise UsageError(f"--boards must be 1 or more, not {args.boards}")
    try:
        deals = dealsets.load(args.deals)
    except dealsets.DealSetError as exc:
        raise UsageError(str(exc)) from None
    spec = {"ruleset": args.ruleset, "options": args.options, "deals": deals.name, "seed": args.seed}
    boards = range(args.first, args.first + args.boards)
    with arena(args.workers) as a:
        found = find_stored(a.store, args.x, args.y, spec, boards)
        if found is None:
            request = {"bots": [args.x, args.y], "ruleset": args.ruleset, "options": args.options,
                       "first": args.first, "boards": args.boards, "seed": args.seed}
            driver = cli_driver()
            try:
                tid = start(a.store, a.queue, request, driver, deals)
            except (SpecError, ValueError) as exc:
                raise UsageError(str(exc)) from None
            drive(a, tid, driver, f"playing {args.x} vs {args.y}")
            found = find_stored(a.store, args.x, args.y, spec, boards)
        mid, as_stored = found
        print(f"{args.x} vs {args.y}: {args.ruleset}, deal set {deals.name}, boards {boards.start}-{boards.stop - 1}"
              f" (from match {mid})")
        print(f"{'board':>5}  {args.x + ' at N/S (room 1)':<38} {args.x + ' at E/W (room 2)':<38} {'score':>6}")
        scores = []
        for n in boards:
            record = a.store.pair(mid, n)
            rooms = record["rooms"] if as_stored else record["rooms"][::-1]
            score = record["score"] if as_stored else -record["score"]
            scores.append(score)
            print(f"{n:5}  {room_line(rooms[0], 'NS'):<38} {room_line(rooms[1], 'EW'):<38} {score:+6}")
        stats = summarize(scores).to_dict()
        print(f"\n{args.x} vs {args.y}: mean {interval(stats)} per board over {stats['boards']} boards, "
              f"W-T-L {stats['won']}-{stats['tied']}-{stats['lost']}, LOS {stats['los']:.3f}")
    return 0
