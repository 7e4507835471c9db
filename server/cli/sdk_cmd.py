"""``cinch bot`` and ``cinch remote``: the arena over its REST API, through the Python SDK.

    cinch bot register NAME --server URL                 print the new bot's token (once)
    cinch bot run module:Class --server URL --token-file F   serve the bot's decisions until Ctrl-C (or --until-done)
    cinch bot run --cmd COMMAND --server URL --token-file F  the same for a program in any language (line protocol)
    cinch bot new NAME [--ruleset R] [--dir D]           write NAME.py (a bot) and test_NAME.py (its offline test)
    cinch bot list | rotate NAME
    cinch remote tournament create --bots a b ... [--boards N] [--sprt ...] --server URL --admin-token T
    cinch remote tournament watch ID | list | cancel ID | resume ID
    cinch remote standings ID
    cinch remote compare X Y [--tournament ID] | [--sprt ...] [--practice] [--deals secret|NAME]
    cinch remote bot trust | untrust | enable | disable NAME      (admin)
    cinch remote ratings [RULESET]
    cinch remote table open [--ruleset R] [--seat SEAT=BOT ...] [--human SEAT=NAME[:MS] ...]
    cinch remote table show ID | list | record ID [--hand N]

Everything here is a client of a running server (``cinch serve``): it imports the SDK
(requests and the standard library), argparse and tqdm, never the server's own modules.
``--server`` defaults to ``$CINCH_SERVER``, tokens to ``$CINCH_TOKEN`` and
``$CINCH_ADMIN_TOKEN``. Errors are one line on standard error and exit status 2.

Which server: tournament ids are per arena (a local ``cinch tournament``'s t1 is not the
server's t1), so every report here starts with ``server: URL`` on standard output, a
one-line confirmation names the server in its line, and output meant for scripts (a
new tournament's id, a token, ``--json``) stays as it was on standard output and names
the server on standard error.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import re
import sys
from collections.abc import Callable
from typing import Any

from tqdm import tqdm

import sdk
from sdk.cli import add_bot_commands
from sdk.launch import add_server_argument, token_of
from sdk.sprt_options import add_max_boards, add_sprt_arguments, board_count, settings_without_sprt, sprt_request
from sdk.text import heading, mean_interval, name_width, rating_row, ratings_title, sprt_decision, sprt_line, verdict


def _clean(run: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """SDK errors (unreachable server, problem answers, a bot that will not load) -> message, exit 2."""

    @functools.wraps(run)
    def wrapper(args: argparse.Namespace) -> int:
        try:
            return run(args)
        except sdk.SdkError as exc:
            print(f"cinch {getattr(args, 'command', 'remote')}: {exc}", file=sys.stderr)
            return 2

    return wrapper


def _client(args: argparse.Namespace, token: str | None = None, admin: bool = False) -> sdk.Client:
    return sdk.Client(args.server, token=token, admin_token=admin_token(args) if admin else None)


def admin_token(args: argparse.Namespace) -> str | None:
    """``--admin-token``, else the configured one (``$CINCH_ADMIN_TOKEN``)."""
    return getattr(args, "admin_token", None) or client_setting("CINCH_ADMIN_TOKEN")


def print_json(client: sdk.Client, value: Any) -> int:
    """``--json``: the data alone on standard output, for scripts; the server's name on
    standard error, as every report names it."""
    print(f"server: {client.base_url}", file=sys.stderr)
    print(json.dumps(value, indent=2))
    return 0


def server_line(client: sdk.Client) -> None:
    """The first line of a report: which arena it read (ids are per arena)."""
    print(f"server: {client.base_url}", flush=True)


def _admin_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--admin-token",
        help="the arena's admin token (default: $CINCH_ADMIN_TOKEN)",
    )


def register(sub: argparse._SubParsersAction) -> None:
    # ------------------------------------------------------------------ cinch bot
    bot = sub.add_parser(
        "bot",
        help="register and run remote bots (Python SDK)",
        description="Remote bots over the REST API: register one, run one with the SDK.",
    )
    actions = bot.add_subparsers(dest="bot_command", required=True, metavar="ACTION")
    p = actions.add_parser("register", help="register a remote bot and print its token (shown once)")
    p.add_argument("name", help="2-32 characters: lowercase letters, digits, - and _, starting with a letter")
    p.add_argument("--description", default="")
    p.add_argument(
        "--token-file",
        metavar="PATH",
        help="write the token to this new file, readable by you alone, instead of printing it "
        "(then: cinch bot run ... --token-file PATH)",
    )
    add_server_argument(p)
    p.set_defaults(run=run_register)
    add_bot_commands(actions, _clean)
    p = actions.add_parser("list", help="list the arena's bots with their ratings")
    add_server_argument(p)
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=run_list)
    p = actions.add_parser("rotate", help="replace a bot's token (the old one stops working) and print the new one")
    p.add_argument("name")
    p.add_argument("--token", help="the bot's current token (default: $CINCH_TOKEN)")
    _admin_argument(p)
    add_server_argument(p)
    p.set_defaults(run=run_rotate)

    # ------------------------------------------------------------------ cinch remote
    remote = sub.add_parser(
        "remote",
        help="tournaments, standings, comparisons and tables on a remote arena",
        description="Use an arena over its REST API (see `cinch serve`).",
    )
    actions = remote.add_subparsers(dest="remote_command", required=True, metavar="ACTION")
    tournament = actions.add_parser("tournament", help="create, watch or list tournaments")
    tactions = tournament.add_subparsers(dest="tournament_command", required=True, metavar="ACTION")
    p = tactions.add_parser("create", help="create a tournament (admin) and print its id")
    p.add_argument("--bots", nargs="+", help="round robin or blind movement: the bots")
    p.add_argument(
        "--format",
        help="round_robin, gauntlet, blind or progressive (the server checks it); server default: a gauntlet "
        "with --candidates, else round_robin if every bot is trusted, else blind",
    )
    p.add_argument("--name", help="a name for people, shown wherever the tournament is listed (optional)")
    p.add_argument("--rounds", type=int, help="progressive: rounds of four boards (server default 2T)")
    p.add_argument("--candidates", nargs="+", help="gauntlet: the bots being tested")
    p.add_argument(
        "--references", nargs="+", help="gauntlet: the bots every candidate plays; blind: the built-in reference bots"
    )
    p.add_argument("--boards", type=int, help="board pairs per match (server default 100)")
    p.add_argument("--first", type=int, help="first board number")
    p.add_argument(
        "--deals",
        help="deal set name, or secret (server default: standard for built-in bots, "
        "a fresh secret set with remote ones)",
    )
    p.add_argument("--practice", action="store_true", help="allow a named (public) deal set with remote bots")
    p.add_argument(
        "--ruleset",
        help="a ruleset name (default american62; docs/rules lists them all, and the server refuses a name it "
        "does not know with the list of those it does)",
    )
    p.add_argument("--options", type=_json_object, help="ruleset options as a JSON object")
    p.add_argument("--chunk", type=int, help="boards per job")
    p.add_argument("--seed", type=int, help="seed of the built-in bots")
    p.add_argument("--decision-ms", type=int, help="remote bots: time per decision")
    p.add_argument("--bank-ms", type=int, help="remote bots: time bank per match")
    p.add_argument("--max-timeouts", type=int, help="remote bots: timeouts before a bot is faulty in a match")
    p.add_argument(
        "--watch", action="store_true", help="then show progress, each sequential test's decision and the standings"
    )
    add_max_boards(
        add_sprt_arguments(p, "--boards (or --max-boards) is the most boards a match plays; two-room formats only"),
        "the server's",
    )
    _admin_argument(p)
    add_server_argument(p)
    p.set_defaults(run=run_create)
    p = tactions.add_parser("watch", help="show a tournament's progress until it finishes, then its standings")
    p.add_argument("id")
    p.add_argument("--poll", type=float, default=1.0, help="seconds between checks (default 1)")
    p.add_argument("--timeout", type=float, help="give up after this many seconds")
    p.add_argument("--quiet", action="store_true", help="no standings at the end")
    add_server_argument(p)
    p.set_defaults(run=run_watch)
    for action, says in (
        ("cancel", "cancel a tournament (admin): queued jobs removed, running ones stop"),
        ("resume", "resume an interrupted, cancelled or failed tournament (admin)"),
    ):
        p = tactions.add_parser(action, help=says)
        p.add_argument("id")
        add_server_argument(p)
        _admin_argument(p)
        p.set_defaults(run=run_cancel if action == "cancel" else run_resume)
    p = tactions.add_parser("list", help="list tournaments with their progress")
    add_server_argument(p)
    p.set_defaults(run=run_tournaments)
    p = actions.add_parser("standings", help="a tournament's standings, cross-table and matches")
    p.add_argument("id")
    p.add_argument("--json", action="store_true", help="the results as the API returns them")
    add_server_argument(p)
    p.set_defaults(run=run_standings)
    p = actions.add_parser(
        "compare",
        help="two bots board by board from a stored match of the two, or a match played for it (admin)",
        description="Without --sprt: X and Y board by board from the newest stored match of the two (or "
        "--tournament's); when there is none, and with the admin token, a two-bot tournament is created, "
        "watched to its end and shown. With --sprt: a new two-bot tournament with the sequential test, "
        "stopped as soon as it decides; the decision, the boards it used and the anytime-valid interval "
        "are printed.",
    )
    p.add_argument("x")
    p.add_argument("y")
    p.add_argument("--tournament", help="the tournament (default: the newest with a match of X and Y)")
    played = p.add_argument_group("a match played for the comparison (admin)")
    played.add_argument("--ruleset", help="a ruleset name (server default american62); also picks the stored match")
    played.add_argument("--options", type=_json_object, help="ruleset options as a JSON object")
    played.add_argument(
        "--deals",
        help="deal set name, or secret for a fresh secret set (server default: standard for built-in bots, "
        "secret with a remote one); a name also picks the stored match",
    )
    played.add_argument(
        "--practice", action="store_true", help="allow a named (public) deal set with a remote bot: proves little"
    )
    played.add_argument("--first", type=int, help="first board number")
    played.add_argument("--boards", type=int, help="boards played (server default 100); with --sprt the most")
    played.add_argument("--seed", type=int, help="seed of the built-in bots")
    played.add_argument("--poll", type=float, default=1.0, help="seconds between checks while it plays (default 1)")
    played.add_argument("--timeout", type=float, help="give up waiting after this many seconds")
    add_max_boards(add_sprt_arguments(p, "--max-boards (or --boards) is the most boards played"), "the server's")
    _admin_argument(p)
    add_server_argument(p)
    p.set_defaults(run=run_compare)

    bot = actions.add_parser("bot", help="trust, untrust, enable or disable a bot (admin)")
    bactions = bot.add_subparsers(dest="bot_action", required=True, metavar="ACTION")
    for action, says in BOT_ACTIONS.items():
        p = bactions.add_parser(action, help=says)
        p.add_argument("name")
        _admin_argument(p)
        add_server_argument(p)
        p.set_defaults(run=run_bot_admin)
    p = actions.add_parser("ratings", help="the leaderboard of a ruleset")
    p.add_argument("ruleset", nargs="?", default="american62")
    add_server_argument(p)
    p.set_defaults(run=run_ratings)
    _register_tables(actions)


def _register_tables(actions: argparse._SubParsersAction) -> None:
    """``cinch remote table open | show | list | record``: whole games, bots' and people's."""
    table = actions.add_parser("table", help="open a table (a whole game), show or list tables, read a record")
    tactions = table.add_subparsers(dest="table_command", required=True, metavar="ACTION")
    p = tactions.add_parser(
        "open",
        help="open a table and print its id, its page and each person's private seat link",
        description="Open a table of one whole game: bots at the seats given with --seat, people at those "
        "given with --human (each gets a private link, printed on standard output once: its fragment is the "
        "seat's token), the rest open for bots to join. A bot's token seats itself and built-in bots; the "
        "admin token seats any bot.",
    )
    p.add_argument("--ruleset", help="a ruleset name (server default american62)")
    p.add_argument("--options", type=_json_object, help="ruleset options as a JSON object ('{\"players\": 3}')")
    p.add_argument(
        "--seat",
        action="append",
        default=[],
        type=_bot_seat,
        metavar="SEAT=BOT",
        help="a bot at a seat (N E S W at four players, P1..Pk else): built-in (random, rule, search) or "
        "registered; once per seat",
    )
    p.add_argument(
        "--human",
        action="append",
        default=[],
        type=_human_seat,
        metavar="SEAT=NAME[:MS]",
        help="a person's seat, played from its private link; MS their time per decision in milliseconds "
        "(10000-600000, server default 60000); once per seat",
    )
    p.add_argument("--seed", type=int, help="seed of the built-in bots")
    p.add_argument("--decision-ms", type=int, help="remote bots: time per decision")
    p.add_argument("--bank-ms", type=int, help="remote bots: time to draw on beyond --decision-ms, for the game")
    p.add_argument(
        "--max-timeouts", type=int, help="timeouts before the rest of a seat's decisions are defaulted (people's too)"
    )
    p.add_argument(
        "--practice", action="store_true", help="let one remote bot hold opposing seats (it sees both their hands)"
    )
    p.add_argument("--token-file", help="a bot's token, read from this file: it may seat itself and built-in bots")
    p.add_argument("--token", help="a bot's token (visible to every user of the machine: prefer $CINCH_TOKEN)")
    p.add_argument("--json", action="store_true", help="print the id, page and seat links as one JSON object")
    _admin_argument(p)
    add_server_argument(p)
    p.set_defaults(run=run_table_open)
    p = tactions.add_parser("show", help="a table's public state: seats, scores, status, winner")
    p.add_argument("id")
    p.add_argument("--json", action="store_true", help="the table as the API returns it")
    add_server_argument(p)
    p.set_defaults(run=run_table_show)
    p = tactions.add_parser("list", help="every table with its status, scores and seats")
    p.add_argument("--json", action="store_true", help="the tables as the API returns them")
    add_server_argument(p)
    p.set_defaults(run=run_table_list)
    p = tactions.add_parser(
        "record",
        help="a finished table's record as JSON; --hand N: that hand alone, a `cinch replay` input",
    )
    p.add_argument("id")
    p.add_argument("--hand", type=int, help="print only hand N (1 is the first): `... --hand 1 | cinch replay -`")
    add_server_argument(p)
    p.set_defaults(run=run_table_record)


BOT_ACTIONS = {
    "trust": "mark a remote bot trusted: it may play two-room matches, meeting every board twice",
    "untrust": "mark a remote bot untrusted: it plays only the blind movement and Progressive Cinch",
    "enable": "enable a disabled bot: its token works again and it may enter tournaments",
    "disable": "disable a bot: its token stops working and it cannot enter tournaments",
}


def _json_object(text: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise argparse.ArgumentTypeError(f"not JSON: {exc}") from None
    if not isinstance(value, dict):
        raise argparse.ArgumentTypeError("must be a JSON object")
    return value


# ---------------------------------------------------------------------- cinch bot ...
@_clean
def run_register(args: argparse.Namespace) -> int:
    if args.token_file and os.path.exists(args.token_file):
        raise sdk.SdkError(f"--token-file: {args.token_file} exists; name a new file (a token is never overwritten)")
    issued = _client(args).register_bot(args.name, args.description)
    if args.token_file:
        save_token(args.token_file, issued.token)
        print(
            f"registered bot {issued.name} at {args.server}; its token is in {args.token_file} (yours alone to "
            f"read). Run it with: cinch bot run module:Class --server {args.server} --token-file {args.token_file}",
            file=sys.stderr,
        )
        return 0
    print(
        f"registered bot {issued.name} at {args.server}; its token follows, shown this once "
        f"(keep it in a file only you can read and run the bot with: cinch bot run module:Class --server "
        f"{args.server} --token-file FILE, or set CINCH_TOKEN)",
        file=sys.stderr,
    )
    print(issued.token)
    return 0


def save_token(path: str, token: str) -> None:
    """Write a new token file with mode 0600 from its creation, so no other user of the
    machine can read it even for a moment (a shell's ``> file`` makes it world-readable
    under the usual umask)."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except OSError as exc:
        raise sdk.SdkError(
            f"the bot is registered, but its token could not be saved to {path} ({exc.strerror}): "
            f"here it is, shown this once: {token}"
        ) from None
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(token + "\n")


