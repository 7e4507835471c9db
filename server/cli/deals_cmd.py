"""``cinch deals``: generate and verify reproducible deal-set files, and check a secret
set's revealed seed against its commitment (and, on a server, against the boards played
and their play: ``server.cli.verify_served``)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from server.arena import dealsets
from server.cli import verify_served
from server.cli.errors import UsageError


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
        "must be the rebuilt set's board of that number, and every room's play must replay "
        "(as cinch replay does) legally to its stored result; the table shape is the tournament's.",
    )
    ver.add_argument("deals", nargs="?", help="a deal-set file, or the name of a set in deals/")
    ver.add_argument("--seed", help="a secret set's revealed seed (the tournament's deals_seed once finished)")
    ver.add_argument("--commitment", metavar="SHA256", help="the published sha256 of the seed (seed_sha256)")
    ver.add_argument("--boards", type=int, help="the number of boards the commitment promises")
    ver.add_argument(
        "--players",
        type=int,
        choices=range(2, 8),
        metavar="K",
        help="the seats of the committed set (default 4; with --server, the tournament's)",
    )
    ver.add_argument(
        "--deck",
        type=int,
        choices=(52, 53),
        help="the committed set's pack (default 52, snoozer 53; with --server, the tournament's)",
    )
    ver.add_argument("--deals-sha256", metavar="SHA256", help="the published sha256 of the set's file (deals_sha256)")
    ver.add_argument("--server", metavar="URL", help="a Cinch server, to check the boards it served and their play")
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
    if not args.server:
        _reveal(args, {"players": args.players or 4, "deck": args.deck or 52}, OTHER_SHAPE)
        return 0
    with verify_served.connection(args.server) as client:
        tournament = client.tournament(args.tournament)
        rules = verify_served.tournament_rules(tournament)
        shape = verify_served.shape_of(rules)
        for flag, key in (("--players", "players"), ("--deck", "deck")):
            given = getattr(args, key)
            if given is not None and given != shape[key]:
                raise UsageError(
                    f"{flag} {given}, but tournament {tournament.id} is {rules.name} "
                    f"at {shape['players']} players with a {shape['deck']}-card deck (leave --players and --deck out)"
                )
        deals = _reveal(args, shape, f"the table of tournament {tournament.id}, {rules.name}")
        checked = verify_served.check_served(client, tournament, rules, deals)
    print(
        f"tournament {tournament.id}: {checked} finished boards checked, every room dealt the committed board "
        "and every room's play legal and scored as stored"
    )
    return 0


OTHER_SHAPE = "a set of another table shape needs --players and --deck, or --server and --tournament"


def _reveal(args: argparse.Namespace, shape: dict[str, int], source: str) -> dealsets.DealSet:
    """Rebuild the set ``--seed`` makes for ``shape``, check it against the commitment the
    flags give and print what was checked; ``source`` says where the shape comes from,
    for a sha256 that differs."""
    committed: dict[str, Any] = {"seed_sha256": args.commitment, "boards": args.boards, **shape}
    try:
        deals = dealsets.check_reveal(args.seed, committed)
    except dealsets.DealSetError as exc:
        raise UsageError(str(exc)) from None
    digest = dealsets.sha256_text(dealsets.dumps(deals))
    if args.deals_sha256 and digest != args.deals_sha256.lower():
        raise UsageError(
            f"the rebuilt set's sha256 is {digest}, --deals-sha256 says {args.deals_sha256} "
            f"(rebuilt for {shape['players']} players and a {shape['deck']}-card deck: {source})"
        )
    print(f"{deals.name}: {len(deals.boards)} boards rebuilt from the seed; sha256(seed) matches the commitment")
    print(f"sha256 {digest}" + (" (matches --deals-sha256)" if args.deals_sha256 else ""))
    return deals
