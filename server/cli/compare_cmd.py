"""``cinch compare X Y``: two bots side by side on identical deals, board by board.

Uses stored board pairs when some match of X and Y (in either order) on the same
ruleset, options and deal set holds every requested board; otherwise plays the match
as a two-bot tournament through the workers (so it is stored for next time). The user's
own entrants (``PATH.py:Class``, ``cmd:COMMAND``) are always played afresh: their
program may have changed since any stored match (``EntrantKind.fixed``).

With ``--sprt`` the comparison is a sequential test (``server.arena.sequential``):
``--max-boards`` (or ``--boards``) is the most it plays. Stored boards that already
decide are used without playing; otherwise the match is played as a tournament with the
``sprt`` option (``server.arena.match_sprt``), which stops it as soon as the test decides.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator, Sequence
from dataclasses import asdict
from typing import Any

from sdk.sprt_options import add_max_boards
from sdk.sprt_options import board_count as shared_board_count
from sdk.text import verdict as shared_verdict
from server.arena import dealsets, sequential
from server.arena.dealsets import DealSet
from server.arena.duplicate import net, units_of
from server.arena.formats import kind_of
from server.arena.formats.base import SpecError
from server.arena.match_sprt import score_bound, sprt_scores
from server.arena.planning import plan
from server.arena.registry import BUILTIN as BUILTIN_KIND
from server.arena.registry import EntrantKind, entrant_kind
from server.arena.sequential import Sprt, SprtResult
from server.arena.stats import corrected_summary, summarize
from server.arena.store import Store
from server.arena.tournaments import DEFAULTS, public_deals, table_shape
from server.cli.connect import Arena, arena
from server.cli.errors import UsageError
from server.cli.report import interval, sprt_line
from server.cli.sprt_options import add_sprt_arguments, sprt_request
from server.cli.tournament_cmd import drive, local_entrants
from server.engine import RulesetError, make_ruleset, options_doc
from workers.driver import cli_driver, start

BOARDS = 100
"""Boards compared, or with --sprt the most played, unless the command says."""


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("compare", help="compare bots board by board on identical deals")
    own = 'a built-in bot, PATH.py:Class (your sdk.Bot) or "cmd:COMMAND" (a program on the line protocol)'
    p.add_argument("x", help=own)
    p.add_argument("y", help=own)
    p.add_argument(
        "more",
        nargs="*",
        metavar="bot",
        help="one bot per unit where the ruleset's table has more "
        "than two (seven_up with three players: three bots), compared against the field",
    )
    p.add_argument(
        "--deals",
        help="deal set name or file (default: the published set of the ruleset's table "
        "size and deck: standard, standard-2p ... standard-7p; snoozer standard-53-4p ... "
        "standard-53-7p)",
    )
    p.add_argument(
        "--boards", type=int, help=f"number of boards (default {BOARDS}); with --sprt the most played, as --max-boards"
    )
    p.add_argument("--first", type=int, default=1)
    p.add_argument("--ruleset", default=DEFAULTS["ruleset"])
    p.add_argument("--options", type=json.loads, default={}, help=options_doc.one_line())
    p.add_argument("--seed", type=int, default=DEFAULTS["seed"])
    p.add_argument("--workers", type=int, help="local worker processes (default 2 embedded, 0 with REDIS_URL)")
    add_max_boards(add_sprt_arguments(p, "--max-boards is the most boards played"), str(BOARDS))
    q = p.add_argument_group(
        "planning",
        "with --plan, estimate from a pilot how many boards it takes to tell "
        "X from Y, raw, luck-corrected and with the SPRT",
    )
    q.add_argument("--plan", action="store_true", help="print the boards needed instead of comparing")
    q.add_argument("--pilot", type=int, default=PILOT, help=f"pilot boards, stored or played (default {PILOT})")
    q.add_argument(
        "--edge", type=float, help="the edge to detect, points per board (default: the pilot's luck-corrected mean)"
    )
    p.set_defaults(run=run)


PILOT = 30
"""Boards of the pilot that ``--plan`` estimates the spread from."""


def board_count(args: argparse.Namespace) -> int:
    """How many boards: --boards, or with --sprt --max-boards, its clear name there
    (both may be given only when they agree; ``sdk.sprt_options.board_count``)."""
    try:
        boards = shared_board_count(args.boards, args.max_boards, args.sprt)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    return BOARDS if boards is None else boards


def stored_matches(store: Store, x: str, y: str, spec: dict[str, Any]) -> Iterator[tuple[str, bool]]:
    """Stored matches of X and Y on ``spec``'s ruleset, options, deal set and seed, newest
    first: (match id, X sat as X); none when either is a program that may have changed
    (``spec["fresh"]``)."""
    if spec.get("fresh"):
        return
    for tid in reversed(store.tournament_ids()):
        for mid in store.match_ids(tid):
            m = store.match(mid)
            if all(m[k] == spec[k] for k in ("ruleset", "options", "deals", "seed")) and {m["x"], m["y"]} == {x, y}:
                yield mid, m["x"] == x


def find_stored(store: Store, x: str, y: str, spec: dict[str, Any], boards: range) -> tuple[str, bool] | None:
    """A stored match of X and Y holding every board in ``boards``: (match id, X sat as X)."""
    return next(
        ((mid, as_x) for mid, as_x in stored_matches(store, x, y, spec) if set(boards) <= store.stored_boards(mid)),
        None,
    )


def room_line(room: dict[str, Any], side: str) -> str:
    """One room in a line: contract, trump, tricks and points per side (in the sides'
    order: NS-EW, or P1-P2), and ``side``'s net."""
    result = room["result"]
    c = result["contract"]
    contract = f"{c['seat']}{c['amount']}" if c else "--"
    t, p = result["tricks"], result["points"]
    tricks = "-".join(str(t[u]) for u in t)
    points = "-".join(f"{p[u]}" for u in p)
    return f"{contract:>4}{result['trump'] or '-'} tr {tricks} pts {points:<5} net {int(net(result['delta'], side)):+4}"


