"""``cinch tournament``: the main job, a duplicate tournament of bots through RQ workers.

    cinch tournament [--bots ...] [--boards N] ...   run a new one to the end, with a progress bar
    cinch tournament --format progressive --rounds N --bots ...   Progressive Cinch (docs/rules/progressive.md)
                     [--sprt [--delta0 ...]]         ... each match stopped once its sequential test decides
    cinch tournament resume ID                       continue an interrupted, cancelled or failed one
    cinch tournament cancel ID                       stop one for good (its queued jobs are removed)
    cinch tournament list                            every tournament with its status and progress

The command drives the tournament it runs (``workers.driver``): Ctrl-C or SIGTERM leaves
it interrupted, with its finished board pairs kept, and prints the command that resumes it.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from redis.exceptions import RedisError
from tqdm import tqdm

from server.arena import dealsets
from server.arena.duplicate import ROOMS
from server.arena.formats import FORMATS, format_named
from server.arena.formats.base import Roster, SpecError
from server.arena.formats.pair import ROUND_ROBIN
from server.arena.formats.progressive import PROGRESSIVE
from server.arena.live import live_stats
from server.arena.registry import builtin_roster
from server.arena.settings import SUPERVISE_SECONDS
from server.arena.store import Store, StoreError
from server.arena.tournaments import DEFAULTS, SECRET, fit_boards, public_deals, table_shape, validate, waiting_for
from server.cli.connect import Arena, arena
from server.cli.errors import UsageError
from server.cli.report import live_match, print_results
from server.cli.sprt_options import add_sprt_arguments, sprt_request
from server.engine import RulesetError, options_doc
from workers.bots import DEFAULT_FIELD, PLAYABLE
from workers.driver import (
    ENTRANT_FIELDS,
    TournamentStopped,
    cli_driver,
    interrupt,
    local_roster,
    resume,
    start,
    stop_command,
    watch,
)
from workers.local_bot import LocalBotError
from workers.supervisor import halt

CLI_BOARDS = 24  # the search bot takes about 1 s a board pair
CLI_CHUNK = 5


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "tournament",
        help="run a duplicate round robin or gauntlet and print the results",
        description="Run a duplicate tournament through RQ workers. Without REDIS_URL an "
        "embedded Redis and local workers are started and stopped.",
    )
    p.add_argument(
        "--bots",
        nargs="+",
        default=list(DEFAULT_FIELD),
        help=f"round robin or blind movement entrants (default: {' '.join(DEFAULT_FIELD)}; built-in: "
        f"{' '.join(PLAYABLE)}; your own sdk.Bot: PATH.py:Class or package.module:Class; a program in any "
        'language on the line protocol: "cmd:COMMAND")',
    )
    p.add_argument(
        "--format",
        choices=list(FORMATS),
        default=ROUND_ROBIN.name,
        help="; ".join(f"{f.name}: {f.summary}" for f in FORMATS.values()),
    )
    p.add_argument("--candidates", nargs="+", help="gauntlet: the bots being tested")
    p.add_argument(
        "--references",
        nargs="+",
        help="gauntlet: the bots every candidate plays; blind: the reference bots (default: rule)",
    )
    p.add_argument(
        "--deals",
        help="deal set name or file, or 'secret' for a fresh secret set (default: the "
        "published set of the ruleset's table size and deck: standard, standard-2p ... standard-7p; "
        "snoozer standard-53-4p ... standard-53-7p)",
    )
    p.add_argument(
        "--boards",
        type=int,
        help=f"board pairs per match (default {CLI_BOARDS}: the search bot takes about 1 s a pair); "
        "not with progressive",
    )
    p.add_argument("--name", help="a name for people, shown wherever the tournament is listed (optional)")
    p.add_argument("--first", type=int, help="first board number (default 1); not with progressive")
    p.add_argument("--rounds", type=int, help="progressive: rounds of four boards (default 2T for T tables of four)")
    p.add_argument("--ruleset", help=f"default {DEFAULTS['ruleset']}; progressive: {PROGRESSIVE.default_ruleset}")
    p.add_argument("--options", type=json.loads, default={}, help=options_doc.one_line())
    p.add_argument("--chunk", type=int, help=f"boards per job (default {CLI_CHUNK}; progressive: one table, 4)")
    p.add_argument("--seed", type=int, default=DEFAULTS["seed"], help="seed of the built-in bots")
    p.add_argument(
        "--rooms",
        choices=ROOMS,
        default=DEFAULTS["rooms"],
        help="seating plan of a match of k single seats (k > 2): rotate (k rooms, default) or "
        "permute (all k! seatings, k <= 4)",
    )
    add_sprt_arguments(
        p,
        "each match of a round robin or gauntlet is tested on its own, X (the first bot "
        "named, or the candidate) against Y, and --boards is the most it plays",
    )
    _driving_arguments(p)
    p.set_defaults(run=run)
    actions = p.add_subparsers(
        dest="action", metavar="[ACTION]", description="without an action, a new tournament is run"
    )
    r = actions.add_parser("resume", help="continue a tournament, playing only the boards not stored yet")
    r.add_argument("id", help="tournament id, e.g. t3")
    _driving_arguments(r)
    r.set_defaults(run=run_resume)
    c = actions.add_parser("cancel", help="stop a tournament: its queued jobs are removed, running ones stop")
    c.add_argument("id")
    c.set_defaults(run=run_cancel)
    ls = actions.add_parser("list", help="every tournament with its status and progress")
    ls.set_defaults(run=run_list)


def _driving_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--workers", type=int, help="local worker processes (default 2 embedded, 0 with REDIS_URL)")
    p.add_argument("--json", action="store_true", help="print the results as JSON")


def request_from(args: argparse.Namespace) -> dict:
    """The tournament request the arguments ask for. A progressive one carries only what
    was given (its boards follow from its rounds, so a --boards given is refused by name)."""
    request = {
        "format": args.format,
        "options": args.options,
        "seed": args.seed,
        "rooms": args.rooms,
        **sprt_request(args),
        **({"name": args.name} if args.name is not None else {}),
    }
    given = {
        "ruleset": args.ruleset,
        "first": args.first,
        "boards": args.boards,
        "chunk": args.chunk,
        "rounds": args.rounds,
    }
    fmt = format_named(args.format)
    if not fmt.plays_rounds:
        given = {
            "ruleset": DEFAULTS["ruleset"],
            "first": DEFAULTS["first"],
            "boards": CLI_BOARDS,
            "chunk": CLI_CHUNK,
            **{k: v for k, v in given.items() if v is not None},
        }
    request.update({k: v for k, v in given.items() if v is not None})
    given_names = {"bots": args.bots, "candidates": args.candidates, "references": args.references}
    for name in fmt.entrant_fields:
        if given_names[name] is not None:
            request[name] = given_names[name]
    return request


def local_entrants(request: dict[str, Any]) -> Roster:
    """Replace each reference to the user's own entrants in the request's entrant fields
    by its display name (``stem:Class``, ``cmd:COMMAND``) and return their roster, after
    checking each one (``workers.driver.local_roster``); one that does not load or whose
    program is missing is a UsageError."""
    local: Roster = {}
    for name in ENTRANT_FIELDS:
        if isinstance(request.get(name), list):
            try:
                request[name], found = local_roster(request[name], PLAYABLE)
            except LocalBotError as exc:
                raise UsageError(str(exc)) from None
            local.update(found)
    return local


def running_matches(store: Store, tid: str) -> list[dict[str, Any]]:
    """The tournament's running matches, each with its statistics so far (``live_stats``)."""
    out = []
    for mid in store.match_ids(tid):
        m = store.match(mid)
        if m["status"] == "running":
            out.append(
                {"id": mid, "x": m["x"], "y": m["y"], "entrants": m.get("entrants"), "stats": live_stats(store, mid, m)}
            )
    return out


