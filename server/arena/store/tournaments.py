"""Tournaments, their matches and the boards in play. This module owns their keys:

    {p}:seq:tournament            counter for tournament ids ("t1", "t2", ...)
    {p}:tournaments               zset  tournament id by creation time
    {p}:tournaments:active        set   ids of tournaments whose stored status is queued or running
    {p}:tournament:{tid}          hash  spec, status, driver, pairs_done, pairs_total, created, finished,
                                        error, stopped, failures, failures_done
    {p}:tournament:{tid}:lease    string the live driver ("service" or "cli:host:pid"), with a TTL
    {p}:supervisor                string the supervisor process in charge, with a TTL
    {p}:tournament:{tid}:jobs     set   RQ job ids enqueued for it and not yet seen to end
    {p}:tournament:{tid}:matches  list  match ids in schedule order
    {p}:tournament:{tid}:complete set   ids of matches whose every board pair is stored, or
                                        whose sequential test decided (no board added after)
    {p}:tournament:{tid}:results  string JSON standings, cross-table and match statistics
    {p}:tournament:{tid}:par      hash  board number -> the reference pair's room (blind movement), packed
    {p}:match:{mid}               hash  spec, status
    {p}:match:{mid}:pairs         hash  board number -> board-pair record, packed (zlib JSON: ``packing``)
    {p}:match:{mid}:scores        hash  board number -> X's score on that pair (JSON); a match of k
                                        entrants: every entrant's board score, a JSON list
    {p}:match:{mid}:luck          hash  board number -> X's luck on the draw on that pair (``workers.luck``)
    {p}:claim:{mid}:{n}           string the RQ job playing board n of the match, with a TTL
    {p}:job:{job_id}              string "alive" while a chunk job runs, with a TTL (its heartbeat)

(A match's remote-play keys, ``{p}:match:{mid}:bank``, ``timeouts`` and ``faulty``, belong
to ``decisions``.)

A board pair is written with HSETNX inside one Lua script that also advances the
tournament's progress and marks the match complete, so a job that is retried after a
crash can never count a pair twice, and "match complete" happens exactly once. The
script stores nothing for a match already complete: one decided by its sequential test
(``complete_match``) keeps exactly the boards it had when it was decided.

A tournament is played only while its driver holds its lease (the CLI that runs it, or
the service's supervisor); its stored status is ``queued``, ``running``, ``finished``,
``cancelled``, ``failed`` or ``interrupted``, and a queued or running tournament whose
lease has lapsed reads as ``interrupted``. Jobs claim each board before playing it, so
no board is played twice at once, and never for a tournament that is not live.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from redis import Redis

from server.arena.progressive import bot_of
from server.arena.records import current_pair, current_room
from server.arena.store.base import StoreError, decoded, lua
from server.arena.store.listing import Listing, leader, number
from server.arena.store.packing import pack, unpack, unpacked_text

ACTIVE = ("queued", "running")
KEPT_STATE = ("status", "driver", "pairs_done", "pairs_total", "matches_total", "created", "finished", "error")
"""The fields of a tournament's hash besides its spec that its reads show (``tournament``):
what an export keeps (the failure counts and ``stopped`` only serve play)."""

_ADD_MATCHES = lua("add_matches.lua")
_RECORD_PAIRS = lua("record_pairs.lua")
_CLAIM = lua("claim.lua")
_KEEP = lua("keep.lua")
_LEASE = lua("lease.lua")
_TAKE_OVER = lua("take_over.lua")
_STOP = lua("stop.lua")
_BOARD_EVERYWHERE = lua("board_everywhere.lua")


_FAULTS = re.compile(rb'"faults"\s*:\s*\[\s*\{')
"""A ``faults`` list with an entry in a record's JSON: every record with a fault has one
(a quote inside a string is escaped, so text in a message cannot pass for the key)."""

ENTRANT_FIELDS = ("bots", "candidates", "references")
"""The spec fields that name a tournament's entrants, whatever its format (the listing's bot index)."""


def spec_bots(spec: dict[str, Any], matches: Iterable[dict[str, Any]] = ()) -> set[str]:
    """Every bot a tournament names or seats: its entrant fields and its matches' players
    (a Progressive house copy ``rule#h1`` is ``rule``)."""
    named = [n for f in ENTRANT_FIELDS for n in spec.get(f) or []]
    seated = [p for m in matches for p in m.get("entrants") or [m["x"], m["y"]]]
    return {bot_of(n) for n in [*named, *seated]}


@dataclass(frozen=True)
class MatchRead:
    """One match as the read model reads it: its spec and status (``match``), every
    entrant's board scores (``entrant_scores``) and X's lucks (``lucks``)."""

    match: dict[str, Any]
    entrant_scores: dict[int, list[int | float]]
    lucks: dict[int, float]


class Tournaments(Listing):
    def __init__(self, redis: Redis, prefix: str = "cinch"):
        super().__init__(redis, prefix)
        self._record = redis.register_script(_RECORD_PAIRS)
        self._claim = redis.register_script(_CLAIM)
        self._keep = redis.register_script(_KEEP)
        self._lease = redis.register_script(_LEASE)
        self._take_over = redis.register_script(_TAKE_OVER)
        self._stop = redis.register_script(_STOP)
        self._add_matches = redis.register_script(_ADD_MATCHES)
        self._board_everywhere = redis.register_script(_BOARD_EVERYWHERE)

    def create_tournament(
        self,
        spec: dict[str, Any],
        matches: list[dict[str, Any]],
        driver: str,
        lease_ms: int,
        planned: tuple[int, int] | None = None,
    ) -> str:
        """Store a tournament (queued, held by ``driver``) and its matches in one transaction.

        ``planned`` is (matches, board pairs) in all when later matches are added as play
        goes on (``add_matches``: a progressive tournament's rounds), so that its progress
        and its completion count them from the start."""
        tid = f"t{self.redis.incr(self.key('seq', 'tournament'))}"
        now = time.time()
        matches_total, pairs_total = planned or (len(matches), sum(m["last"] - m["first"] + 1 for m in matches))
        pipe = self.redis.pipeline(transaction=True)
        pipe.hset(
            self.key("tournament", tid),
            mapping={
                "spec": json.dumps({**spec, "id": tid}),
                "status": "queued",
                "driver": driver,
                "pairs_done": 0,
                "pairs_total": pairs_total,
                "matches_total": matches_total,
                "created": now,
            },
        )
        pipe.set(self.key("tournament", tid, "lease"), driver, px=lease_ms)
        pipe.zadd(self.key("tournaments"), {tid: now})
        pipe.sadd(self.key("tournaments", "active"), tid)
        for index, match in enumerate(matches, 1):
            mid = f"{tid}.m{index}"
            match.update(id=mid, tournament=tid)
            pipe.rpush(self.key("tournament", tid, "matches"), mid)
            pipe.hset(self.key("match", mid), mapping={"spec": json.dumps(match), "status": "running"})
        self.index_tournament(pipe, tid, spec, spec_bots(spec, matches))
        self.index_matches(pipe, matches, bot_of)
        pipe.execute()
        return tid

    def add_matches(self, tid: str, matches: list[dict[str, Any]]) -> int:
        """Add matches (each with its ``id``) to a tournament's schedule, each once whoever
        adds it: a round computed twice (by the job that finished the round and by the
        supervisor) is stored once. Returns how many were new."""
        args: list[str] = [self.key("match", "")]
        for match in matches:
            args += [match["id"], json.dumps({**match, "tournament": tid})]
        added = int(self._add_matches(keys=[self.key("tournament", tid, "matches")], args=args))
        pipe = self.redis.pipeline(transaction=False)  # idempotent: a second caller indexes them again
        self.index_matches(pipe, matches, bot_of)
        pipe.execute()
        return added

    def tournament(self, tid: str) -> dict[str, Any]:
        """A tournament's spec and state. A queued or running one whose driver's lease has
        lapsed (the driver died or was stopped) reads as ``interrupted``."""
        return self.tournaments_of([tid])[0]

    def tournaments_of(self, tids: list[str]) -> list[dict[str, Any]]:
        """``tournament`` of each id, in one round trip (a page of a list)."""
        pipe = self.redis.pipeline(transaction=False)
        for tid in tids:
            pipe.hgetall(self.key("tournament", tid))
            pipe.exists(self.key("tournament", tid, "lease"))
        got = pipe.execute()
        return [self._tournament_read(tid, raw, leased) for tid, raw, leased in zip(tids, got[::2], got[1::2])]

    @staticmethod
    def _tournament_read(tid: str, raw: dict[bytes, bytes], leased: int) -> dict[str, Any]:
        if not raw:
            raise StoreError(f"no tournament {tid!r}")
        out = json.loads(raw[b"spec"])
        status = raw[b"status"].decode()
        if status in ACTIVE and not leased:
            status = "interrupted"
        text = {k.decode(): v.decode() for k, v in raw.items() if k in (b"driver", b"error")}
        out.update(
            status=status,
            pairs_done=int(raw[b"pairs_done"]),
            pairs_total=int(raw[b"pairs_total"]),
            matches_total=int(raw[b"matches_total"]),
            created=float(raw[b"created"]),
            driver=text.get("driver"),
            error=text.get("error"),
            finished=float(raw[b"finished"]) if b"finished" in raw else None,
        )
        return out

    def ensure_index(self) -> None:
        """Index every tournament stored before the listing's indexes existed (once: the
        marker says it is done; ``server.arena.store.listing``). Each write is idempotent
        and the status is indexed by the script that reads it, so a tournament created,
        stopped or finished meanwhile ends up indexed as it is."""
        if self.index_built():
            return
        for tid in self.tournament_ids():
            spec = json.loads(self.redis.hget(self.key("tournament", tid), "spec") or "{}")
            if not spec:
                continue
            matches = [self.match(mid) for mid in self.match_ids(tid)]
            pipe = self.redis.pipeline(transaction=False)
            self.index_tournament(pipe, tid, spec, spec_bots(spec, matches))
            self.index_matches(pipe, matches, bot_of)
            results = self.results(tid)
            if results is not None and (top := leader(results)) is not None:
                self.put_leader(tid, top, pipe)
            pipe.execute()
            self.index_status(tid)
        self.mark_index_built()

    def active_tournaments(self) -> list[str]:
        """Ids of tournaments whose stored status is queued or running (live or not)."""
        return sorted(
            (decoded(t) for t in self.redis.smembers(self.key("tournaments", "active"))), key=lambda t: int(t[1:])
        )

    def hold_lease(self, tid: str, driver: str, lease_ms: int) -> str | None:
        """Renew ``driver``'s lease on a tournament; None, or the other driver holding it."""
        holder = self._lease(keys=[self.key("tournament", tid, "lease")], args=[driver, lease_ms])
        return None if holder == b"ok" else holder.decode()

    def take_over(self, tid: str, driver: str, lease_ms: int) -> str | None:
        """Make ``driver`` the tournament's driver, to resume it; None, or why not
        ('finished', or the live driver holding it)."""
        self.tournament(tid)
        why = self._take_over(
            keys=[
                self.key("tournament", tid),
                self.key("tournament", tid, "lease"),
                self.key("tournaments", "active"),
                *self.status_keys(),
            ],
            args=[driver, lease_ms, tid, number(tid)],
        )
        return None if why == b"ok" else why.decode()

    def stop_tournament(self, tid: str, status: str, error: str = "", only_if_driverless: bool = False) -> bool:
        """Mark a tournament cancelled, interrupted or failed (never a finished one)."""
        return bool(
            self._stop(
                keys=[
                    self.key("tournament", tid),
                    self.key("tournament", tid, "lease"),
                    self.key("tournaments", "active"),
                    *self.status_keys(),
                ],
                args=[status, time.time(), error, tid, "1" if only_if_driverless else "0", number(tid)],
            )
        )

    def lead(self, holder: str, lease_ms: int) -> bool:
        """Hold (or renew) the one supervisor's lease: only its holder supervises the
        service's tournaments, so two ``cinch serve`` on one Redis do not both enqueue."""
        return self._lease(keys=[self.key("supervisor")], args=[holder, lease_ms]) == b"ok"

    def lease_holder(self, tid: str | None = None) -> tuple[str, float] | None:
        """Who holds a tournament's lease (without ``tid``: the supervisors' lead) and for
        how many more seconds, or None: for the operator's page."""
        key = self.key("supervisor") if tid is None else self.key("tournament", tid, "lease")
        pipe = self.redis.pipeline(transaction=False)
        pipe.get(key)
        pipe.pttl(key)
        holder, ttl = pipe.execute()
        return None if holder is None else (decoded(holder), max(ttl, 0) / 1000)

    def add_jobs(self, tid: str, job_ids: list[str]) -> None:
        """Record job ids enqueued for a tournament (to supervise or cancel them)."""
        self.redis.sadd(self.key("tournament", tid, "jobs"), *job_ids)

    def jobs(self, tid: str) -> list[str]:
        return sorted(decoded(j) for j in self.redis.smembers(self.key("tournament", tid, "jobs")))

    def forget_jobs(self, tid: str, job_ids: Iterable[str]) -> None:
        job_ids = list(job_ids)
        if job_ids:
            self.redis.srem(self.key("tournament", tid, "jobs"), *job_ids)

    def count_failures(self, tid: str, failed: int) -> int:
        """Add ``failed`` failed jobs to the tournament's run of failures without progress
        (a board pair stored since the last count starts the run again); returns the run."""
        key = self.key("tournament", tid)
        done, since = self.redis.hmget(key, "pairs_done", "failures_done")
        if done is None:  # created with pairs_done 0, so only an id that names nothing
            raise StoreError(f"no tournament {tid!r}")
        if since is None or int(since) != int(done):
            self.redis.hset(key, mapping={"failures": 0, "failures_done": int(done)})
        return int(self.redis.hincrby(key, "failures", failed))

    def is_live(self, tid: str, mid: str | None = None) -> bool:
        """Whether the tournament (and match ``mid``, when given) may be played now: queued
        or running, with its driver's lease held, and the match not complete (what
        ``claim_board`` checks before every board)."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.hget(self.key("tournament", tid), "status")
        pipe.exists(self.key("tournament", tid, "lease"))
        pipe.sismember(self.key("tournament", tid, "complete"), mid or "")
        status, leased, complete = pipe.execute()
        return status is not None and status.decode() in ACTIVE and bool(leased) and not complete

    def claim_board(self, tid: str, mid: str, board: int, job_id: str, ttl_ms: int) -> str:
        """'ok' if ``job_id`` may play the board now; 'stop' if the tournament is not live
        (cancelled, interrupted, failed, finished); 'done' if stored or the match is complete
        (decided); 'busy' if another job plays it."""
        return self._claim(
            keys=[
                self.key("tournament", tid),
                self.key("tournament", tid, "lease"),
                self.key("claim", mid, board),
                self.key("match", mid, "pairs"),
                self.key("tournament", tid, "complete"),
            ],
            args=[job_id, ttl_ms, board, mid],
        ).decode()

    def claimed_boards(self, mid: str, boards: Iterable[int]) -> set[int]:
        """Which of ``boards`` some live job is playing right now."""
        boards = list(boards)
        if not boards:
            return set()
        held = self.redis.mget([self.key("claim", mid, n) for n in boards])
        return {n for n, h in zip(boards, held) if h is not None}

    def job_alive(self, job_id: str, ttl_ms: int) -> None:
        """A running job's heartbeat."""
        self.redis.set(self.key("job", job_id), job_id, px=ttl_ms)

    def jobs_alive(self, job_ids: Iterable[str]) -> set[str]:
        job_ids = list(job_ids)
        if not job_ids:
            return set()
        beats = self.redis.mget([self.key("job", j) for j in job_ids])
        return {j for j, b in zip(job_ids, beats) if b is not None}

    def keep(self, holder: str, keys: Iterable[str], ttl_ms: int) -> None:
        """Extend (or with ``ttl_ms`` 0 release) the claims and heartbeats ``holder`` still holds."""
        self._keep(keys=list(keys), args=[holder, ttl_ms])

    def claim_key(self, mid: str, board: int) -> str:
        return self.key("claim", mid, board)

    def job_key(self, job_id: str) -> str:
        return self.key("job", job_id)

    def tournament_ids(self) -> list[str]:
        return [decoded(t) for t in self.redis.zrange(self.key("tournaments"), 0, -1)]

    def match_ids(self, tid: str) -> list[str]:
        return [decoded(m) for m in self.redis.lrange(self.key("tournament", tid, "matches"), 0, -1)]

    def match(self, mid: str) -> dict[str, Any]:
        return self._match_read(mid, self.redis.hgetall(self.key("match", mid)))

    @staticmethod
    def _match_read(mid: str, raw: dict[Any, Any]) -> dict[str, Any]:
        if not raw:
            raise StoreError(f"no match {mid!r}")
        return {**json.loads(raw[b"spec"]), "status": decoded(raw[b"status"])}

    def match_reads(self, mids: list[str]) -> dict[str, MatchRead]:
        """What the read model reads of each of these matches (``MatchRead``), in one round
        trip, for a page that shows many (a tournament's matches, a bot's page of them); a
        match that names nothing is left out."""
        pipe = self.redis.pipeline(transaction=False)
        for mid in mids:
            for part in ((), ("scores",), ("luck",)):
                pipe.hgetall(self.key("match", mid, *part))
        got = pipe.execute()
        return {
            mid: MatchRead(self._match_read(mid, raw), self._entrant_scores_read(scores), self._lucks_read(luck))
            for mid, raw, scores, luck in zip(mids, got[::3], got[1::3], got[2::3])
            if raw
        }

    def record_pairs(self, match: dict[str, Any], records: Iterable[dict[str, Any]]) -> tuple[int, int]:
        """Store board-pair records once each; returns (newly stored, matches complete)."""
        return self.record_packed(match, ((record, pack(record)) for record in records))

    def record_packed(self, match: dict[str, Any], records: Iterable[tuple[dict[str, Any], bytes]]) -> tuple[int, int]:
        """``record_pairs`` for records given with their ``pack``: for a caller that packs
        the same bytes faster (the scale benchmark's seeding re-uses one record's JSON)."""
        args: list[Any] = [match["id"], match["last"] - match["first"] + 1]
        for record, packed in records:
            luck = record.get("luck")
            score = record["entrant_scores"] if "entrant_scores" in record else record["score"]
            args += [
                record["board"],
                packed,
                json.dumps(score),
                "" if luck is None else repr(float(luck)),
            ]
        mid, tid = match["id"], match["tournament"]
        added, complete = self._record(
            keys=[
                self.key("match", mid, "pairs"),
                self.key("match", mid, "scores"),
                self.key("match", mid),
                self.key("tournament", tid),
                self.key("tournament", tid, "complete"),
                self.key("match", mid, "luck"),
            ],
            args=args,
        )
        return int(added), int(complete)

    def stored_boards(self, mid: str) -> set[int]:
        return {int(b) for b in self.redis.hkeys(self.key("match", mid, "scores"))}

    def scores(self, mid: str) -> dict[int, int | float]:
        """X's score per board stored so far, by board number (in a match of k entrants,
        the first entrant's board score: a third when it is not whole)."""
        return {b: s[0] for b, s in self.entrant_scores(mid).items()}

    def entrant_scores(self, mid: str) -> dict[int, list[int | float]]:
        """Every entrant's board score per board stored so far, in the match's entrant
        order: ``[X's, Y's]`` (Y's is minus X's) for a two-unit match."""
        return self._entrant_scores_read(self.redis.hgetall(self.key("match", mid, "scores")))

    @staticmethod
    def _entrant_scores_read(raw: dict[Any, Any]) -> dict[int, list[int | float]]:
        out = {}
        for board, value in raw.items():
            score = json.loads(value)
            out[int(board)] = score if isinstance(score, list) else [score, -score]
        return out

    def lucks(self, mid: str) -> dict[int, float]:
        """X's luck on the draw per board pair stored so far (boards stored without one,
        before the luck was measured, are missing)."""
        return self._lucks_read(self.redis.hgetall(self.key("match", mid, "luck")))

    @staticmethod
    def _lucks_read(raw: dict[Any, Any]) -> dict[int, float]:
        return {int(b): float(v) for b, v in raw.items()}

    def pair(self, mid: str, board: int) -> dict[str, Any] | None:
        """A stored board pair, its rooms in today's record shape (``server.arena.records``)."""
        raw = self.redis.hget(self.key("match", mid, "pairs"), str(board))
        return None if raw is None else current_pair(unpack(raw))

    def pairs(self, mid: str, boards: Iterable[int]) -> dict[int, dict[str, Any]]:
        """Several stored board pairs of a match in one round trip, as ``pair`` reads each
        (a board not stored is left out)."""
        numbers = list(boards)
        if not numbers:
            return {}
        raw = self.redis.hmget(self.key("match", mid, "pairs"), [str(n) for n in numbers])
        return {n: current_pair(unpack(r)) for n, r in zip(numbers, raw) if r is not None}

    def fault_records(self, mid: str, boards: Iterable[int]) -> dict[int, dict[str, Any] | None]:
        """Of these stored boards of a match, each one's record (as ``pairs`` reads it) if a
        room of it holds a fault, else None; a board not stored is left out. One round
        trip, and a record is parsed only when its JSON has a non-empty ``faults`` list
        (``_FAULTS``), which few have: a bot page searches its newest matches' every board."""
        numbers = list(boards)
        if not numbers:
            return {}
        raw = self.redis.hmget(self.key("match", mid, "pairs"), [str(n) for n in numbers])
        out: dict[int, dict[str, Any] | None] = {}
        for n, r in zip(numbers, raw):
            if r is not None:
                text = unpacked_text(r)
                found = _FAULTS.search(text if isinstance(text, bytes) else text.encode())
                out[n] = current_pair(json.loads(text)) if found else None
        return out

    def par_room(self, tid: str, board: int) -> dict[str, Any] | None:
        """The blind movement's reference room on a board, if it has been played."""
        raw = self.redis.hget(self.key("tournament", tid, "par"), str(board))
        return None if raw is None else current_room(unpack(raw))

    def put_par_room(self, tid: str, board: int, room: dict[str, Any]) -> dict[str, Any]:
        """Keep the first par room stored for the board, and return it: two jobs that
        played it at once both score against the same one."""
        key = self.key("tournament", tid, "par")
        pipe = self.redis.pipeline(transaction=True)
        pipe.hsetnx(key, str(board), pack(room))
        pipe.hget(key, str(board))
        return current_room(unpack(pipe.execute()[1]))

    def complete_match(self, match: dict[str, Any]) -> bool:
        """Mark a match complete with the boards it has (its sequential test decided):
        no board is claimed or stored for it afterwards. True for the one caller that
        completed it; the match counts once in the tournament's ``complete`` set."""
        pipe = self.redis.pipeline(transaction=True)
        pipe.sadd(self.key("tournament", match["tournament"], "complete"), match["id"])
        pipe.hset(self.key("match", match["id"]), "status", "complete")
        return bool(pipe.execute()[0])

    def complete_matches(self, tid: str) -> set[str]:
        return {decoded(m) for m in self.redis.smembers(self.key("tournament", tid, "complete"))}

    def finish_tournament(self, tid: str, results: dict[str, Any]) -> bool:
        """Write a tournament's results (and its winner, for the listing: ``leader``) once;
        False if they were already written."""
        if not self.redis.set(self.key("tournament", tid, "results"), json.dumps(results), nx=True):
            return False
        pipe = self.redis.pipeline(transaction=True)
        pipe.hset(self.key("tournament", tid), mapping={"status": "finished", "finished": time.time()})
        pipe.hdel(self.key("tournament", tid), "error")
        pipe.srem(self.key("tournaments", "active"), tid)
        pipe.delete(self.key("tournament", tid, "lease"))
        for status_key in self.status_keys():
            pipe.zrem(status_key, tid)
        pipe.zadd(self.status_key("finished"), {tid: number(tid)})
        top = leader(results)
        if top is not None:
            self.put_leader(tid, top, pipe)
        pipe.execute()
        return True

    def results(self, tid: str) -> dict[str, Any] | None:
        raw = self.redis.get(self.key("tournament", tid, "results"))
        return None if raw is None else json.loads(raw)

    def board_done_everywhere(self, tid: str, board: int) -> bool:
        """Whether every match of tournament ``tid`` that plays board ``board`` has stored
        its pair (a blind movement with several references splits the boards between
        them; a match decided by its sequential test plays no board it has not stored):
        only then may anyone see its cards. One round trip; False for a board that no
        match plays."""
        return bool(
            self._board_everywhere(
                keys=[self.key("tournament", tid, "matches")], args=[self.key("match", ""), str(board)]
            )
        )

    def tournament_dump(self, tid: str) -> dict[str, Any]:
        """What is stored of a tournament and its matches that its reads need, as JSON
        values, for an export (``server.arena.export``): its spec and state (``KEPT_STATE``,
        as stored), the schedule, the complete set, the results, the par rooms, and each
        match's spec, status, board records, scores and lucks exactly as stored (an older
        record shape stays as it is: the readers convert it). Leases, jobs and claims only
        serve play and are left out."""
        raw = self.redis.hgetall(self.key("tournament", tid))
        if not raw:
            raise StoreError(f"no tournament {tid!r}")
        state = {decoded(k): decoded(v) for k, v in raw.items() if decoded(k) in KEPT_STATE}
        par = self.redis.hgetall(self.key("tournament", tid, "par"))
        return {
            "id": tid,
            "spec": json.loads(raw[b"spec"]),
            "state": state,
            "matches": self.match_ids(tid),
            "complete": sorted(self.complete_matches(tid)),
            "results": self.results(tid),
            "par": {int(n): unpack(room) for n, room in par.items()},
        }

    def match_dump(self, mid: str) -> dict[str, Any]:
        """A match's spec and status, and its board records, scores and lucks by board
        number, as stored (``tournament_dump``)."""
        raw = self.redis.hgetall(self.key("match", mid))
        if not raw:
            raise StoreError(f"no match {mid!r}")
        pipe = self.redis.pipeline(transaction=False)
        for part in ("pairs", "scores", "luck"):
            pipe.hgetall(self.key("match", mid, part))
        pairs, scores, luck = pipe.execute()
        return {
            "id": mid,
            "spec": json.loads(raw[b"spec"]),
            "status": decoded(raw[b"status"]),
            "pairs": {int(n): unpack(r) for n, r in pairs.items()},
            "scores": {int(n): json.loads(s) for n, s in scores.items()},
            "luck": {int(n): float(v) for n, v in luck.items()},
        }

    def tournament_keys(self, tid: str, mids: Iterable[str]) -> list[str]:
        """The keys a restored tournament must not find already there: its hash and its
        matches' (``restore_tournament`` writes them)."""
        return [self.key("tournament", tid), *(self.key("match", mid) for mid in mids)]

    def counter_key(self) -> str:
        """The tournament id counter, which a restore watches and raises."""
        return self.key("seq", "tournament")

    def restore_tournament(self, pipe: Any, dump: dict[str, Any], matches: Iterable[dict[str, Any]]) -> None:
        """Queue on ``pipe`` (a MULTI) the writes that store a tournament dumped by
        ``tournament_dump`` and its matches (``match_dump``) as they were, under their own
        ids, and raise the id counter past it so that no new tournament takes its id."""
        tid = dump["id"]
        matches = list(matches)
        pipe.hset(self.key("tournament", tid), mapping={"spec": json.dumps(dump["spec"]), **dump["state"]})
        pipe.zadd(self.key("tournaments"), {tid: float(dump["state"]["created"])})
        if dump["state"]["status"] in ACTIVE:  # never for an export's finished tournaments
            pipe.sadd(self.key("tournaments", "active"), tid)
        else:
            pipe.zadd(self.status_key(dump["state"]["status"]), {tid: number(tid)})
        specs = [m["spec"] for m in matches]
        self.index_tournament(pipe, tid, dump["spec"], spec_bots(dump["spec"], specs))
        self.index_matches(pipe, specs, bot_of)
        if dump["results"] is not None and (top := leader(dump["results"])) is not None:
            self.put_leader(tid, top, pipe)
        if dump["matches"]:
            pipe.rpush(self.key("tournament", tid, "matches"), *dump["matches"])
        if dump["complete"]:
            pipe.sadd(self.key("tournament", tid, "complete"), *dump["complete"])
        if dump["results"] is not None:
            pipe.set(self.key("tournament", tid, "results"), json.dumps(dump["results"]))
        if dump["par"]:
            pipe.hset(
                self.key("tournament", tid, "par"),
                mapping={str(n): pack(room) for n, room in dump["par"].items()},
            )
        for match in matches:
            mid = match["id"]
            pipe.hset(self.key("match", mid), mapping={"spec": json.dumps(match["spec"]), "status": match["status"]})
            if match["pairs"]:
                pipe.hset(
                    self.key("match", mid, "pairs"),
                    mapping={str(n): pack(r) for n, r in match["pairs"].items()},
                )
            if match["scores"]:
                pipe.hset(
                    self.key("match", mid, "scores"),
                    mapping={str(n): json.dumps(s) for n, s in match["scores"].items()},
                )
            if match["luck"]:
                pipe.hset(
                    self.key("match", mid, "luck"),
                    mapping={str(n): repr(float(v)) for n, v in match["luck"].items()},
                )

    def tournament_counter(self, pipe: Any) -> int:
        """The last tournament number handed out (read under ``pipe``'s WATCH)."""
        raw = pipe.get(self.counter_key())
        return 0 if raw is None else int(raw)

    def set_tournament_counter(self, pipe: Any, number: int) -> None:
        pipe.set(self.counter_key(), number)
