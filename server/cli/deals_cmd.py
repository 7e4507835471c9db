"""``cinch deals``: generate and verify reproducible deal-set files, and check a secret
set's revealed seed against its commitment (and, on a server, against the boards played)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from server.arena import dealsets
from server.cli.errors import UsageError
from server.engine.boards import Board, BoardError
from server.engine.cards import seats_for


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("deals", help="generate or verify deal sets")
    actions = p.add_subparsers(dest="deals_command", required=True, metavar="ACTION")
    gen = actions.add_parser("generate", help="write a deal set made by the canonical generator")
    gen.add_argument("--seed", required=True, help="the set's seed; anyone can rebuild the set from it")
    gen.add_argument("--boards", type=int, required=True, help="number of boards")
    gen.add_argument("--name", help="the set's name (default: the seed)")
    gen.add_argument(
        "--players",
        type=int,
        default=4,
        choices=range(2, 8),
        metavar="K",
        help="the table's seats, 2 to 7 (default 4): dealers rotate over P1..PK, or N E S W at 4",
    )
    gen.add_argument(
        "--deck",
        type=int,
        default=52,
        choices=(52, 53),
        help="cards in the pack: 52 (default), or 53 with the joker JK for snoozer",
    )
    gen.add_argument("--out", type=Path, help="output file (default: SEED.jsonl in the current folder)")
    gen.set_defaults(run=run_generate)
    ver = actions.add_parser(
        "verify",
        help="validate a deal-set file and check it against its seed, or check a revealed seed",
        description="cinch deals verify FILE|NAME checks a deal-set file against its seed. "
        "cinch deals verify --seed S --commitment C --boards N checks a secret set's revealed seed: "
        "sha256(S) must be C (and the rebuilt file's sha256 D, with --deals-sha256 D); with "
        "--server and --tournament, every finished board of every match of that tournament "
        "must be the rebuilt set's board of that number.",
    )
    ver.add_argument("deals", nargs="?", help="a deal-set file, or the name of a set in deals/")
    ver.add_argument("--seed", help="a secret set's revealed seed (the tournament's deals_seed once finished)")
    ver.add_argument("--commitment", metavar="SHA256", help="the published sha256 of the seed (seed_sha256)")
    ver.add_argument("--boards", type=int, help="the number of boards the commitment promises")
    ver.add_argument(
        "--players", type=int, choices=range(2, 8), metavar="K", help="the seats of the committed set (default 4)"
    )
    ver.add_argument("--deck", type=int, choices=(52, 53), help="the committed set's pack (default 52; snoozer 53)")
    ver.add_argument("--deals-sha256", metavar="SHA256", help="the published sha256 of the set's file (deals_sha256)")
    ver.add_argument("--server", metavar="URL", help="a Cinch server, to check the boards it served")
    ver.add_argument("--tournament", metavar="ID", help="the tournament to check on --server")
    ver.set_defaults(run=run_verify)


def run_generate(args: argparse.Namespace) -> int:
    if args.boards < 1:
        raise UsageError("--boards must be at least 1")
    out = args.out or Path(f"{args.seed}.jsonl")
    try:
        digest = dealsets.write(dealsets.generate(args.seed, args.boards, args.name, args.players, args.deck), out)
    except OSError as exc:
        raise UsageError(f"cannot write {out}: {exc.strerror}") from None
    print(f"wrote {args.boards} boards to {out}\nsha256 {digest}")
    return 0


def run_verify(args: argparse.Namespace) -> int:
    if args.seed is not None or args.commitment is not None:
        return run_verify_seed(args)
    if args.deals is None:
        raise UsageError("name a deal-set file or set, or give --seed, --commitment and --boards")
    if args.server or args.tournament or args.boards is not None or args.deals_sha256 or args.players or args.deck:
        raise UsageError(
            "--boards, --players, --deck, --deals-sha256, --server and --tournament go with --seed and --commitment"
        )
    try:
        deals = dealsets.load(args.deals, args.config.deals_dir)
    except dealsets.DealSetError as exc:
        raise UsageError(str(exc)) from None
    bad = dealsets.mismatches(deals)
    if bad:
        raise UsageError(f"{len(bad)} boards differ from the generator for seed {deals.seed!r}, first: {bad[0]}")
    print(f"{deals.name}: {len(deals.boards)} valid boards, all rebuilt from seed {deals.seed!r}")
    return 0


def run_verify_seed(args: argparse.Namespace) -> int:
    if args.deals is not None:
        raise UsageError("give either a deal-set file or --seed, not both")
    missing = [
        flag
        for flag, value in (("--seed", args.seed), ("--commitment", args.commitment), ("--boards", args.boards))
        if value is None
    ]
    if missing:
        raise UsageError(f"checking a revealed seed needs {', '.join(missing)} too")
    if args.boards < 1:
        raise UsageError("--boards must be at least 1")
    if bool(args.server) != bool(args.tournament):
        raise UsageError("--server and --tournament go together")
    committed: dict[str, Any] = {"seed_sha256": args.commitment, "boards": args.boards}
    if args.players:
        committed["players"] = args.players
    if args.deck:
        committed["deck"] = args.deck
    if args.deals_sha256:
        committed["deals_sha256"] = args.deals_sha256
    try:
        deals = dealsets.check_reveal(args.seed, committed)
    except dealsets.DealSetError as exc:
        raise UsageError(str(exc)) from None
    digest = dealsets.sha256_text(dealsets.dumps(deals))
    print(f"{deals.name}: {len(deals.boards)} boards rebuilt from the seed; sha256(seed) matches the commitment")
    print(f"sha256 {digest}" + (" (matches --deals-sha256)" if args.deals_sha256 else ""))
    if args.server:
        checked = check_served(args.server, args.tournament, deals)
        print(f"tournament {args.tournament}: {checked} finished boards checked, every room dealt the committed board")
    return 0


def check_served(url: str, tid: str, deals: dealsets.DealSet) -> int:
    """Fetch every finished board pair of every match of tournament ``tid`` and check
    that each room present was dealt the rebuilt board of that number; returns how
    many (match, board) pairs were checked. ``UsageError`` on any difference."""
    import sdk  # the CLI's client side; imported here so the rest of the command needs no server

    client = sdk.Client(url)
    try:
        tournament = client.tournament(tid)
        _check_tournament_commitment(tournament.raw, deals)
        matches = client.matches(tid)
        checked = 0
        for match in matches:
            for n in range(tournament.first, tournament.first + tournament.boards):
                try:
                    record = client.board_pair(match.id, n).to_dict()
                except sdk.ApiError as exc:
                    if exc.status == 404:  # not finished everywhere yet: nothing served to check
                        continue
                    raise
                if n > len(deals.boards):
                    raise UsageError(
                        f"match {match.id} played board {n}, but the set has only {len(deals.boards)} boards"
                    )
                _check_rooms(match.id, n, record, deals)
                checked += 1
    except sdk.SdkError as exc:
        raise UsageError(f"{url}: {exc}") from None
    if checked == 0:
        print(f"tournament {tid}: no board is finished in every match yet; nothing to check")
    return checked


def _check_tournament_commitment(served: dict[str, Any], deals: dealsets.DealSet) -> None:
    """When the server shows the tournament's commitment or seed, they must be this set's."""
    ours = dealsets.commitment(deals)
    theirs = served.get("commitment")
    if theirs:
        for key in ("name", "boards", "seed_sha256", "deals_sha256"):
            if key in theirs and theirs[key] != ours[key]:
                raise UsageError(f"the tournament's commitment has {key} {theirs[key]!r}, the seed gives {ours[key]!r}")
    if served.get("deals_seed") not in (None, deals.seed):
        raise UsageError("the tournament reveals a different seed from --seed")
    if served.get("deals") not in (None, deals.name):
        raise UsageError(f"the tournament is dealt from {served['deals']!r}, the seed makes {deals.name!r}")


def _check_rooms(mid: str, n: int, record: dict[str, Any], deals: dealsets.DealSet) -> None:
    """Every room of board ``n``'s served record was dealt board ``n`` of ``deals``."""
    expected = deals.board(n)
    rooms = record.get("rooms")
    if not isinstance(rooms, list) or not rooms:
        raise UsageError(f"match {mid} board {n}: the served record has no rooms")
    for index, room in enumerate(rooms, 1):
        served = room.get("board") if isinstance(room, dict) else None
        try:
            board = Board.from_dict(served, seats_for(deals.players), deals.deck)
        except BoardError as exc:
            raise UsageError(f"match {mid} board {n} room {index}: the served board is not valid ({exc})") from None
        if board != expected:
            raise UsageError(
                f"match {mid} board {n} room {index}: the served board differs from board {n} of the committed set"
            )