def sprt_settings(args: argparse.Namespace) -> Sprt:
    try:
        return Sprt(
            args.delta0, args.delta1, args.alpha, args.beta, args.boards, score_bound(args.ruleset, args.options)
        )
    except ValueError as exc:
        raise UsageError(f"--sprt: {exc}") from None


def play(
    a: Arena,
    args: argparse.Namespace,
    deals: DealSet,
    sprt: dict[str, Any] | None = None,
    bots: list[str] | None = None,
    movement: dict[str, Any] | None = None,
) -> str:
    """Play the match as a tournament of its bots (X and Y, or the field ``bots``) and
    return its id; ``sprt`` (the request's ``{"sprt": {...}}``) makes it stop as soon as
    its test decides; ``movement`` replaces the entrants by another format's (X among
    copies of Y: ``run_among``)."""
    request = {
        "bots": bots or [args.x, args.y],
        **(movement or {}),
        "ruleset": args.ruleset,
        "options": args.options,
        "first": args.first,
        "boards": args.boards,
        "seed": args.seed,
        **(sprt or {}),
    }
    driver = cli_driver()
    try:
        tid = start(a.store, a.queue, request, driver, deals, local=args.local)
    except (SpecError, ValueError) as exc:
        raise UsageError(str(exc)) from None
    drive(a, tid, driver, f"playing {' vs '.join(bots or [args.x, args.y])}")
    return tid