def progress_note(t: dict[str, Any], waiting: list[dict[str, Any]], running: Sequence[dict[str, Any]] = ()) -> str:
    """What the bar shows beside the count: a status other than running, the remote bots
    it may be waiting for (not connected, or with timeouts), and each running match's
    mean with its anytime-valid 95% interval, the one that may be watched board by board
    (the fixed-count 95% interval comes with the results at the end)."""
    notes = [] if t["status"] in ("running", "finished") else [t["status"]]
    for w in waiting:
        if not w["connected"]:
            notes.append(f"waiting for {w['bot']} (not connected)")
        elif w["timeouts"]:
            notes.append(f"{w['bot']}: {w['timeouts']} timeouts")
    notes += [live_match(m) for m in running]
    return ", ".join(notes)


@dataclass
class _Looked:
    """What the progress bar last read: the slow reads are repeated only when they can have changed."""

    at: float = 0.0  # when ``waiting`` was read (monotonic)
    waiting: list[dict[str, Any]] = field(default_factory=list)
    done: int | None = None  # pairs done when ``running`` was read
    running: list[dict[str, Any]] = field(default_factory=list)


def drive(a: Arena, tid: str, driver: str, desc: str, quiet: bool = False) -> dict[str, Any]:
    """Watch ``tid`` to the end with a progress bar. Interrupted (Ctrl-C, SIGTERM), it
    leaves the tournament resumable, says how, and lets the interruption go on. (The bar
    counts every board; an SPRT tournament finishes short of it when its tests decide.)"""
    total = a.store.tournament(tid)["pairs_total"]
    looked = _Looked()
    with tqdm(total=total, unit="pair", desc=desc, disable=quiet) as bar:

        def show(t: dict[str, Any]) -> None:
            if time.monotonic() - looked.at > SUPERVISE_SECONDS:
                looked.at, looked.waiting = time.monotonic(), waiting_for(a.store, t)
            if not quiet and t["pairs_done"] != looked.done:  # the statistics move only then
                looked.done, looked.running = t["pairs_done"], running_matches(a.store, tid)
            bar.set_postfix_str(progress_note(t, looked.waiting, looked.running), refresh=False)
            bar.update(t["pairs_done"] - bar.n)

        def redis_down(exc: Exception) -> None:
            bar.set_postfix_str("waiting for Redis", refresh=True)

        try:
            return watch(a.store, a.queue, tid, driver, a.workers, on_progress=show, on_redis_down=redis_down)
        except KeyboardInterrupt:
            try:
                interrupt(a.store, a.queue, tid)
            except RedisError:  # its lease lapses by itself: it reads as interrupted
                pass
            bar.close()
            print(
                f"tournament {tid} interrupted; its finished board pairs are kept: "
                f"continue it with `{stop_command(tid)}`",
                file=sys.stderr,
            )
            raise
        except TournamentStopped as exc:
            raise UsageError(str(exc)) from None


