"""RQ jobs: thin functions over the match runner and the store.

Jobs take only JSON-able arguments (every queue and worker uses RQ's JSON serializer),
return nothing of value (results go through the store), and can be re-run from scratch:
a chunk skips the boards already stored and stores each board pair as soon as it is
played, so a killed job loses at most the pair in progress.

A job plays a board only after claiming it (``Store.claim_board``): the claim is
refused when the tournament is no longer live (cancelled, interrupted, failed), and a
job also looks between rooms (``Halted``), so a stopped tournament's jobs end after the
room in play whoever's worker holds them; two jobs never play the same board at once. While it runs, a job renews its claim and its
heartbeat every few seconds from a helper thread; the supervisor (``workers.supervisor``)
takes a missing heartbeat, when no live worker runs the job either, as a dead job and
enqueues its boards again.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager

from rq import Queue, get_current_job
from rq.job import Job, JobStatus
from rq.serializers import JSONSerializer

from server import logs
from server.arena.formats import kind_of
from server.arena.formats.base import PlayContext
from server.arena.match_sprt import decide
from server.arena.order import play_order
from server.arena.progressive import bot_of
from server.arena.registry import source_kind
from server.arena.settings import CLAIM_MS, HEARTBEAT_SECONDS, JOB_TIMEOUT
from server.arena.store import Store
from server.arena.tournaments import after_match_progress, chunks
from server.engine import make_ruleset
from server.metrics import BOARDS_STORED, JOBS_FAILED, JOBS_FINISHED, JOBS_STARTED
from workers import luck
from workers.bots import PLAYABLE, Agent, make_bot
from workers.own import OWN_KINDS
from workers.remote import RemoteAgent, ViewedSeat
from workers.worker import stopping

QUEUE = "cinch"
log = logs.logger("jobs")
WAITING = (JobStatus.QUEUED, JobStatus.DEFERRED, JobStatus.SCHEDULED)


class Heartbeat:
    """Renews a job's heartbeat and its boards' claims until closed.

    A lost Redis connection reaches the beat as the worker's ``RedisLost``, a SystemExit,
    and as a class of ``__main__`` when the worker runs as ``python -m workers.worker``,
    so it is caught as SystemExit: the thread must outlive an outage, or the supervisor
    would take the running job for dead.
    """

    def __init__(self, store: Store, job_id: str):
        self.store, self.job_id = store, job_id
        self.claims: set[str] = set()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._beat, name=f"heartbeat-{job_id}", daemon=True)

    def __enter__(self) -> Heartbeat:
        self.store.job_alive(self.job_id, CLAIM_MS)
        self._thread.start()
        return self

    def _keys(self) -> list[str]:
        return [self.store.job_key(self.job_id), *list(self.claims)]

    def _beat(self) -> None:
        while not self._stop.wait(HEARTBEAT_SECONDS):
            try:
                self.store.keep(self.job_id, self._keys(), CLAIM_MS)
            except (Exception, SystemExit):  # Redis away for a moment: the next beat tries again
                pass  # (the worker's RedisLost: see the class docstring)

    def release(self, key: str) -> None:
        self.claims.discard(key)
        self.store.keep(self.job_id, [key], 0)

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()
        try:
            self.store.keep(self.job_id, self._keys(), 0)
        except (Exception, SystemExit):  # the claims and heartbeat expire by themselves
            pass


def play_chunk(prefix: str, mid: str, first: int, last: int) -> int:
    """Play boards first..last of match ``mid`` that are not stored yet; returns how many."""
    job = get_current_job()
    if job is None:
        raise RuntimeError("play_chunk runs inside an RQ job; call play_chunk_with outside one")
    store = Store(job.connection, prefix)
    with logs.context(match=mid, job=job.id):
        return play_chunk_with(
            store, mid, first, last, job.id, should_stop=stopping, queue=queue_for(store, job.origin)
        )


def play_chunk_with(
    store: Store,
    mid: str,
    first: int,
    last: int,
    job_id: str = "local",
    should_stop: Callable[[], bool] = lambda: False,
    queue: Queue | None = None,
) -> int:
    """The body of ``play_chunk``; ``should_stop`` is asked between rooms (a worker
    asked to stop ends its job early, and the supervisor gives the rest to another).
    The job that completes a progressive round seats the next one and, given its
    ``queue``, enqueues its tables at once (else the supervisor's next pass does).

    The job first claims every board of its range that is not stored or being played,
    then plays them in the match's order (``server.arena.order``): a two-room match with its rooms interleaved (``play_pairs``), a
    match of k entrants in every room of its seating plan (``play_boards``: each board's
    record carries every entrant's board score; no luck measured), a blind-movement match
    one room per board against the shared par room.
    """
    match = store.match(mid)
    with logs.context(tournament=match["tournament"], match=mid, job=job_id):
        JOBS_STARTED.inc()
        log.info("boards %d-%d of match %s: started", first, last, mid)
        try:
            played = _play_chunk(store, match, first, last, job_id, should_stop, queue)
        except BaseException as exc:  # Interrupted (a stop) too: rq records the job failed, and it is re-run
            JOBS_FAILED.inc()
            log.warning("boards %d-%d of match %s: the job failed (%s)", first, last, mid, type(exc).__name__)
            raise
        JOBS_FINISHED.inc()
        log.info("boards %d-%d of match %s: %d played", first, last, mid, played)
        return played


def _play_chunk(
    store: Store,
    match: dict,
    first: int,
    last: int,
    job_id: str,
    should_stop: Callable[[], bool],
    queue: Queue | None,
) -> int:
    mid = match["id"]
    rules = make_ruleset(match["ruleset"], match["options"])
    kind = kind_of(match)
    agents: dict[str, Agent] = {}

    def agent(name: str) -> Agent:
        if name not in agents:
            agents[name] = agent_for(store, name, match)
        return agents[name]

    done = store.stored_boards(mid)
    played = 0
    halted = Halted(store, match["tournament"], should_stop, mid)
    with Heartbeat(store, job_id) as beat, _closing(agents):
        claimed: list[int] = []
        for number in play_order(store.secret(), match):  # board order, or the match's secret one
            if not first <= number <= last or number in done or should_stop():
                continue
            verdict = store.claim_board(match["tournament"], mid, number, job_id, CLAIM_MS)
            if verdict == "stop":  # cancelled or interrupted: play nothing
                claimed = []
                break
            if verdict == "ok":  # not stored meanwhile, nor played by another job
                claimed.append(number)
                beat.claims.add(store.claim_key(mid, number))
        boards = [(n, store.board(match["deals"], n)) for n in claimed]
        for record in kind.play(PlayContext(store, rules, match, agent, halted, luck), boards):
            store.record_pairs(match, [record])
            BOARDS_STORED.inc()
            beat.release(store.claim_key(mid, record["board"]))
            played += 1
            if decide(store, match):  # its sequential test decided: the rest is not played
                drop_waiting_jobs(store, match)
                break
    if queue is not None:
        for successor in kind.successors(store, match):
            enqueue_chunks(
                store,
                queue,
                match["tournament"],
                successor["id"],
                chunks(
                    successor, store.tournament(match["tournament"])["chunk"], skip=store.stored_boards(successor["id"])
                ),
            )
    after_match_progress(store, match)
    return played


@contextmanager
def _closing(agents: dict[str, Agent]) -> Iterator[None]:
    try:
        yield
    finally:
        close_seats(agents.values())


class Halted:
    """Asked between rooms: should the job stop? When its worker is stopping, when the
    tournament is no longer live (cancelled, interrupted), or when its match ``mid`` is
    complete (its sequential test decided on boards another job stored): a job has
    claimed its whole chunk up front, so without this it would play the chunk to the end.
    The tournament is looked up at most every ``LIVE_CHECK_SECONDS``."""

    LIVE_CHECK_SECONDS = 0.25

    def __init__(self, store: Store, tid: str, should_stop: Callable[[], bool], mid: str | None = None):
        self.store, self.tid, self.mid, self.should_stop = store, tid, mid, should_stop
        self.checked, self.live = time.monotonic(), True

    def __call__(self) -> bool:
        if self.should_stop():
            return True
        if time.monotonic() - self.checked >= self.LIVE_CHECK_SECONDS:
            self.checked, self.live = time.monotonic(), self.store.is_live(self.tid, self.mid)
        return not self.live


def agent_for(store: Store, name: str, match: dict) -> Agent:
    """A built-in bot by name (a progressive house entrant's id names its bot), one of the
    user's own entrants (local or cmd: ``workers.own``) seated from the source its
    tournament stored, or the remote seat of a registered bot. ``match`` is a match, or a
    table's context (which has no tournament, and no own entrants: the service seats none)."""
    if bot_of(name) in PLAYABLE:
        return make_bot(bot_of(name), match["seed"])
    tid = match.get("tournament")
    source = ((store.tournament(tid).get("local") if tid else None) or {}).get(bot_of(name))
    if source is not None:
        return OWN_KINDS[source_kind(source).name].seat(store, source, name, match)
    return RemoteAgent(store, name, match["id"], match.get("limits"))


def close_seats(agents: Iterable[Agent]) -> None:
    """End what a job's seats hold (a cmd entrant's program): every one, whatever fails."""
    for agent in agents:
        if isinstance(agent, ViewedSeat):
            try:
                agent.close()
            except Exception:  # one seat's trouble must not leave the others' programs running
                pass


def queue_for(store: Store, name: str = QUEUE) -> Queue:
    return Queue(name, connection=store.redis, serializer=JSONSerializer)


def enqueue_chunks(store: Store, queue: Queue, tid: str, mid: str, ranges: list[tuple[int, int]]) -> list[str]:
    """Enqueue one job per board range of a match; returns their ids (also recorded
    with the tournament, so that it can be cancelled and supervised)."""
    if not ranges:
        return []
    tag = secrets.token_hex(3)
    ids = [f"{store.prefix}_{mid}_{first}-{last}_{tag}".replace(".", "_") for first, last in ranges]
    store.add_jobs(tid, ids)
    for job_id, (first, last) in zip(ids, ranges):
        queue.enqueue(
            play_chunk,
            store.prefix,
            mid,
            first,
            last,
            job_id=job_id,
            job_timeout=JOB_TIMEOUT,
            result_ttl=600,
            failure_ttl=86400,
            meta={"tournament": tid},  # for the worker's log lines (workers.worker.ArenaWorker.execute_job)
        )
    return ids


def fetch_jobs(store: Store, ids: list[str]) -> list[Job | None]:
    """The RQ jobs of these ids (None for one that is gone)."""
    return Job.fetch_many(ids, connection=store.redis, serializer=JSONSerializer) if ids else []


def cancel_waiting(jobs: list[Job | None]) -> None:
    """Take the jobs still waiting to start off the queue; a job that has started (or is
    gone) meanwhile is left alone: its claims stop it."""
    for job in jobs:
        if job is not None and job.get_status(refresh=False) in WAITING:
            try:
                job.cancel()
            except Exception:  # started or removed meanwhile
                pass


def drop_waiting_jobs(store: Store, match: dict) -> None:
    """A match decided by its sequential test: its jobs still queued hold only its
    boards (a job plays one match), so they are cancelled and forgotten. The supervisor
    does the same for any it finds later (``covered_boards``)."""
    tid = match["tournament"]
    ids = store.jobs(tid)
    mine = [
        (job_id, job)
        for job_id, job in zip(ids, fetch_jobs(store, ids))
        if job is not None and job.args[1] == match["id"] and job.get_status(refresh=False) in WAITING
    ]
    cancel_waiting([job for _, job in mine])
    store.forget_jobs(tid, [job_id for job_id, _ in mine])