def run(args: argparse.Namespace) -> int:
    named = {"bots": [args.x, args.y, *args.more]}
    args.local = local_entrants(named)
    bots = named["bots"]
    if len(set(bots)) != len(bots):
        raise UsageError("compare different bots: a bot is named twice")
    args.x, args.y, args.more = bots[0], bots[1], bots[2:]
    try:
        units = units_of(make_ruleset(args.ruleset, args.options))[0]
    except RulesetError as exc:
        raise UsageError(str(exc)) from None
    among = len(units) > 2 and len(bots) == 2  # X in one seat, copies of Y in the others
    if len(bots) != len(units) and not among:
        raise UsageError(
            f"{args.ruleset} with these options has {len(units)} units ({' '.join(units)}): "
            f"name 2 bots (X among copies of Y) or {len(units)} (a field), not {len(bots)}"
        )
    args.boards = board_count(args)
    if args.boards < 1:
        option = "--boards" if args.max_boards is None else "--max-boards"
        raise UsageError(f"{option} must be 1 or more, not {args.boards}")
    if len(units) > 2 and (args.plan or args.sprt):
        raise UsageError(
            f"--sprt and --plan test two bots on a table of two sides; {args.ruleset} here seats {len(units)}: "
            "compare X Y plays X among copies of Y and reports its mean with a 95% interval"
        )
    test = sprt_settings(args) if args.sprt else None
    try:
        deals = dealsets.load(
            args.deals or public_deals(*table_shape(args.ruleset, args.options)), args.config.deals_dir
        )
    except (dealsets.DealSetError, RulesetError) as exc:
        raise UsageError(str(exc)) from None
    spec = {
        "ruleset": args.ruleset,
        "options": args.options,
        "deals": deals.name,
        "seed": args.seed,
        "fresh": any(not entrant_kind(entry).fixed for entry in args.local.values()),
    }
    boards = range(args.first, args.first + args.boards)
    if args.plan and args.sprt:
        raise UsageError("--plan estimates the boards a test needs; run --sprt separately")
    if args.plan and args.pilot < 2:
        raise UsageError(f"--pilot must be 2 or more, not {args.pilot}")
    if args.plan:
        try:
            bound = score_bound(args.ruleset, args.options)
            args.planned = Sprt(args.delta0, args.delta1, args.alpha, args.beta, args.boards, bound)
        except ValueError as exc:
            raise UsageError(f"--plan: {exc}") from None
    with arena(args.config, args.workers) as a:
        if among:
            return run_among(a, args, deals, units)
        if len(units) > 2:
            return run_field(a, args, deals, bots)
        if args.plan:
            return run_plan(a, args, deals, spec)
        if test is not None:
            return run_sprt(a, args, deals, spec, test)
        mid, as_stored = stored_or_played(a, args, deals, spec, boards)
        print(
            f"{args.x} vs {args.y}: {args.ruleset}, deal set {deals.name}, boards {boards.start}-{boards.stop - 1}"
            f" (from match {mid})"
        )
        first, second = units_of(make_ruleset(args.ruleset, args.options))[0]
        print(
            f"{'board':>5}  {f'{args.x} at {first} (room 1)':<38} {f'{args.x} at {second} (room 2)':<38} "
            f"{'score':>6} {'luck':>6}"
        )
        scores, lucks = x_side(a.store, mid, as_stored, boards)
        for i, n in enumerate(boards):
            record = stored_pair(a.store, mid, n)
            rooms = record["rooms"] if as_stored else record["rooms"][::-1]
            print(
                f"{n:5}  {room_line(rooms[0], first):<38} {room_line(rooms[1], second):<38} {scores[i]:+6} "
                f"{lucks[i]:+6.1f}"
            )
        stats = summarize(scores).to_dict()
        print(
            f"\n{args.x} vs {args.y}: raw mean {interval(stats)} per board over {stats['boards']} boards, "
            f"W-T-L {stats['won']}-{stats['tied']}-{stats['lost']}, LOS {stats['los']:.3f}"
        )
        print(
            f"{args.x} vs {args.y}: luck-corrected mean {interval(corrected_summary(scores, lucks))} per board "
            f"(luck: {args.x}'s luck on the draw, by a fixed evaluator)"
        )
    return 0