@_clean
def run_list(args: argparse.Namespace) -> int:
    client = _client(args)
    bots = client.bots()
    if args.json:
        return print_json(client, [b.to_dict() for b in bots])
    server_line(client)
    print(f"{'bot':20} {'kind':8} {'status':9} ratings (points per board, * provisional; matches)")
    for b in bots:
        ratings = (
            ", ".join(
                f"{rs} {r.rating:+.2f}{'*' if r.provisional else ''} ({r.matches})"
                for rs, r in sorted(b.ratings.items())
            )
            or "-"
        )
        print(f"{b.name:20} {b.kind:8} {b.status:9} {ratings}")
    return 0


@_clean
def run_rotate(args: argparse.Namespace) -> int:
    token = args.token or client_setting("CINCH_TOKEN")
    if not token and not admin_token(args):
        raise sdk.SdkError("give the bot's current --token or the --admin-token")
    client = _client(args, token=token, admin=True)
    issued = client.rotate_token(args.name)
    print(
        f"new token for {issued.name} on server {client.base_url} (the old one no longer works), shown this once:",
        file=sys.stderr,
    )
    print(issued.token)
    return 0


# ---------------------------------------------------------------------- cinch remote ...
@_clean
def run_create(args: argparse.Namespace) -> int:
    if not admin_token(args):
        raise sdk.SdkError("creating a tournament needs the admin token: --admin-token T or $CINCH_ADMIN_TOKEN")
    if not args.bots and not args.candidates:
        raise sdk.SdkError("name the bots: --bots a b ... (or --candidates and --references for a gauntlet)")
    boards = _boards(args)
    limits = {
        k: v
        for k, v in (("decision_ms", args.decision_ms), ("bank_ms", args.bank_ms), ("max_timeouts", args.max_timeouts))
        if v is not None
    }
    client = _client(args, admin=True)
    tid = create(
        client,
        args.bots,
        format=args.format,
        candidates=args.candidates,
        references=args.references,
        ruleset=args.ruleset,
        options=args.options,
        deals=args.deals,
        first=args.first,
        boards=boards,
        chunk=args.chunk,
        seed=args.seed,
        limits=limits or None,
        practice=args.practice or None,
        rounds=args.rounds,
        name=args.name,
        **sprt_request(args),
    )
    print(f"tournament {tid} created on server {client.base_url}", file=sys.stderr)
    print(tid, flush=True)
    if args.watch:
        server_line(client)
        return _watch(client, tid, poll=1.0, timeout=None, quiet=False)
    return 0


