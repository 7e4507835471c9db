"""A tournament's life: start it, watch it to the end, resume or stop it.

A tournament is played only while its driver holds its lease: a ``cinch tournament``
command drives the tournament it started or resumed (``watch`` renews the lease and
supervises, see ``workers.supervisor``), and the service drives the ones created through
the API. Ctrl-C (or SIGTERM) on the command leaves its tournament interrupted, a dead
command's tournament reads as interrupted once its lease lapses, and either is continued
by ``resume``, which plays only the boards not stored yet.
"""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from redis.exceptions import RedisError
from rq import Queue

from server.arena import dealsets
from server.arena.dealsets import DealSet
from server.arena.formats.base import Roster
from server.arena.registry import ensure_builtins, local_entry, reference_kind, roster
from server.arena.settings import LEASE_MS, SUPERVISE_SECONDS
from server.arena.store import Store
from server.arena.tournaments import SECRET, chunks, fit_boards, plan_matches, planned_totals, table_shape, validate
from server.errors import Conflict
from workers.bots import BUILTIN, LEVELS
from workers.jobs import enqueue_chunks
from workers.local import LocalWorkers
from workers.local_bot import LocalBotError
from workers.own import OWN_KINDS
from workers.supervisor import halt, supervise


class TournamentStopped(Conflict, RuntimeError):
    """The tournament ended without results (cancelled, failed, or taken over); the
    message says which and what to do."""


ENTRANT_FIELDS = ("bots", "candidates", "references")
"""The request's fields that name entrants."""


def cli_driver() -> str:
    """This command's name as a tournament's driver."""
    return f"cli:{socket.gethostname()}:{os.getpid()}"


def start(
    store: Store,
    queue: Queue,
    request: dict[str, Any],
    driver: str,
    deals: DealSet | None = None,
    deals_dir: Path | None = None,
    local: Roster | None = None,
) -> str:
    """Validate a request, choose and store its deal set, store the tournament (driven by
    ``driver``) and enqueue its jobs. Returns its id.

    ``deals``, when given, is the set the request names (a CLI's file); otherwise the
    request's ``deals`` is a set's name (looked up in ``deals_dir``, the shipped sets by
    default), or ``secret`` (the default with remote entrants):
    a fresh set from a secret seed, whose commitment is kept with the tournament and whose
    seed is shown once the tournament is finished. ``local`` is the roster of the local
    entrants the request names (``local_roster``: a command line's own bots). Raises SpecError, DealSetError, or
    ValueError when a different set of the same name is stored.
    """
    named = {n for key in ENTRANT_FIELDS for n in request.get(key) or () if isinstance(n, str)}
    ensure_builtins(store, [*BUILTIN, *(n for n in LEVELS if n in named)])  # a level only once it is asked for
    spec = validate({**request, "deals": deals.name} if deals else request, {**roster(store), **(local or {})})
    if spec["deals"] == SECRET:
        deals, commitment = dealsets.secret(
            spec["first"] + spec["boards"] - 1, *table_shape(spec["ruleset"], spec["options"])
        )
        spec.update(deals=deals.name, commitment=commitment)
    elif deals is None:
        deals = dealsets.load(spec["deals"], deals_dir)
    fit_boards(spec, len(deals.boards), deals.players, deals.deck)
    store.put_dealset(deals)
    tid = store.create_tournament(spec, plan_matches(spec, deals.seed), driver, LEASE_MS, planned_totals(spec))
    for mid in store.match_ids(tid):
        enqueue_chunks(store, queue, tid, mid, chunks(store.match(mid), spec["chunk"]))
    return tid


def local_roster(names: list[str], known: Iterable[str], cwd: str | None = None) -> tuple[list[str], Roster]:
    """The entrant names with each reference to one of the user's own entrants (local:
    ``PATH.py:Class``, ``package.module:Class``; cmd: ``cmd:COMMAND``) replaced by its
    display name, and the roster of those entrants; a name in ``known`` (a built-in bot or
    level) is that bot. Raises LocalBotError (CmdBotError) for a reference that does not load."""
    known = set(known)
    out: list[str] = []
    local: Roster = {}
    for name in names:
        kind = None if name in known else reference_kind(name)
        if kind is None:
            out.append(name)
            continue
        display, source = OWN_KINDS[kind.name].resolve(name, cwd)
        if display in local:
            raise LocalBotError(f"{name} and another entrant are both {display}: a bot is named twice")
        out.append(display)
        local[display] = local_entry(source)
    return out, local


def resume(store: Store, queue: Queue, tid: str, driver: str) -> None:
    """Continue a stopped tournament (interrupted, cancelled or failed) under ``driver``,
    enqueueing only the boards not stored yet. Raises TournamentStopped if it is finished
    or another live driver holds it, and StoreError for an unknown id."""
    why = store.take_over(tid, driver, LEASE_MS)
    if why == "finished":
        raise TournamentStopped(f"tournament {tid} is finished; nothing to resume")
    if why is not None:
        raise TournamentStopped(f"tournament {tid} is running, driven by {why}")
    supervise(store, queue, tid)


def stop_command(tid: str) -> str:
    return f"cinch tournament resume {tid}"


def watch(
    store: Store,
    queue: Queue,
    tid: str,
    driver: str,
    workers: LocalWorkers | None = None,
    on_progress: Callable[[dict[str, Any]], None] | None = None,
    poll: float = 0.2,
    timeout: float | None = None,
    on_redis_down: Callable[[Exception], None] | None = None,
) -> dict[str, Any]:
    """Drive tournament ``tid`` to its end and return its results.

    Every ``SUPERVISE_SECONDS`` it renews the lease, restarts dead local workers and
    supervises (enqueueing boards nobody plays). Redis going away is waited out. Raises
    TournamentStopped if the tournament is cancelled or fails, or another driver takes it.
    """
    began, last_pass = time.monotonic(), 0.0
    while True:
        try:
            t = store.tournament(tid)
            if on_progress:
                on_progress(t)
            if t["status"] == "finished":
                results = store.results(tid)
                if results is None:  # never: the results are written before the status
                    raise TournamentStopped(f"tournament {tid} is finished but its results are missing")
                return results
            if t["status"] in ("cancelled", "failed"):
                reason = f": {t['error']}" if t.get("error") else ""
                raise TournamentStopped(
                    f"tournament {tid} was {t['status']}{reason}; `{stop_command(tid)}` continues it"
                )
            now = time.monotonic()
            if now - last_pass >= SUPERVISE_SECONDS:
                last_pass = now
                holder = store.hold_lease(tid, driver, LEASE_MS)
                if holder is not None:
                    raise TournamentStopped(f"tournament {tid} is now driven by {holder}")
                if t["status"] == "interrupted":  # our lease lapsed (Redis was away): take it back
                    store.take_over(tid, driver, LEASE_MS)
                if workers:
                    workers.replace_dead()
                supervise(store, queue, tid)
        except RedisError as exc:
            if on_redis_down:
                on_redis_down(exc)
        if timeout is not None and time.monotonic() - began > timeout:
            raise TimeoutError(f"tournament {tid} did not finish in {timeout:.0f} s")
        time.sleep(poll)


def interrupt(store: Store, queue: Queue, tid: str) -> None:
    """The driving command is stopping: leave the tournament interrupted, its queued
    jobs removed, so nobody else's workers play it until it is resumed."""
    halt(store, queue, tid, "interrupted")