def run_among(a: Arena, args: argparse.Namespace, deals: DealSet, units: Sequence[str]) -> int:
    """Two bots at a table of k > 2 units: X takes one unit among copies of Y, the unit
    turning with the board so that X holds each one (and the deal) equally often, and each
    board scores X's net less that of Y at the same unit on the same cards, every unit Y's
    (the par room). This is the blind movement with Y as the reference bot
    (docs/formats.md): X meets each board once, so the comparison is open to any entrant."""
    if not entrant_kind_of(args, args.y).reference:
        raise UsageError(
            f"compare X Y at {len(units)} units seats copies of Y, which must be a built-in bot: "
            f"{args.y} is not (name {len(units)} bots for a field instead)"
        )
    tid = play(a, args, deals, movement={"format": "blind", "bots": [args.x], "references": [args.y]})
    [mid] = a.store.match_ids(tid)
    scores = a.store.scores(mid)
    print(
        f"{args.x} among {args.y}: {args.ruleset} {json.dumps(args.options)}, deal set {deals.name}, boards "
        f"{args.first}-{args.first + args.boards - 1} (match {mid}; {args.x} at one of {len(units)} units, turning "
        f"with the board, the others {args.y}; a board: {args.x}'s net less {args.y}'s at the same unit on the "
        "same cards)"
    )
    print(f"{'board':>5}  {'unit':>5} {'score':>8}")
    for n in sorted(scores):
        record = stored_pair(a.store, mid, n)
        print(f"{n:5}  {record['side']:>5} {scores[n]:+8.2f}")
    stats = summarize([scores[n] for n in sorted(scores)]).to_dict()
    print(
        f"\n{args.x} vs {args.y}: raw mean {interval(stats)} per board over {stats['boards']} boards, "
        f"W-T-L {stats['won']}-{stats['tied']}-{stats['lost']}, LOS {stats['los']:.3f}"
    )
    return 0


def entrant_kind_of(args: argparse.Namespace, name: str) -> EntrantKind:
    """The kind of entrant ``name`` is: one of the user's own, or a built-in bot."""
    return entrant_kind(args.local[name]) if name in args.local else BUILTIN_KIND


def run_field(a: Arena, args: argparse.Namespace, deals: DealSet, bots: list[str]) -> int:
    """A table of more than two units: the bots play one match of the field (every room
    of the rotation on every board) and each one's board scores against the field are
    listed, with its mean and 95% interval."""
    tid = play(a, args, deals, bots=bots)
    match = a.store.match(a.store.match_ids(tid)[0])
    scores = a.store.entrant_scores(match["id"])
    order = match["entrants"]
    print(
        f"{' v '.join(order)}: {args.ruleset} {json.dumps(args.options)}, deal set {deals.name}, "
        f"boards {args.first}-{args.first + args.boards - 1} (match {match['id']}; each bot's net against the "
        "field, summed over the rooms)"
    )
    print(f"{'board':>5}  " + " ".join(f"{bot:>12}" for bot in order))
    for n in sorted(scores):
        print(f"{n:5}  " + " ".join(f"{score:+12.2f}" for score in scores[n]))
    for bot, stats in kind_of(match).entrant_stats(a.store, match):
        s = stats.to_dict()
        print(
            f"{bot}: raw mean {interval(s)} per board over {s['boards']} boards, W-T-L {s['won']}-{s['tied']}-"
            f"{s['lost']} (boards above, at and below zero against the field)"
        )
    return 0


def stored_or_played(
    a: Arena, args: argparse.Namespace, deals: DealSet, spec: dict[str, Any], boards: range
) -> tuple[str, bool]:
    """A stored match of X and Y holding ``boards`` (match id, X sat as X), played first
    as a two-bot tournament when there is none."""
    found = find_stored(a.store, args.x, args.y, spec, boards)
    if found is None:
        args.boards = len(boards)
        found = match_of(a.store, play(a, args, deals), args.x, args.y)
    if found is None:  # the tournament just played stores it
        raise UsageError(f"the match of {args.x} and {args.y} just played is not stored")
    return found


def match_of(store: Store, tid: str, x: str, y: str) -> tuple[str, bool] | None:
    """Tournament ``tid``'s match of X and Y: (match id, X sat as X)."""
    for mid in store.match_ids(tid):
        m = store.match(mid)
        if {m["x"], m["y"]} == {x, y}:
            return mid, m["x"] == x
    return None


def x_side(store: Store, mid: str, as_stored: bool, boards: range) -> tuple[list[int], list[float]]:
    """X's scores and lucks on ``boards`` of a stored match, in board order (a board
    without a measured luck has luck 0)."""
    sign = 1 if as_stored else -1
    records = [stored_pair(store, mid, n) for n in boards]
    return [sign * r["score"] for r in records], [sign * (r.get("luck") or 0.0) for r in records]


def stored_pair(store: Store, mid: str, n: int) -> dict[str, Any]:
    """Board pair ``n`` of match ``mid``, or the CLI's error when it is not stored."""
    record = store.pair(mid, n)
    if record is None:
        raise UsageError(f"board {n} of match {mid} is not stored")
    return record