def _boards(args: argparse.Namespace) -> int | None:
    """``--boards``, or ``--max-boards`` with ``--sprt``; the sequential test's settings
    only with ``--sprt``."""
    forgotten = settings_without_sprt(args)
    if forgotten:
        raise sdk.SdkError(f"{' '.join(forgotten)} set the sequential test: add --sprt")
    try:
        return board_count(args.boards, args.max_boards, args.sprt)
    except ValueError as exc:
        raise sdk.SdkError(str(exc)) from None


def create(client: sdk.Client, bots: list[str] | None, **fields: Any) -> str:
    """``Client.create_tournament``, its refusals with the flag that fixes them."""
    try:
        return client.create_tournament(bots, **fields)
    except sdk.ApiError as exc:
        raise sdk.SdkError(with_hint(exc)) from None


def with_hint(exc: sdk.ApiError) -> str:
    """A refusal of a tournament, in the server's words and then this command's flag that
    answers it: ``--practice`` or ``--deals secret`` for a named deal set with a remote
    bot, ``cinch remote bot trust`` for an untrusted bot in a two-room format."""
    text = str(exc)
    if exc.status != 422:
        return text
    if '"practice": true' in exc.detail:
        text += (
            "; add --practice to play that named set anyway (a practice run: it proves little), "
            "or --deals secret for a fresh secret set"
        )
    untrusted = re.search(r"/api/v1/bots/([^/\s]+)/trust", exc.detail)
    if untrusted:
        text += f"; `cinch remote bot trust {untrusted.group(1)}` (admin) marks it trusted"
    return text