def finish(args: argparse.Namespace, a: Arena, results: dict[str, Any]) -> int:
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        print_results(results, a.store.ratings(results["ruleset"]))
    return 0


def run(args: argparse.Namespace) -> int:
    try:
        ruleset = args.ruleset or format_named(args.format).default_ruleset or DEFAULTS["ruleset"]
        name = args.deals or public_deals(*table_shape(ruleset, args.options))
        deals = None if name == SECRET else dealsets.load(name, args.config.deals_dir)
    except (dealsets.DealSetError, RulesetError) as exc:
        raise UsageError(str(exc)) from None
    request = request_from(args)
    local = local_entrants(request)
    try:
        spec = validate({**request, "deals": deals.name if deals else SECRET}, {**builtin_roster(PLAYABLE), **local})
        if deals:
            fit_boards(spec, len(deals.boards), deals.players, deals.deck)  # before starting anything
    except SpecError as exc:
        raise UsageError(str(exc)) from None
    driver = cli_driver()
    with arena(args.config, args.workers) as a:
        try:
            tid = start(a.store, a.queue, request, driver, deals, local=local)
        except ValueError as exc:  # e.g. a different deal set of the same name is stored
            raise UsageError(str(exc)) from None
        return finish(args, a, drive(a, tid, driver, f"tournament {tid}", args.json))


def run_resume(args: argparse.Namespace) -> int:
    driver = cli_driver()
    with arena(args.config, args.workers) as a:
        try:
            resume(a.store, a.queue, args.id, driver)
        except (TournamentStopped, StoreError) as exc:
            raise UsageError(str(exc)) from None
        return finish(args, a, drive(a, args.id, driver, f"tournament {args.id}", args.json))


def run_cancel(args: argparse.Namespace) -> int:
    with arena(args.config, None, plays=False) as a:
        try:
            status = a.store.tournament(args.id)["status"]
        except StoreError as exc:
            raise UsageError(str(exc)) from None
        if status == "finished":
            raise UsageError(f"tournament {args.id} is finished; there is nothing to cancel")
        halt(a.store, a.queue, args.id, "cancelled")
        print(f"tournament {args.id} cancelled (it was {status}); `{stop_command(args.id)}` continues it")
    return 0


def run_list(args: argparse.Namespace) -> int:
    with arena(args.config, None, plays=False) as a:
        print(f"{'id':6} {'status':12} {'format':12} {'ruleset':11} {'deals':12} {'pairs':>11}  bots")
        for tid in a.store.tournament_ids():
            t = a.store.tournament(tid)
            bots = t.get("bots") or (t.get("candidates", []) + t.get("references", []))
            name = f"  {t['name']!r}" if t.get("name") else ""
            print(
                f"{tid:6} {t['status']:12} {t['format']:12} {t['ruleset']:11} {t['deals']:12} "
                f"{t['pairs_done']:>5}/{t['pairs_total']:<5}  {' '.join(bots)}{name}"
            )
    return 0