def run_plan(a: Arena, args: argparse.Namespace, deals: DealSet, spec: dict[str, Any]) -> int:
    """Boards needed to tell X from Y (``server.arena.planning``), from a stored or played pilot."""
    pilot = range(args.first, args.first + args.pilot)
    mid, as_stored = stored_or_played(a, args, deals, spec, pilot)
    scores, lucks = x_side(a.store, mid, as_stored, pilot)
    p = plan(scores, lucks, args.edge, args.alpha, args.beta, args.planned)
    print(
        f"{args.x} vs {args.y}: {args.ruleset}, deal set {deals.name}, pilot of boards {pilot.start}-{pilot.stop - 1}"
        f" (from match {mid})"
    )
    print(
        f"edge {p.delta:.2f} points per board ({'given' if args.edge is not None else 'the pilot mean, luck-corrected'}); "
        f"sd per board: raw {p.sd_raw:.2f}, luck-corrected {p.sd_corrected:.2f}"
    )
    print(f"boards to tell them apart at alpha {args.alpha:g} with power {1 - args.beta:g}:")
    print(f"  fixed length, raw              {fmt(p.fixed_raw)}")
    print(f"  fixed length, luck-corrected   {fmt(p.fixed_corrected)}")
    span = (
        f"{fmt(p.sequential_low)} to {'more than the pilot tells' if p.sequential_high is None else p.sequential_high}"
    )
    print(
        f"  --sprt (H0 {p.delta0:+g} vs H1 {p.delta1:+g}), on average {fmt(p.sequential)}  "
        f"(pilot's shape at edge {p.delta:.2f}; from {p.pilot} pilot boards: {span})"
    )
    print(
        f"(from {p.pilot} boards the spread is known to about +-{100 / (2 * p.pilot) ** 0.5:.0f}%, "
        "the fixed-length counts to twice that)"
    )
    return 0


def fmt(boards: int | None) -> str:
    return "never (no edge)" if boards is None else str(boards)


def run_sprt(a: Arena, args: argparse.Namespace, deals: DealSet, spec: dict[str, Any], test: Sprt) -> int:
    """The sequential test on stored boards if they decide it, otherwise on a match played
    as a tournament with the same test, which stops it as soon as the test decides. A
    stored match stands in only if its boards start at ``--first``: the test reads them in
    play order from there, so another start is other evidence."""
    for mid, _ in stored_matches(a.store, args.x, args.y, spec):
        if a.store.match(mid)["first"] != args.first:
            continue
        result = result_of(a.store, mid, args, test)
        if result.decision is not None:
            print_sprt(args, deals, test, mid, result)
            return 0
    tid = play(a, args, deals, sprt_request(args))
    mid = a.store.match_ids(tid)[0]
    print_sprt(args, deals, test, mid, result_of(a.store, mid, args, test))
    played = len(a.store.stored_boards(mid))
    if played < args.boards:
        print(
            f"tournament {tid} stopped the match once the test decided, with {played} of {args.boards} "
            "board pairs played"
        )
    return 0


def result_of(store: Store, mid: str, args: argparse.Namespace, test: Sprt) -> SprtResult:
    """The test on match ``mid``'s boards stored so far, from X's side."""
    sign = 1 if store.match(mid)["x"] == args.x else -1
    return sequential.run([sign * score for score in sprt_scores(store, mid)], test)


def verdict(args: argparse.Namespace, test: Sprt, decision: str | None) -> str:
    """The decision in words (``sdk.text.verdict``, the same words as ``cinch remote compare``)."""
    return shared_verdict(args.x, args.y, decision, test.delta0, test.delta1, test.max_boards)


def print_sprt(args: argparse.Namespace, deals: DealSet, test: Sprt, mid: str, result: SprtResult) -> None:
    print(f"{args.x} vs {args.y}: {args.ruleset}, deal set {deals.name}, boards from {args.first} (from match {mid})")
    print(
        f"SPRT of {args.x}'s luck-corrected mean per board, H0 {test.delta0:+g} vs H1 {test.delta1:+g} "
        f"(alpha {test.alpha:g}, beta {test.beta:g}, at most {test.max_boards} boards)"
    )
    print(verdict(args, test, result.decision))
    print(sprt_line(asdict(result)))