@_clean
def run_watch(args: argparse.Namespace) -> int:
    client = _client(args)
    server_line(client)
    return _watch(client, args.id, args.poll, args.timeout, args.quiet)


@_clean
def run_cancel(args: argparse.Namespace) -> int:
    client = _client(args, admin=True)
    t = client.cancel_tournament(args.id)
    print(
        f"tournament {t.id} on server {client.base_url} cancelled at {t.pairs_done}/{t.pairs_total} board pairs; "
        f"`cinch remote tournament resume {t.id}` continues it"
    )
    return 0


@_clean
def run_resume(args: argparse.Namespace) -> int:
    client = _client(args, admin=True)
    t = client.resume_tournament(args.id)
    print(
        f"tournament {t.id} on server {client.base_url} {t.status} again at {t.pairs_done}/{t.pairs_total} board pairs"
    )
    return 0


@_clean
def run_bot_admin(args: argparse.Namespace) -> int:
    """trust, untrust, enable, disable: one line saying what changed (or that nothing did)."""
    action = args.bot_action
    if not admin_token(args):
        raise sdk.SdkError(f"to {action} a bot needs the admin token: --admin-token T or $CINCH_ADMIN_TOKEN")
    client = _client(args, admin=True)
    before = client.bot(args.name)  # a clean 404 for an unknown bot
    if action in ("trust", "untrust"):
        after = client.trust_bot(args.name, action == "trust")
        was, state = ("trusted" if b.trusted else "untrusted" for b in (before, after))
    else:
        after = client.enable_bot(args.name) if action == "enable" else client.disable_bot(args.name)
        was, state = before.status, after.status
    change = f"now {state}" if was != state else f"already {state}, unchanged"
    print(f"bot {args.name} on server {client.base_url}: {change}")
    return 0


def _note(t: sdk.Tournament) -> str:
    """Beside the progress bar: a status other than running, and remote bots it waits for."""
    notes = [] if t.status in ("running", "finished") else [t.status]
    notes += [f"waiting for {w['bot']} (not connected)" for w in t.waiting if not w.get("connected")]
    notes += [f"{w['bot']}: {w['timeouts']} timeouts" for w in t.waiting if w.get("connected") and w.get("timeouts")]
    return ", ".join(notes)


def _watch(
    client: sdk.Client, tid: str, poll: float, timeout: float | None, quiet: bool, decisions: bool = True
) -> int:
    """Progress on standard error until the tournament ends; with ``decisions``, each
    match's sequential test decision on standard output as it comes (once per match);
    unless ``quiet``, the standings at the end."""
    first = client.tournament(tid)  # a clean 404 for an unknown id
    told: set[str] = set()

    def tell(bar: tqdm[Any] | None) -> None:
        for m in client.matches(tid):
            line = sprt_decision(m.x, m.y, m.sprt or {})
            if line is not None and m.id not in told:
                told.add(m.id)
                if bar is None:
                    print(line, flush=True)
                else:
                    bar.write(line, file=sys.stdout)
                    sys.stdout.flush()

    decisions = decisions and first.sprt is not None
    with tqdm(total=first.pairs_total, unit="pair", desc=f"tournament {tid}", file=sys.stderr) as bar:

        def progress(t: sdk.Tournament) -> None:
            bar.set_postfix_str(_note(t), refresh=False)
            bar.update(t.pairs_done - bar.n)
            if decisions:
                try:
                    tell(bar)
                except sdk.SdkError:
                    pass  # the next poll asks again; the end asks once more

        try:
            last = client.wait_for_tournament(tid, poll=poll, timeout=timeout, on_progress=progress)
        except TimeoutError as exc:
            raise sdk.SdkError(f"{exc} (it goes on running on the server)") from None
    if decisions:
        tell(None)
    if not last.is_finished:
        reason = f": {last.error}" if last.error else ""
        raise sdk.SdkError(
            f"tournament {tid} was {last.status}{reason}; `cinch remote tournament resume {tid}` continues it"
        )
    if not quiet:
        _print_results(client.results(tid), client.matches(tid))
    return 0


@_clean
def run_tournaments(args: argparse.Namespace) -> int:
    client = _client(args)
    every = client.tournaments()
    server_line(client)
    print(f"{'id':8} {'status':12} {'format':12} {'ruleset':11} {'progress':>13}  bots")
    for t in every:
        progress = f"{t.pairs_done}/{t.pairs_total}"
        name = f"  {t.name!r}" if t.name else ""
        print(f"{t.id:8} {t.status:12} {t.format:12} {t.ruleset:11} {progress:>13}  {' '.join(t.players)}{name}")
    return 0


@_clean
def run_standings(args: argparse.Namespace) -> int:
    client = _client(args)
    results = client.results(args.id)
    if args.json:
        return print_json(client, results.to_dict())
    t = client.tournament(args.id)
    server_line(client)
    if not t.is_finished:
        print(f"(tournament {t.id} is still running: {t.pairs_done} of {t.pairs_total} board pairs so far)")
    _print_results(results, client.matches(args.id))
    return 0


def _print_results(results: sdk.Results, matches: list[sdk.Match]) -> None:
    print(f"\n{heading(results.to_dict())}\n")
    if results.rounds:
        print(results.progressive_text())
        return
    bots = [row.bot for row in results.standings]
    name = name_width(bots)
    print(f"Standings ({results.standings_note or 'mean per board'})")
    print(f"  {'#':>2} {'bot':{name}} {'mean [95% interval]':>28} {'boards':>7} {'W-T-L':>15} {'matches won':>12}")
    for rank, row in enumerate(results.standings, 1):
        wtl = f"{row.won}-{row.tied}-{row.lost}"
        print(
            f"  {rank:>2} {row.bot:{name}} {mean_interval(row.mean, row.ci_low, row.ci_high):>28} {row.boards:7} "
            f"{wtl:>15} {row.match_wins:>5} of {row.matches}"
        )
    width = name_width(bots, 26) + 2
    print("\nCross-table (row bot's mean per board against column bot, 95% interval)")
    print("  " + " " * name + "".join(f"{b:>{width}}" for b in bots))
    for me in bots:
        cells = results.crosstable.get(me, {})
        print(f"  {me:{name}}" + "".join(f"{cells[o].interval() if o in cells else '-':>{width}}" for o in bots))
    print("\nMatches")
    extra = {m.id: m for m in matches}
    for m in results.matches:
        s = m.stats
        line = (
            f"  {m.id:10} {m.x} vs {m.y}: {s.boards} boards, {s.interval()}, "
            f"W-T-L {s.won}-{s.tied}-{s.lost}, LOS {s.los:.3f}"
        )
        more = extra.get(m.id)
        if more is not None and more.timeouts:
            line += "; timeouts " + ", ".join(f"{b} {n}" for b, n in sorted(more.timeouts.items()))
        if more is not None and more.faulty:
            line += "; faulty " + ", ".join(more.faulty)
        print(line)
        if m.sprt:
            print(f"  {'':10} sequential test: {m.sprt['decision'] or 'undecided'}, {sprt_line(m.sprt)}")


@_clean
def run_compare(args: argparse.Namespace) -> int:
    if args.x == args.y:
        raise sdk.SdkError("compare two different bots")
    boards = _boards(args)
    if args.sprt and args.tournament:
        raise sdk.SdkError("--tournament reads a stored match; --sprt plays a new one with the test: give one of them")
    client = _client(args, admin=True)
    found = None if args.sprt else _find_match(client, args.x, args.y, args.tournament, args.ruleset, args.deals)
    if found is None:
        if args.tournament:
            raise sdk.SdkError(f"no match of {args.x} and {args.y} in tournament {args.tournament}")
        if not admin_token(args):
            why = (
                "--sprt plays a new match"
                if args.sprt
                else f"no match of {args.x} and {args.y} in any tournament on the server {client.base_url}"
            )
            raise sdk.SdkError(f"{why}; to play one, give the admin token: --admin-token T or $CINCH_ADMIN_TOKEN")
        found = _play(client, args, boards)
    t, match = found
    server_line(client)
    if args.sprt:
        _print_sprt(t, match)
    else:
        _print_boards(client, args, t, match)
    return 0


def _play(client: sdk.Client, args: argparse.Namespace, boards: int | None) -> tuple[sdk.Tournament, sdk.Match]:
    """A two-bot tournament of X and Y (X first, so the match is from X's side), with the
    test under ``--sprt``, watched to its end: the tournament and its match."""
    tid = create(
        client,
        [args.x, args.y],
        format="round_robin",
        ruleset=args.ruleset,
        options=args.options,
        deals=args.deals,
        first=args.first,
        boards=boards,
        seed=args.seed,
        practice=args.practice or None,
        **sprt_request(args),
    )
    test = " with the sequential test" if args.sprt else ""
    print(f"playing {args.x} vs {args.y}{test} as tournament {tid} on server {client.base_url}", file=sys.stderr)
    _watch(client, tid, args.poll, args.timeout, quiet=True, decisions=False)
    t = client.tournament(tid)
    match = next((m for m in client.matches(tid) if (m.x, m.y) == (args.x, args.y)), None)
    if match is None:
        raise sdk.SdkError(f"tournament {tid} holds no match of {args.x} and {args.y}")
    return t, match


def _print_sprt(t: sdk.Tournament, match: sdk.Match) -> None:
    """The test's decision, the boards it used and the anytime-valid interval, as ``cinch compare --sprt``."""
    x, y, s = match.x, match.y, match.sprt
    if not s:
        raise sdk.SdkError(f"match {match.id} of tournament {t.id} has no sequential test")
    settings = t.sprt or {}
    d0, d1 = settings.get("delta0", 0.0), settings.get("delta1", 0.0)
    print(f"{x} vs {y}: {t.ruleset}, deal set {t.deals}, boards from {t.first} (match {match.id} of tournament {t.id})")
    print(
        f"SPRT of {x}'s luck-corrected mean per board, H0 {d0:+g} vs H1 {d1:+g} "
        f"(alpha {settings.get('alpha', 0):g}, beta {settings.get('beta', 0):g}, at most {t.boards} boards)"
    )
    print(verdict(x, y, s.get("decision"), d0, d1, t.boards))
    print(sprt_line(s))
    if t.pairs_done < t.pairs_total:
        print(
            f"tournament {t.id} stopped the match once the test decided, with {t.pairs_done} of {t.pairs_total} "
            "board pairs played"
        )


def _print_boards(client: sdk.Client, args: argparse.Namespace, t: sdk.Tournament, match: sdk.Match) -> None:
    """X and Y board by board from a match that holds both, then X's mean, W-T-L and LOS.
    Each kind of match is labelled for what it is: two rooms (X at N/S, then at E/W), a
    blind entrant's room against the par room of the references, or a match of k entrants
    (each one's board score against the field, and X's less Y's)."""
    as_stored = match.x == args.x
    boards = range(t.first, t.first + t.boards)
    print(
        f"{args.x} vs {args.y}: {t.ruleset}, deal set {t.deals}, boards {boards.start}-{boards.stop - 1} "
        f"(match {match.id} of tournament {t.id}{'' if t.is_finished else ', still running'})"
    )
    field = match.entrants is not None and len(match.entrants) > 2
    header = False
    scores, missing = [], 0
    for n in boards:
        try:
            pair = client.board_pair(match.id, n)
        except sdk.ApiError as exc:
            if exc.status != 404:
                raise
            missing += 1
            continue
        if field and pair.entrant_scores is not None and match.entrants is not None:
            mine, theirs = (pair.entrant_scores[match.entrants.index(b)] for b in (args.x, args.y))
            score: float = mine - theirs
            if not header:
                print(
                    f"{'board':>5}  {args.x + ' against the field':>30} {args.y + ' against the field':>30} {'score':>7}"
                )
            print(f"{n:5}  {mine:+30.2f} {theirs:+30.2f} {score:+7.2f}")
        else:
            left, right = _room_columns(args, match, pair, as_stored)
            score = pair.score if as_stored else -pair.score
            if not header:
                print(f"{'board':>5}  {left:<38} {right:<38} {'score':>6}")
            rooms = pair.rooms if as_stored or pair.side else pair.rooms[::-1]
            sides = (pair.side, pair.side) if pair.side else ("NS", "EW")
            print(f"{n:5}  {_room_line(rooms[0], sides[0]):<38} {_room_line(rooms[1], sides[1]):<38} {score:+6g}")
        header = True
        scores.append(score)
    if not scores:
        raise sdk.SdkError(f"no finished board in match {match.id} yet")
    won, lost = sum(s > 0 for s in scores), sum(s < 0 for s in scores)
    stats = match.stats
    interval = f"{sum(scores) / len(scores):+.2f}"
    if not missing and not field and stats.ci_low is not None and stats.ci_high is not None:
        low, high = (stats.ci_low, stats.ci_high) if as_stored else (-stats.ci_high, -stats.ci_low)
        interval += f" [{low:+.2f}, {high:+.2f}]"
    los = stats.los if as_stored else 1 - stats.los
    print(
        f"\n{args.x} vs {args.y}: mean {interval} per board over {len(scores)} boards, "
        f"W-T-L {won}-{len(scores) - won - lost}-{lost}" + ("" if missing or field else f", LOS {los:.3f}")
    )
    if missing:
        print(f"({missing} boards not finished yet)")


def _room_columns(args: argparse.Namespace, match: sdk.Match, pair: sdk.BoardPair, as_stored: bool) -> tuple[str, str]:
    """The two rooms' headings: a blind entrant's own room and the par room (the reference
    bots in every seat), or X at N/S and at E/W."""
    if pair.side:
        entrant, references = (args.x, args.y) if as_stored else (args.y, args.x)
        return f"{entrant} at {pair.side} (its room)", f"par room ({references} at every seat)"
    return f"{args.x} at N/S (room 1)", f"{args.x} at E/W (room 2)"


def _find_match(
    client: sdk.Client, x: str, y: str, tid: str | None, ruleset: str | None = None, deals: str | None = None
) -> tuple[sdk.Tournament, sdk.Match] | None:
    """The given tournament's match of X and Y, or the newest finished one's (else the newest
    running one's), on ``ruleset`` and deal set ``deals`` when they are given ("secret": any
    secret set)."""
    if tid is not None:
        candidates = [client.tournament(tid)]
    else:
        every = [
            t
            for t in reversed(client.tournaments())
            if {x, y} <= set(t.players)
            and (ruleset is None or t.ruleset == ruleset)
            and (deals is None or t.deals == deals or (deals == "secret" and t.commitment is not None))
        ]
        candidates = [t for t in every if t.is_finished] + [t for t in every if not t.is_finished]
    for t in candidates:
        for match in client.matches(t.id):
            if {x, y} <= set(match.entrants or (match.x, match.y)):
                return t, match
    return None


def _room_line(room: sdk.Room, side: str) -> str:
    c = room.contract
    contract = f"{c['seat']}{c['amount']}" if c else "--"
    t, p = room.tricks, room.points
    return (
        f"{contract:>4}{room.trump or '-'} tr {t.get('NS', 0)}-{t.get('EW', 0)} "
        f"pts {p.get('NS', 0):2}-{p.get('EW', 0):<2} net {room.net(side):+4}"
    )


@_clean
def run_ratings(args: argparse.Namespace) -> int:
    client = _client(args)
    board = client.ratings(args.ruleset)
    server_line(client)
    print(ratings_title(board.ruleset))
    width = name_width(row.bot for row in board.bots)
    for row in board.bots:
        print(f"  {rating_row(row.to_dict(), width)}")
    return 0


# ---------------------------------------------------------------------- cinch remote table ...
def _seat_pair(text: str, what: str) -> tuple[str, str]:
    seat, eq, holder = text.partition("=")
    if not eq or not seat.strip() or not holder.strip():
        raise argparse.ArgumentTypeError(f"{text!r}: write SEAT={what}")
    return seat.strip(), holder.strip()


def _bot_seat(text: str) -> tuple[str, str]:
    """``--seat N=rule``: the seat and the bot's name."""
    return _seat_pair(text, "BOT, as N=rule")


def _human_seat(text: str) -> tuple[str, dict[str, Any]]:
    """``--human S=Ann`` or ``S=Ann:90000``: the seat and the API's ``{"human", "decision_ms"}``
    (a person's name holds no colon, so the last one, if any, starts the milliseconds)."""
    seat, holder = _seat_pair(text, "NAME[:MS], as S=Ann or S=Ann:90000")
    name, colon, ms = holder.rpartition(":")
    if not colon:
        return seat, {"human": holder}
    if not ms.isdigit() or not name:
        raise argparse.ArgumentTypeError(f"{text!r}: MS, after the colon, is the time per decision in milliseconds")
    return seat, {"human": name, "decision_ms": int(ms)}


def table_page(client: sdk.Client, tid: str) -> str:
    return f"{client.base_url}/tables/{tid}"


@_clean
def run_table_open(args: argparse.Namespace) -> int:
    """The id first on standard output (``tid=$(cinch remote table open ... | head -1)``),
    then the page and each person's link: on standard output only, since its fragment is
    the seat's token, which is shown this once and must reach no log."""
    people: dict[str, dict[str, Any]] = dict(args.human)
    seats: dict[str, str | dict[str, Any]] = {}
    for seat, holder in [*args.seat, *args.human]:
        if seat in seats:
            raise sdk.SdkError(f"seat {seat} is given twice")
        seats[seat] = holder
    token = token_of(args)
    if not token and not admin_token(args):
        raise sdk.SdkError(
            "opening a table needs a bot's token (--token-file F or $CINCH_TOKEN: it seats itself and built-in "
            "bots) or the admin token (--admin-token T or $CINCH_ADMIN_TOKEN: any bot)"
        )
    limits = {
        k: v
        for k, v in (("decision_ms", args.decision_ms), ("bank_ms", args.bank_ms), ("max_timeouts", args.max_timeouts))
        if v is not None
    }
    client = _client(args, token=token, admin=True)
    opened = client.open_table(
        seats or None,
        ruleset=args.ruleset,
        options=args.options,
        seed=args.seed,
        limits=limits or None,
        practice=args.practice or None,
    )
    print(f"table {opened.id} opened on server {client.base_url}", file=sys.stderr)
    if opened.seat_links:
        print(
            "each seat link below plays its seat (the token is after #): give it to that person alone; "
            "it is shown this once",
            file=sys.stderr,
        )
    if args.json:
        print(json.dumps({"id": opened.id, "page": table_page(client, opened.id), "seat_links": opened.seat_links}))
        return 0
    print(opened.id)
    print(f"page: {table_page(client, opened.id)}")
    for seat, link in opened.seat_links.items():
        print(f"seat {seat} ({people[seat]['human']}): {link}")
    return 0


def _holder(t: sdk.Table, seat: str, times: bool = True) -> str:
    """Who holds a seat, for people: a bot's name, a person's name (and time), or open."""
    person = t.humans.get(seat)
    if person is None:
        return t.seats.get(seat) or "open"
    return f"{person['human']} (a person" + (f", {person['decision_ms'] / 1000:g} s a decision)" if times else ")")


def _scores(t: sdk.Table) -> str:
    return ", ".join(f"{side} {score}" for side, score in t.scores.items())


@_clean
def run_table_show(args: argparse.Namespace) -> int:
    client = _client(args)
    t = client.table(args.id)
    if args.json:
        return print_json(client, t.to_dict())
    server_line(client)
    options = "".join(f" {k}={json.dumps(v)}" for k, v in t.options.items())
    print(f"table {t.id}: {t.ruleset}{options}{', practice' if t.practice else ''}")
    status = t.status + (f" ({t.error})" if t.error else "")
    print(f"  status:  {status}, {t.hands_played} hands played" + (f", winner {t.winner}" if t.winner else ""))
    print(f"  scores:  {_scores(t)}")
    width = max(len(seat) for seat in t.seats)
    for seat in t.seats:
        print(f"  {seat:{width}}  {_holder(t, seat)}")
    print(f"  deals:   seed commitment (sha256) {t.commitment}" + (f", seed {t.deal_seed}" if t.deal_seed else ""))
    print(f"  page:    {table_page(client, t.id)}")
    return 0


@_clean
def run_table_list(args: argparse.Namespace) -> int:
    client = _client(args)
    every = client.tables()
    if args.json:
        return print_json(client, [t.to_dict() for t in every])
    server_line(client)
    print(f"{'id':8} {'status':9} {'ruleset':12} {'hands':>5}  {'winner':6}  {'scores':22}  seats")
    for t in every:
        seats = ", ".join(f"{seat} {_holder(t, seat, times=False)}" for seat in t.seats)
        print(
            f"{t.id:8} {t.status:9} {t.ruleset:12} {t.hands_played:>5}  {t.winner or '-':6}  {_scores(t):22}  {seats}"
        )
    return 0


@_clean
def run_table_record(args: argparse.Namespace) -> int:
    """The record as the API serves it (every hand a ``cinch replay`` input as it is), or
    one hand alone, which ``cinch replay -`` reads."""
    client = _client(args)
    record = client.table_record(args.id)
    print(f"server: {client.base_url}", file=sys.stderr)
    if args.hand is None:
        print(json.dumps(record.to_dict(), indent=2))
        return 0
    if not 1 <= args.hand <= len(record.hands):
        raise sdk.SdkError(f"table {args.id} has hands 1 to {len(record.hands)}, not {args.hand}")
    print(json.dumps(record.hands[args.hand - 1], indent=2))
    return 0


def client_setting(name: str) -> str | None:
    """A client's own setting from its environment (``CINCH_TOKEN``, ``CINCH_ADMIN_TOKEN``): the
    client side reads them itself, as the SDK does, rather than the arena's ``server.config``,
    which these commands may not import (they are the SDK's, on a machine with no server)."""
    return os.environ.get(name) or None


def main(argv: list[str] | None = None) -> int:
    """These subcommands alone (``python -m server.cli.sdk_cmd``), as ``cinch`` runs them."""
    parser = argparse.ArgumentParser(prog="cinch", description="The Cinch arena over its REST API.")
    register(parser.add_subparsers(dest="command", required=True, metavar="COMMAND"))
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
