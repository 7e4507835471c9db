"""Everything the arena keeps in Redis, and the only module that knows a key name.

Keys (all under one prefix, ``cinch`` by default, so tests and several arenas can share
a server without touching each other's data):

    {p}:deals:{name}              hash  "meta" -> header JSON, "{n}" -> board JSON
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
    {p}:tournament:{tid}:par      hash  board number -> the reference pair's room (blind movement)
    {p}:match:{mid}               hash  spec, status
    {p}:match:{mid}:pairs         hash  board number -> board-pair record JSON
    {p}:match:{mid}:scores        hash  board number -> X's score on that pair (JSON); a match of k
                                        entrants: every entrant's board score, a JSON list
    {p}:match:{mid}:luck          hash  board number -> X's luck on the draw on that pair (``workers.luck``)
    {p}:claim:{mid}:{n}           string the RQ job playing board n of the match, with a TTL
    {p}:job:{job_id}              string "alive" while a chunk job runs, with a TTL (its heartbeat)
    {p}:ratings:{ruleset}         hash  bot -> rating JSON
    {p}:ratings:{ruleset}:comparisons hash comparison id -> the rated comparison's record JSON
                                        (``server.arena.ratings.record``) but its scores: what the ratings
                                        are replayed from
    {p}:ratings:{ruleset}:scores  hash  comparison id -> its scores JSON, [[board, X's score], ...]
    {p}:ratings:{ruleset}:after   hash  comparison id -> [X's, Y's] rating JSON after it in the last
                                        replay, or null when it owned no new board pair
    {p}:ratings:{ruleset}:history:{bot} list the bot's rating after each comparison that moved it, in
                                        canonical order: JSON {t, mu, sigma, rating, match}; the last
                                        HISTORY_LENGTH kept
    {p}:secret                    string the server's secret (suit relabelings); never served
    {p}:bots                      set   bot names
    {p}:bot:{name}                hash  name, kind, status, trusted, created, description, token_hash
    {p}:token:{sha256}            string bot name for a token's hash
    {p}:bot:{name}:pending        zset  open decision ids of the bot, by deadline
    {p}:bot:{name}:seen           string Redis time the bot last asked for or answered a decision
                                        (expires after a day unseen)
    {p}:wake                      pub/sub channel: a bot's name per new decision, for long-polls
    {p}:decision:{id}             hash  bot, head (the request JSON but its deadline), legal, seat,
                                        deadline (the real one: the per-decision limit plus
                                        the bank left), shown (the limit only: what the bot
                                        sees), status
    {p}:decision:{id}:answer      list  the accepted answer, for the waiting worker
    {p}:match:{mid}:bank          hash  bot -> time bank left (ms)
    {p}:match:{mid}:timeouts      hash  bot -> timeouts so far
    {p}:match:{mid}:faulty        set   bots recorded as faulty in the match
    {p}:seq:table                 counter for table ids ("g1", "g2", ...)
    {p}:tables                    zset  table id by creation time
    {p}:table:{id}                hash  spec, status, seat:<name> per seat of the ruleset's table size (N..W at
                                        four, P1..Pk else), created, creator, finished, winner, scores
                                        (the game's final scores, JSON, once finished)
    {p}:tables:live               set   ids of tables open or running
    {p}:bot:{name}:tables         set   live tables a remote bot created or sits at
    {p}:table:{id}:hands          list  finished hands' records, in order (the game's checkpoint)
    {p}:table:{id}:live           string public view of the hand in progress

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
import secrets
import time
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from redis import Redis

from server.arena.dealsets import DealSet, shape
from server.arena.ratings import replay, shown
from server.arena.records import current_pair, current_room, current_table_hand
from server.arena.settings import CLOSED_DECISION_SECONDS
from server.engine import Board, make_ruleset, seats_for
from server.errors import Conflict, NotFound

# KEYS[1] the tournament's match list; ARGV[1] the match key prefix, then (match id, spec JSON) pairs.
_ADD_MATCHES = """
local added = 0
for i = 2, #ARGV, 2 do
  if redis.call('HSETNX', ARGV[1] .. ARGV[i], 'spec', ARGV[i + 1]) == 1 then
    redis.call('HSET', ARGV[1] .. ARGV[i], 'status', 'running')
    redis.call('RPUSH', KEYS[1], ARGV[i])
    added = added + 1
  end
end
return added
"""

_RECORD_PAIRS = """
if redis.call('SISMEMBER', KEYS[5], ARGV[1]) == 1 then return {0, redis.call('SCARD', KEYS[5])} end
local added = 0
for i = 3, #ARGV, 4 do
  if redis.call('HSETNX', KEYS[1], ARGV[i], ARGV[i + 1]) == 1 then
    redis.call('HSET', KEYS[2], ARGV[i], ARGV[i + 2])
    if ARGV[i + 3] ~= '' then redis.call('HSET', KEYS[6], ARGV[i], ARGV[i + 3]) end
    added = added + 1
  end
end
if added > 0 then redis.call('HINCRBY', KEYS[4], 'pairs_done', added) end
if redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[2]) and redis.call('SADD', KEYS[5], ARGV[1]) == 1 then
  redis.call('HSET', KEYS[3], 'status', 'complete')
end
return {added, redis.call('SCARD', KEYS[5])}
"""


# Shared Lua: Redis's clock.
_CLOCK = """
local function clock()
  local t = redis.call('TIME')
  return tonumber(t[1]) + tonumber(t[2]) / 1e6
end
"""

# Shared Lua: a bot's open requests (ids past their real deadline dropped), soonest
# shown deadline first, each completed with its shown deadline and the milliseconds left
# until it (0 once it has passed: the answer is still taken until the real deadline),
# skipping the ids in the set ``skip``; at most ``limit`` of them (all if limit <= 0).
# The real deadline (the pending zset's score) is never shown, nor is the order by it:
# it holds the bank left, which would mark the match. ``set_of(i)``: ARGV[i..] as a set.
_OPEN_LIST = (
    _CLOCK
    + """
local function open_list(pending, prefix, limit, skip, now)
  redis.call('ZREMRANGEBYSCORE', pending, '-inf', now)
  local found = {}
  for _, id in ipairs(redis.call('ZRANGE', pending, 0, -1)) do
    if not skip[id] then
      local f = redis.call('HMGET', prefix .. id, 'head', 'shown', 'status', 'deadline')
      if f[1] and f[3] == 'pending' then
        local shown = f[2] or f[4]    -- a request asked before shown deadlines existed
        table.insert(found, {tonumber(shown), id, f[1], shown})
      end
    end
  end
  table.sort(found, function(a, b) return a[1] < b[1] or (a[1] == b[1] and a[2] < b[2]) end)
  local out = {}
  for _, r in ipairs(found) do
    local left = math.max(0, math.floor((r[1] - now) * 1000))
    table.insert(out, r[3] .. ',"deadline":' .. r[4] .. ',"deadline_in_ms":' .. left .. '}')
    if limit > 0 and #out >= limit then break end
  end
  return out
end
local function set_of(first)
  local skip = {}
  for i = first, #ARGV do skip[ARGV[i]] = true end
  return skip
end
"""
)

# Shared Lua: note at ``key`` (the bot's ``seen``) that a bot talked to the API ``now``.
_SEEN = """
local function seen(key, now)
  redis.call('SET', key, string.format('%.6f', now), 'EX', 86400)
end
"""

# The open requests of a bot (one round trip for the long-poll), noting that it asked.
_OPEN = (
    _OPEN_LIST
    + _SEEN
    + """
local now = clock()
seen(KEYS[2], now)
return open_list(KEYS[1], ARGV[1], tonumber(ARGV[2]), set_of(3), now)
"""
)

# How many open decisions a bot has (expired ones not counted).
_OPEN_COUNT = (
    _CLOCK
    + """
return redis.call('ZCOUNT', KEYS[1], '(' .. clock(), '+inf')
"""
)

# Shared Lua: the name of the active bot holding a token (by the token's hash).
_TOKEN_BOT_FN = """
local function token_bot(token_key, bot_prefix)
  local name = redis.call('GET', token_key)
  if not name then return false end
  if redis.call('HGET', bot_prefix .. name, 'status') ~= '"active"' then return false end
  return name
end
"""

# Accept a bot's answer only while its decision is open and before its real deadline
# (the shown one may have passed: the bank left is a silent grace); then,
# in the same round trip, the bot's other open requests (so an answer can carry the next
# decision back). A token's bot that answers is noted as seen, whatever the outcome.
_ANSWER = (
    _OPEN_LIST
    + _TOKEN_BOT_FN
    + _SEEN
    + """
local holder = token_bot(KEYS[4], ARGV[6])
if not holder then return {'unauthorized'} end
local now = clock()
if holder == ARGV[1] then seen(KEYS[5], now) end
if holder ~= ARGV[1] or redis.call('HGET', KEYS[1], 'bot') ~= ARGV[1] then return {'missing'} end
local status = redis.call('HGET', KEYS[1], 'status')
if status ~= 'pending' then return {status} end
if tonumber(redis.call('HGET', KEYS[1], 'deadline')) < now then return {'expired'} end
redis.call('HSET', KEYS[1], 'status', 'answered')
redis.call('HDEL', KEYS[1], 'head', 'legal', 'shown')
redis.call('EXPIRE', KEYS[1], CLOSED_TTL)
redis.call('RPUSH', KEYS[2], ARGV[2])
redis.call('EXPIRE', KEYS[2], 3600)
redis.call('ZREM', KEYS[3], ARGV[3])
local out = open_list(KEYS[3], ARGV[4], tonumber(ARGV[5]), set_of(7), now)
table.insert(out, 1, 'ok')
return out
"""
)

# Publish a decision request for a bot in one round trip: refuse if the bot is faulty in
# the match, else start its time bank if new, and set two deadlines on Redis's clock:
# the real one, the per-decision limit plus what is left of the bank (the answer is
# taken until then, and the pending zset is scored by it), and the shown one, the limit
# only, the same for every decision of every match. The bot's name is published on
# the wake channel (ARGV[8]) for the API processes holding its long-polls: they wait on
# an event in memory, not on a Redis connection each.
_ASK = (
    _CLOCK
    + """
if redis.call('SISMEMBER', KEYS[1], ARGV[1]) == 1 then return {'faulty'} end
redis.call('HSETNX', KEYS[2], ARGV[1], ARGV[2])
local bank = math.max(tonumber(redis.call('HGET', KEYS[2], ARGV[1])), 0)
local now = clock()
local deadline = string.format('%.6f', now + (tonumber(ARGV[3]) + bank) / 1000)
local shown = string.format('%.6f', now + tonumber(ARGV[3]) / 1000)
redis.call('HSET', KEYS[3], 'bot', ARGV[1], 'head', ARGV[5], 'legal', ARGV[6], 'seat', ARGV[7],
           'deadline', deadline, 'shown', shown, 'status', 'pending')
redis.call('EXPIRE', KEYS[3], 3600)
redis.call('ZADD', KEYS[4], deadline, ARGV[4])
redis.call('PUBLISH', ARGV[8], ARGV[1])
return {'open', string.format('%.6f', now), deadline}
"""
)

# The active bot holding a token (by the token's hash), in one round trip.
_TOKEN_BOT = (
    _TOKEN_BOT_FN
    + """
return token_bot(KEYS[1], ARGV[1])
"""
)

# What judging an answer needs, with the token check in the same round trip: the
# token's active bot (or nothing), then the decision's bot, status, legal actions, seat.
_ANSWER_CONTEXT = (
    _TOKEN_BOT_FN
    + """
local name = token_bot(KEYS[1], ARGV[1])
if not name then return {} end
return {name, unpack(redis.call('HMGET', KEYS[2], 'bot', 'status', 'legal', 'seat'))}
"""
)

# Close an unanswered decision at its deadline; an answer that won the race is kept. A
# closed decision (answered or expired) keeps only what refusing a late answer needs
# (bot, status) for CLOSED_TTL seconds: the observation is the bulk of a decision, and
# at hundreds of decisions a second an hour of them would fill the server's memory.
_EXPIRE = """
if redis.call('HGET', KEYS[1], 'status') == 'pending' then
  redis.call('HSET', KEYS[1], 'status', 'expired')
  redis.call('HDEL', KEYS[1], 'head', 'legal', 'shown')
  redis.call('EXPIRE', KEYS[1], CLOSED_TTL)
  redis.call('ZREM', KEYS[2], ARGV[1])
  return 'expired'
end
return redis.call('HGET', KEYS[1], 'status')
"""

# Append hand number ARGV[1] (1-based) to a table's record unless it is already there.
_APPEND_HAND = """
if redis.call('LLEN', KEYS[1]) == tonumber(ARGV[1]) - 1 then
  redis.call('RPUSH', KEYS[1], ARGV[2])
  return 1
end
return 0
"""

# Create table ARGV[1] .. INCR(KEYS[1]) (hash key ARGV[2] .. id) unless the live tables
# (KEYS[3]) number ARGV[3] already, or one of its holders' live sets (KEYS[4..]) ARGV[4]:
# the bounds are checked and the table counted in one step, so a burst cannot pass them.
# ARGV[5] spec, ARGV[6] time, ARGV[7] creator, ARGV[8..] seat, bot pairs.
_CREATE_TABLE = """
if redis.call('SCARD', KEYS[3]) >= tonumber(ARGV[3]) then return {'full', ''} end
for i = 4, #KEYS do
  if redis.call('SCARD', KEYS[i]) >= tonumber(ARGV[4]) then return {'busy', tostring(i - 3)} end
end
local tid = ARGV[1] .. redis.call('INCR', KEYS[1])
local key = ARGV[2] .. tid
redis.call('HSET', key, 'spec', ARGV[5], 'status', 'open', 'created', ARGV[6], 'creator', ARGV[7])
for i = 8, #ARGV, 2 do redis.call('HSET', key, 'seat:' .. ARGV[i], ARGV[i + 1]) end
redis.call('ZADD', KEYS[2], ARGV[6], tid)
redis.call('SADD', KEYS[3], tid)
for i = 4, #KEYS do redis.call('SADD', KEYS[i], tid) end
return {'ok', tid}
"""

# Seat bot ARGV[2] at seat ARGV[1] of table ARGV[3] (hash KEYS[1]) if the seat is free and
# the bot's live tables (KEYS[2]) are fewer than ARGV[4]: 'ok', 'taken' or 'busy'.
_TAKE_SEAT = """
if redis.call('HEXISTS', KEYS[1], 'seat:' .. ARGV[1]) == 1 then return 'taken' end
if redis.call('SISMEMBER', KEYS[2], ARGV[3]) == 0 and redis.call('SCARD', KEYS[2]) >= tonumber(ARGV[4]) then
  return 'busy'
end
redis.call('HSET', KEYS[1], 'seat:' .. ARGV[1], ARGV[2])
redis.call('SADD', KEYS[2], ARGV[3])
return 'ok'
"""


# Claim board ARGV[3] of match ARGV[4] for job ARGV[1] (TTL ARGV[2] ms), only while the
# tournament is live (queued or running, its driver's lease held), the board is not
# stored yet and the match is not complete (a match decided by its sequential test is
# complete with boards unplayed). The first claim turns a queued tournament into a running one.
_CLAIM = """
local status = redis.call('HGET', KEYS[1], 'status')
if (status ~= 'queued' and status ~= 'running') or redis.call('EXISTS', KEYS[2]) == 0 then return 'stop' end
if redis.call('HEXISTS', KEYS[4], ARGV[3]) == 1 or redis.call('SISMEMBER', KEYS[5], ARGV[4]) == 1 then
  return 'done'
end
if not redis.call('SET', KEYS[3], ARGV[1], 'NX', 'PX', ARGV[2]) then return 'busy' end
if status == 'queued' then redis.call('HSET', KEYS[1], 'status', 'running') end
return 'ok'
"""

# Extend (ARGV[2] ms) or, with ARGV[2] = 0, delete each key that still holds ARGV[1].
_KEEP = """
for _, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then
    if tonumber(ARGV[2]) > 0 then redis.call('PEXPIRE', key, ARGV[2]) else redis.call('DEL', key) end
  end
end
return 1
"""

# Hold a tournament's lease for driver ARGV[1] (TTL ARGV[2] ms) unless another driver
# holds it; returns 'ok' or the other holder.
_LEASE = """
local holder = redis.call('GET', KEYS[1])
if holder and holder ~= ARGV[1] then return holder end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 'ok'
"""

# Make driver ARGV[1] the tournament's driver (resume): refused when it is finished or
# another live driver holds it. Returns 'ok', 'finished' or the other holder.
_TAKE_OVER = """
local status = redis.call('HGET', KEYS[1], 'status')
if status == 'finished' then return 'finished' end
local holder = redis.call('GET', KEYS[2])
if holder and holder ~= ARGV[1] then return holder end
local next = 'queued'
if tonumber(redis.call('HGET', KEYS[1], 'pairs_done')) > 0 then next = 'running' end
redis.call('HSET', KEYS[1], 'status', next, 'driver', ARGV[1], 'failures', 0)
redis.call('HDEL', KEYS[1], 'error')
redis.call('SADD', KEYS[3], ARGV[3])
redis.call('SET', KEYS[2], ARGV[1], 'PX', ARGV[2])
return 'ok'
"""

# Stop a tournament for good or for now (cancelled, interrupted, failed), unless it is
# finished: its status, the reason, out of the active set, the lease dropped. With
# ARGV[5] = '1' only if no driver holds it (a supervisor tidying up after a dead driver).
_STOP = """
if redis.call('HGET', KEYS[1], 'status') == 'finished' then return 0 end
if ARGV[5] == '1' and redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'status', ARGV[1], 'stopped', ARGV[2])
if ARGV[3] ~= '' then redis.call('HSET', KEYS[1], 'error', ARGV[3]) end
redis.call('SREM', KEYS[3], ARGV[4])
redis.call('DEL', KEYS[2])
return 1
"""


ACTIVE = ("queued", "running")


_ANSWER = _ANSWER.replace("CLOSED_TTL", str(CLOSED_DECISION_SECONDS))
_EXPIRE = _EXPIRE.replace("CLOSED_TTL", str(CLOSED_DECISION_SECONDS))


class StoreError(NotFound):
    """An id that names nothing stored (a 404 where a request named it)."""


def table_seats(spec: dict[str, Any]) -> tuple[str, ...]:
    """The seats of a table of ``spec`` (its ruleset and options, validated when it was
    created): N E S W at four, P1..Pk at any other size."""
    return seats_for(make_ruleset(spec["ruleset"], spec["options"]).players)


class TableLimit(Exception):
    """A table refused by a bound on live tables: ``args[0]`` is the bot at its bound, or
    ``"tables"`` when the arena holds as many live tables as it may."""


HISTORY_LENGTH = 1000
"""Rating history points kept per bot and ruleset: a bot's chart shows its last 1,000
rating changes (a rated comparison each, in canonical order); older points are dropped."""


class _Decoded(Mapping):
    """A hash's values decoded from JSON when read: a refresh needs every comparison's
    presence in ``after`` but the ratings of only a few."""

    def __init__(self, raw: dict[str, bytes]):
        self.raw = raw

    def __getitem__(self, key: str) -> Any:
        return json.loads(self.raw[key])

    def __contains__(self, key: object) -> bool:
        return key in self.raw

    def __iter__(self) -> Iterator[str]:
        return iter(self.raw)

    def __len__(self) -> int:
        return len(self.raw)


class Store:
    history_length = HISTORY_LENGTH

    def __init__(self, redis: Redis, prefix: str = "cinch"):
        self.redis = redis
        self.prefix = prefix
        self._record = redis.register_script(_RECORD_PAIRS)
        self._answer = redis.register_script(_ANSWER)
        self._expire = redis.register_script(_EXPIRE)
        self._append_hand = redis.register_script(_APPEND_HAND)
        self._create_table = redis.register_script(_CREATE_TABLE)
        self._take_seat = redis.register_script(_TAKE_SEAT)
        self._open = redis.register_script(_OPEN)
        self._open_count = redis.register_script(_OPEN_COUNT)
        self._ask = redis.register_script(_ASK)
        self._token_bot = redis.register_script(_TOKEN_BOT)
        self._answer_context = redis.register_script(_ANSWER_CONTEXT)
        self._claim = redis.register_script(_CLAIM)
        self._keep = redis.register_script(_KEEP)
        self._lease = redis.register_script(_LEASE)
        self._take_over = redis.register_script(_TAKE_OVER)
        self._stop = redis.register_script(_STOP)
        self._add_matches = redis.register_script(_ADD_MATCHES)
        self._boards: dict[tuple[str, int], Board] = {}

    def key(self, *parts: object) -> str:
        return ":".join([self.prefix, *map(str, parts)])

    # ------------------------------------------------------------------ deal sets
    def put_dealset(self, deals: DealSet) -> None:
        """Publish a deal set for workers on any machine; refuses a different set of the same name."""
        key = self.key("deals", deals.name)
        meta = json.dumps({"name": deals.name, "seed": deals.seed, "boards": len(deals.boards), **shape(deals)})
        stored = self.redis.hget(key, "meta")
        if stored is not None:
            if json.loads(stored) != json.loads(meta) or self.board(deals.name, 1) != deals.boards[0]:
                raise Conflict(f"a different deal set named {deals.name!r} is already stored")
            return
        mapping = {str(n): json.dumps(b.to_dict()) for n, b in enumerate(deals.boards, 1)}
        mapping["meta"] = meta
        self.redis.hset(key, mapping=mapping)

    def dealset_meta(self, name: str) -> dict[str, Any] | None:
        raw = self.redis.hget(self.key("deals", name), "meta")
        return None if raw is None else json.loads(raw)

    def board(self, name: str, number: int) -> Board:
        cached = self._boards.get((name, number))
        if cached is None:
            raw, meta = self.redis.hmget(self.key("deals", name), [str(number), "meta"])
            if raw is None:
                raise StoreError(f"deal set {name!r} has no board {number} in this store")
            table = json.loads(meta)
            cached = self._boards[(name, number)] = Board.from_dict(
                json.loads(raw), seats_for(table.get("players", 4)), table.get("deck", 52)
            )
        return cached

    # ------------------------------------------------------------------ tournaments and matches
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
        pipe.execute()
        return tid

    def add_matches(self, tid: str, matches: list[dict[str, Any]]) -> int:
        """Add matches (each with its ``id``) to a tournament's schedule, each once whoever
        adds it: a round computed twice (by the job that finished the round and by the
        supervisor) is stored once. Returns how many were new."""
        args: list[str] = [self.key("match", "")]
        for match in matches:
            args += [match["id"], json.dumps({**match, "tournament": tid})]
        return int(self._add_matches(keys=[self.key("tournament", tid, "matches")], args=args))

    def tournament(self, tid: str) -> dict[str, Any]:
        """A tournament's spec and state. A queued or running one whose driver's lease has
        lapsed (the driver died or was stopped) reads as ``interrupted``."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.hgetall(self.key("tournament", tid))
        pipe.exists(self.key("tournament", tid, "lease"))
        raw, leased = pipe.execute()
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

    def active_tournaments(self) -> list[str]:
        """Ids of tournaments whose stored status is queued or running (live or not)."""
        return sorted(
            (t.decode() for t in self.redis.smembers(self.key("tournaments", "active"))), key=lambda t: int(t[1:])
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
            keys=[self.key("tournament", tid), self.key("tournament", tid, "lease"), self.key("tournaments", "active")],
            args=[driver, lease_ms, tid],
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
                ],
                args=[status, time.time(), error, tid, "1" if only_if_driverless else "0"],
            )
        )

    def lead(self, holder: str, lease_ms: int) -> bool:
        """Hold (or renew) the one supervisor's lease: only its holder supervises the
        service's tournaments, so two ``cinch serve`` on one Redis do not both enqueue."""
        return self._lease(keys=[self.key("supervisor")], args=[holder, lease_ms]) == b"ok"

    def add_jobs(self, tid: str, job_ids: list[str]) -> None:
        """Record job ids enqueued for a tournament (to supervise or cancel them)."""
        self.redis.sadd(self.key("tournament", tid, "jobs"), *job_ids)

    def jobs(self, tid: str) -> list[str]:
        return sorted(j.decode() for j in self.redis.smembers(self.key("tournament", tid, "jobs")))

    def forget_jobs(self, tid: str, job_ids: Iterable[str]) -> None:
        job_ids = list(job_ids)
        if job_ids:
            self.redis.srem(self.key("tournament", tid, "jobs"), *job_ids)

    def count_failures(self, tid: str, failed: int) -> int:
        """Add ``failed`` failed jobs to the tournament's run of failures without progress
        (a board pair stored since the last count starts the run again); returns the run."""
        key = self.key("tournament", tid)
        done, since = self.redis.hmget(key, "pairs_done", "failures_done")
        if since is None or int(since) != int(done):
            self.redis.hset(key, mapping={"failures": 0, "failures_done": int(done)})
        return int(self.redis.hincrby(key, "failures", failed))

    # ------------------------------------------------------------------ boards in play
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
        return [t.decode() for t in self.redis.zrange(self.key("tournaments"), 0, -1)]

    def match_ids(self, tid: str) -> list[str]:
        return [m.decode() for m in self.redis.lrange(self.key("tournament", tid, "matches"), 0, -1)]

    def match(self, mid: str) -> dict[str, Any]:
        raw = self.redis.hgetall(self.key("match", mid))
        if not raw:
            raise StoreError(f"no match {mid!r}")
        return {**json.loads(raw[b"spec"]), "status": raw[b"status"].decode()}

    # ------------------------------------------------------------------ board pairs
    def record_pairs(self, match: dict[str, Any], records: Iterable[dict[str, Any]]) -> tuple[int, int]:
        """Store board-pair records once each; returns (newly stored, matches complete)."""
        args: list[Any] = [match["id"], match["last"] - match["first"] + 1]
        for record in records:
            luck = record.get("luck")
            score = record["entrant_scores"] if "entrant_scores" in record else record["score"]
            args += [
                record["board"],
                json.dumps(record, separators=(",", ":")),
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
        out = {}
        for board, raw in self.redis.hgetall(self.key("match", mid, "scores")).items():
            score = json.loads(raw)
            out[int(board)] = score if isinstance(score, list) else [score, -score]
        return out

    def lucks(self, mid: str) -> dict[int, float]:
        """X's luck on the draw per board pair stored so far (boards stored without one,
        before the luck was measured, are missing)."""
        return {int(b): float(v) for b, v in self.redis.hgetall(self.key("match", mid, "luck")).items()}

    def pair(self, mid: str, board: int) -> dict[str, Any] | None:
        """A stored board pair, its rooms in today's record shape (``server.arena.records``)."""
        raw = self.redis.hget(self.key("match", mid, "pairs"), str(board))
        return None if raw is None else current_pair(json.loads(raw))

    def par_room(self, tid: str, board: int) -> dict[str, Any] | None:
        """The blind movement's reference room on a board, if it has been played."""
        raw = self.redis.hget(self.key("tournament", tid, "par"), str(board))
        return None if raw is None else current_room(json.loads(raw))

    def put_par_room(self, tid: str, board: int, room: dict[str, Any]) -> dict[str, Any]:
        """Keep the first par room stored for the board, and return it: two jobs that
        played it at once both score against the same one."""
        key = self.key("tournament", tid, "par")
        pipe = self.redis.pipeline(transaction=True)
        pipe.hsetnx(key, str(board), json.dumps(room, separators=(",", ":")))
        pipe.hget(key, str(board))
        return current_room(json.loads(pipe.execute()[1]))

    def complete_match(self, match: dict[str, Any]) -> bool:
        """Mark a match complete with the boards it has (its sequential test decided):
        no board is claimed or stored for it afterwards. True for the one caller that
        completed it; the match counts once in the tournament's ``complete`` set."""
        pipe = self.redis.pipeline(transaction=True)
        pipe.sadd(self.key("tournament", match["tournament"], "complete"), match["id"])
        pipe.hset(self.key("match", match["id"]), "status", "complete")
        return bool(pipe.execute()[0])

    def complete_matches(self, tid: str) -> set[str]:
        return {m.decode() for m in self.redis.smembers(self.key("tournament", tid, "complete"))}

    # ------------------------------------------------------------------ results and ratings
    def finish_tournament(self, tid: str, results: dict[str, Any]) -> bool:
        """Write a tournament's results once; False if they were already written."""
        if not self.redis.set(self.key("tournament", tid, "results"), json.dumps(results), nx=True):
            return False
        pipe = self.redis.pipeline(transaction=True)
        pipe.hset(self.key("tournament", tid), mapping={"status": "finished", "finished": time.time()})
        pipe.hdel(self.key("tournament", tid), "error")
        pipe.srem(self.key("tournaments", "active"), tid)
        pipe.delete(self.key("tournament", tid, "lease"))
        pipe.execute()
        return True

    def results(self, tid: str) -> dict[str, Any] | None:
        raw = self.redis.get(self.key("tournament", tid, "results"))
        return None if raw is None else json.loads(raw)

    def add_comparisons(self, ruleset: str, records: Iterable[dict[str, Any]]) -> int:
        """Store rated comparisons (``server.arena.ratings.record``), each once whoever stores it
        (HSETNX: a retried job or the supervisor's follow-up adds nothing); returns how
        many were new. The scores go to a hash of their own, so that a refresh reads every
        comparison's head but only the scores it needs. ``refresh_ratings`` then brings
        the ratings up to date."""
        heads, scores = self.key("ratings", ruleset, "comparisons"), self.key("ratings", ruleset, "scores")
        pipe = self.redis.pipeline(transaction=True)
        for record in records:
            head = {k: v for k, v in record.items() if k != "scores"}
            pipe.hsetnx(heads, record["id"], json.dumps(head, separators=(",", ":")))
            pipe.hsetnx(scores, record["id"], json.dumps(record["scores"], separators=(",", ":")))
        return sum(pipe.execute()[::2])

    def comparisons(self, ruleset: str) -> dict[str, dict[str, Any]]:
        """Every stored comparison of a ruleset, by id, without its scores."""
        return {
            k.decode(): json.loads(v)
            for k, v in self.redis.hgetall(self.key("ratings", ruleset, "comparisons")).items()
        }

    def refresh_ratings(self, ruleset: str) -> None:
        """Make the ratings and histories of a ruleset the replay of every stored comparison
        in canonical order (``server.arena.ratings.replay``), if some are not reflected yet.

        The ``after`` hash holds each reflected comparison's ratings, so the replay starts
        at the first new comparison in canonical order and only the history points from
        there on are rewritten. Optimistic transaction watching the comparisons and
        ``after``: a comparison stored meanwhile, or another worker's refresh, makes this
        one start again from what is then stored, so two workers finishing at once both
        end up counted, each once, and the result does not depend on who wrote last."""
        stored, after = self.key("ratings", ruleset, "comparisons"), self.key("ratings", ruleset, "after")
        ratings, scores = self.key("ratings", ruleset), self.key("ratings", ruleset, "scores")

        def attempt(pipe) -> None:
            if pipe.hlen(stored) == pipe.hlen(after):
                return
            known = _Decoded({k.decode(): v for k, v in pipe.hgetall(after).items()})
            done = replay(
                [json.loads(v) for v in pipe.hvals(stored)],
                known,
                lambda ids: dict(zip(ids, map(json.loads, pipe.hmget(scores, ids) if ids else []))),
            )
            if not done.redone:  # read across another refresh: the watch has fired, so the
                return  # empty EXEC fails and this attempt starts again
            pipe.multi()
            pipe.hset(after, mapping={r["id"]: json.dumps(done.after[r["id"]]) for r in done.redone})
            for bot in sorted({b for r in done.redone for b in (r["x"], r["y"])}):
                history = self.key("ratings", ruleset, "history", bot)
                mine = [(r, done.after[r["id"]], r["y"] == bot) for r in done.redone if bot in (r["x"], r["y"])]
                stale = sum(1 for r, _, _ in mine if known.get(r["id"]))
                if stale:  # the points of redone comparisons, at the list's end
                    pipe.ltrim(history, 0, -stale - 1)
                points = [
                    json.dumps({"t": r["t"], **shown(new[side]), "match": r["id"]}) for r, new, side in mine if new
                ]
                if points:
                    pipe.rpush(history, *points)
                    pipe.ltrim(history, -self.history_length, -1)
                if bot in done.ratings:
                    pipe.hset(ratings, bot, json.dumps(done.ratings[bot]))
                else:
                    pipe.hdel(ratings, bot)

        self.redis.transaction(attempt, stored, after)

    def counted(self, ruleset: str, ids: list[str]) -> set[str]:
        """Those of ``ids`` that move the ratings: reflected, and owning a board pair."""
        if not ids:
            return set()
        values = self.redis.hmget(self.key("ratings", ruleset, "after"), ids)
        return {cid for cid, raw in zip(ids, values) if raw is not None and json.loads(raw) is not None}

    def legacy_ratings(self, ruleset: str) -> bool:
        """Whether the ruleset's ratings were written by incremental updates, before the
        comparisons were stored: they must be rebuilt from the stored board pairs."""
        return bool(self.redis.exists(self.key("ratings", ruleset, "applied")))

    def rating_rulesets(self) -> list[str]:
        """Rulesets that have ratings stored."""
        prefix = self.key("ratings", "")
        return sorted({k.decode()[len(prefix) :].split(":")[0] for k in self.redis.scan_iter(match=prefix + "*")})

    def clear_ratings(self, ruleset: str) -> None:
        """Forget a ruleset's ratings, histories and stored comparisons (and the sets the
        incremental updates kept, ``applied`` and ``evidence``)."""
        histories = self.redis.scan_iter(match=self.key("ratings", ruleset, "history", "*"))
        self.redis.delete(
            *[
                self.key("ratings", ruleset, *part)
                for part in ((), ("comparisons",), ("scores",), ("after",), ("applied",), ("evidence",))
            ],
            *histories,
        )

    def rating_history(self, ruleset: str, bots: Iterable[str], last: int = 0) -> dict[str, list[dict[str, Any]]]:
        """Each bot's rating history in ``ruleset``, oldest point first (the last ``last``
        points when positive), in one round trip: the leaderboard charts every bot's."""
        names = list(bots)
        pipe = self.redis.pipeline(transaction=False)
        for bot in names:
            pipe.lrange(self.key("ratings", ruleset, "history", bot), -last if last > 0 else 0, -1)
        return {bot: [json.loads(p) for p in points] for bot, points in zip(names, pipe.execute())}

    def ratings(self, ruleset: str) -> dict[str, dict[str, Any]]:
        return {b.decode(): json.loads(r) for b, r in self.redis.hgetall(self.key("ratings", ruleset)).items()}

    # ------------------------------------------------------------------ secret
    def secret(self) -> bytes:
        """The arena's secret, made on first use; keys the per-room suit relabelings."""
        key = self.key("secret")
        self.redis.set(key, secrets.token_hex(32), nx=True)
        return self.redis.get(key)

    def now(self) -> float:
        """Redis's clock: every deadline is on one clock, whichever machine sets or checks it."""
        seconds, micros = self.redis.time()
        return seconds + micros / 1e6

    # ------------------------------------------------------------------ bots
    def put_bot(self, bot: dict[str, Any], only_new: bool = False, token_hash: str | None = None) -> bool:
        """Store a bot (and its token's hash); with ``only_new``, False if the name is taken."""
        key = self.key("bot", bot["name"])
        if only_new and not self.redis.hsetnx(key, "name", bot["name"]):
            return False
        pipe = self.redis.pipeline(transaction=True)
        pipe.hset(key, mapping={k: json.dumps(v) for k, v in bot.items()})
        pipe.sadd(self.key("bots"), bot["name"])
        if token_hash:
            pipe.hset(key, "token_hash", token_hash)
            pipe.set(self.key("token", token_hash), bot["name"])
        pipe.execute()
        return True

    def bot(self, name: str) -> dict[str, Any]:
        raw = self.redis.hgetall(self.key("bot", name))
        if not raw:
            raise StoreError(f"no bot {name!r}")
        return {k.decode(): json.loads(v) for k, v in raw.items() if k != b"token_hash"}

    def bots(self) -> list[dict[str, Any]]:
        return [self.bot(n.decode()) for n in sorted(self.redis.smembers(self.key("bots")))]

    def set_bot_fields(self, name: str, **fields: Any) -> None:
        """Change a stored bot's ``status`` or ``trusted`` flag (StoreError if unknown)."""
        self.bot(name)
        self.redis.hset(self.key("bot", name), mapping={k: json.dumps(v) for k, v in fields.items()})

    def set_bot_token(self, name: str, token_hash: str) -> None:
        """Replace a bot's token: the old one stops working in the same transaction."""
        key = self.key("bot", name)
        old = self.redis.hget(key, "token_hash")
        pipe = self.redis.pipeline(transaction=True)
        if old:
            pipe.delete(self.key("token", old.decode()))
        pipe.hset(key, "token_hash", token_hash)
        pipe.set(self.key("token", token_hash), name)
        pipe.execute()

    def active_bot_for_token(self, token_hash: str) -> str | None:
        """The name of the active bot holding the token with this hash, or None."""
        raw = self._token_bot(keys=[self.key("token", token_hash)], args=[self.key("bot", "")])
        return None if raw is None else raw.decode()

    # ------------------------------------------------------------------ remote decisions
    def ask(
        self, bot: str, mid: str, observation: dict[str, Any], decision_ms: int, initial_bank_ms: int
    ) -> tuple[str, float, float] | None:
        """Publish a decision request for ``bot`` in match ``mid``, in one round trip.

        Returns (decision id, Redis's time, real deadline), or None if the bot is faulty
        in the match. The real deadline is ``decision_ms`` plus what is left of the bot's
        time bank, which starts at ``initial_bank_ms``; the bot is shown ``decision_ms``
        only (``open_requests``), so the bank is a silent grace that cannot mark a match.
        The request is stored as the JSON the bot will see, so serving it costs no
        decoding; its seat (``observation["seat"]``) and legal actions are kept apart for
        judging answers, in the same frame as the observation.
        """
        did = secrets.token_hex(16)
        legal = json.dumps(observation["legal"])
        head = f'{{"id": "{did}", "observation": {json.dumps(observation)}, "legal": {legal}'
        raw = self._ask(
            keys=[
                self.key("match", mid, "faulty"),
                self.key("match", mid, "bank"),
                self.key("decision", did),
                self.key("bot", bot, "pending"),
            ],
            args=[bot, initial_bank_ms, decision_ms, did, head, legal, observation["seat"], self.wake_channel],
        )
        if raw[0] == b"faulty":
            return None
        return did, float(raw[1]), float(raw[2])

    @property
    def wake_channel(self) -> str:
        """The pub/sub channel on which ``ask`` publishes the name of the bot it asks."""
        return self.key("wake")

    def open_requests(self, bot: str, limit: int = -1, skip: Iterable[str] = ()) -> list[str]:
        """The bot's open decision requests as JSON, soonest deadline first, each with
        its shown ``deadline`` (opened + the per-decision limit, never the bank) and
        ``deadline_in_ms`` until it (0 once passed; a request stays open until its real
        deadline); ids in ``skip`` are left out. Notes the bot as seen."""
        return [
            r.decode()
            for r in self._open(
                keys=[self.key("bot", bot, "pending"), self.key("bot", bot, "seen")],
                args=[self.key("decision", ""), limit, *skip],
            )
        ]

    def last_seen(self, bot: str) -> float | None:
        """When ``bot`` last asked for or answered a decision (Redis's clock, seconds), or
        None if not within a day: shows whether a remote bot being waited for is there."""
        raw = self.redis.get(self.key("bot", bot, "seen"))
        return None if raw is None else float(raw)

    def open_count(self, bot: str) -> int:
        """How many decisions ``bot`` has open now (past their deadline not counted)."""
        return int(self._open_count(keys=[self.key("bot", bot, "pending")]))

    def answer_context(self, token_hash: str, did: str) -> tuple[str | None, dict[str, Any] | None]:
        """(the active bot holding the token, what judging its answer to ``did`` needs:
        the decision's bot, status, legal actions and seat), in one round trip."""
        raw = self._answer_context(
            keys=[self.key("token", token_hash), self.key("decision", did)], args=[self.key("bot", "")]
        )
        if not raw:
            return None, None
        name, bot, status, legal, seat = raw
        if bot is None:
            return name.decode(), None
        return name.decode(), {
            "bot": bot.decode(),
            "status": status.decode(),
            "legal": json.loads(legal or "[]"),
            "seat": seat.decode(),
        }

    def answer_decision(
        self, token_hash: str, did: str, bot: str, action: dict[str, Any], limit: int = -1, skip: Iterable[str] = ()
    ) -> tuple[str, list[str]]:
        """Accept ``bot``'s answer if the token is ``bot``'s. Returns 'ok' or why not
        ('unauthorized', 'missing', 'answered', 'expired'), and, when accepted, the bot's
        other open requests (as ``open_requests``)."""
        raw = self._answer(
            keys=[
                self.key("decision", did),
                self.key("decision", did, "answer"),
                self.key("bot", bot, "pending"),
                self.key("token", token_hash),
                self.key("bot", bot, "seen"),
            ],
            args=[bot, json.dumps(action), did, self.key("decision", ""), limit, self.key("bot", ""), *skip],
        )
        return raw[0].decode(), [r.decode() for r in raw[1:]]

    def await_answer(self, did: str, bot: str, deadline: float, now: float) -> dict[str, Any] | None:
        """The worker's side: the accepted answer, or None once the deadline has passed.

        ``now`` is Redis's time at the call; elapsed time is then measured locally, so
        waiting costs no extra round trips (the final check is on Redis's clock anyway).
        Popping the only answer also removes its list.
        """
        answer_key = self.key("decision", did, "answer")
        started = time.monotonic()
        while True:
            left = deadline - now - (time.monotonic() - started)
            if left <= 0:
                status = self._expire(keys=[self.key("decision", did), self.key("bot", bot, "pending")], args=[did])
                if (status.decode() if isinstance(status, bytes) else status) == "expired":
                    return None
                left = 0.05  # answered in the last instant: the answer is in the list
            popped = self._blpop(answer_key, min(left, 1.0))
            if popped is not None:
                return json.loads(popped[1])

    def _blpop(self, key: str, timeout: float) -> Any:
        """BLPOP for about ``timeout`` seconds. Redis turns the seconds into whole
        milliseconds, truncating, and takes 0 as "forever": Redis 6.2 blocked forever on
        0.001 (0.999... ms). So the last instant before a deadline waits 10 ms instead."""
        return self.redis.blpop([key], timeout=max(timeout, 0.01))

    def spend_bank(self, mid: str, bot: str, ms: int) -> None:
        self.redis.hincrby(self.key("match", mid, "bank"), bot, -ms)

    def add_timeout(self, mid: str, bot: str) -> int:
        return int(self.redis.hincrby(self.key("match", mid, "timeouts"), bot, 1))

    def timeouts(self, mid: str) -> dict[str, int]:
        return {k.decode(): int(v) for k, v in self.redis.hgetall(self.key("match", mid, "timeouts")).items()}

    def mark_faulty(self, mid: str, bot: str) -> None:
        self.redis.sadd(self.key("match", mid, "faulty"), bot)

    def is_faulty(self, mid: str, bot: str) -> bool:
        return bool(self.redis.sismember(self.key("match", mid, "faulty"), bot))

    # ------------------------------------------------------------------ tables
    def create_table(
        self,
        spec: dict[str, Any],
        seats: dict[str, str],
        creator: str,
        holders: list[str],
        max_live: int,
        max_per_bot: int,
    ) -> str:
        """Create an open table with ``seats`` (seats of the spec's ruleset) filled, unless
        ``max_live`` tables are live already (``TableLimit`` "full") or one of ``holders``
        (the remote bots it counts for: its creator and seated bots) holds ``max_per_bot``
        (``TableLimit`` naming it). A seat the ruleset has not is a ``ValueError``: the API
        refuses it first, this keeps a stray seat from ever being stored."""
        unknown = set(seats) - set(table_seats(spec))
        if unknown:
            raise ValueError(f"a {spec['ruleset']} table has no seat {min(unknown)!r}")
        holders = list(dict.fromkeys(holders))
        outcome, detail = self._create_table(
            keys=[
                self.key("seq", "table"),
                self.key("tables"),
                self.key("tables", "live"),
                *(self.key("bot", b, "tables") for b in holders),
            ],
            args=[
                "g",
                self.key("table", ""),
                max_live,
                max_per_bot,
                json.dumps(spec),
                time.time(),
                creator,
                *(x for seat, bot in seats.items() for x in (seat, bot)),
            ],
        )
        if outcome == b"full":
            raise TableLimit("tables")
        if outcome == b"busy":
            raise TableLimit(holders[int(detail) - 1])
        return detail.decode()

    def table(self, tid: str) -> dict[str, Any]:
        raw = {k.decode(): v.decode() for k, v in self.redis.hgetall(self.key("table", tid)).items()}
        if not raw:
            raise StoreError(f"no table {tid!r}")
        spec = json.loads(raw["spec"])
        return {
            **spec,
            "id": tid,
            "status": raw["status"],
            "created": float(raw["created"]),
            "creator": raw.get("creator"),
            "finished": float(raw["finished"]) if "finished" in raw else None,
            "winner": raw.get("winner"),
            "final_scores": json.loads(raw["scores"]) if "scores" in raw else None,
            "seats": {s: raw.get(f"seat:{s}") for s in table_seats(spec)},
        }

    def table_ids(self) -> list[str]:
        return [t.decode() for t in self.redis.zrange(self.key("tables"), 0, -1)]

    def claim_seat(self, tid: str, seat: str, bot: str, max_per_bot: int) -> bool:
        """Seat ``bot`` if the seat is free (False if not), counting the table among its live
        ones; ``TableLimit`` if the bot sits at ``max_per_bot`` live tables already."""
        outcome = self._take_seat(
            keys=[self.key("table", tid), self.key("bot", bot, "tables")], args=[seat, bot, tid, max_per_bot]
        )
        if outcome == b"busy":
            raise TableLimit(bot)
        return outcome == b"ok"

    def start_table(self, tid: str) -> bool:
        """Mark a full table running, once; True for the caller that should start its game."""
        key = self.key("table", tid)
        if not all(self.table(tid)["seats"].values()):
            return False
        if not self.redis.hsetnx(key, "started", time.time()):
            return False
        self.redis.hset(key, "status", "running")
        return True

    def table_hands(self, tid: str) -> list[dict[str, Any]]:
        """A table's finished hands, each a hand record (``server.engine.record``) with its
        ``number``, ``public`` view and ``luck``; hands stored by an older version are read
        through ``server.arena.records``."""
        hands = [json.loads(h) for h in self.redis.lrange(self.key("table", tid, "hands"), 0, -1)]
        if all("result" in hand for hand in hands):
            return hands
        table = self.table(tid)
        return [current_table_hand(hand, table["ruleset"], table["options"]) for hand in hands]

    def append_table_hand(self, tid: str, number: int, record: dict[str, Any]) -> bool:
        return bool(self._append_hand(keys=[self.key("table", tid, "hands")], args=[number, json.dumps(record)]))

    def set_table_live(self, tid: str, view: dict[str, Any] | None) -> None:
        if view is None:
            self.redis.delete(self.key("table", tid, "live"))
        else:
            self.redis.set(self.key("table", tid, "live"), json.dumps(view))

    def table_live(self, tid: str) -> dict[str, Any] | None:
        raw = self.redis.get(self.key("table", tid, "live"))
        return None if raw is None else json.loads(raw)

    def finish_table(self, tid: str, winner: str | None, scores: dict[str, int]) -> None:
        """Finished at the game's final ``scores``: no longer live, for the arena and for
        every bot it counted for. (The final scores are stored because in the All Fours
        games the last hand stops counting at the item that reaches the target, so they
        may fall short of the last record's scores plus its change.)"""
        table = self.table(tid)
        pipe = self.redis.pipeline(transaction=True)
        pipe.hset(
            self.key("table", tid),
            mapping={
                "status": "finished",
                "finished": time.time(),
                "winner": winner or "",
                "scores": json.dumps(scores),
            },
        )
        pipe.srem(self.key("tables", "live"), tid)
        for bot in {table["creator"], *table["seats"].values()} - {None, ""}:
            pipe.srem(self.key("bot", bot, "tables"), tid)
        pipe.execute()

    # ------------------------------------------------------------------ reveal (secret deal sets)
    def board_done_everywhere(self, tid: str, board: int) -> bool:
        """Whether every match of tournament ``tid`` that plays board ``board`` has stored
        its pair (a blind movement with several references splits the boards between
        them; a match decided by its sequential test plays no board it has not stored):
        only then may anyone see its cards. One round trip; False for a board that no
        match plays."""
        if self._board_everywhere is None:
            self._board_everywhere = self.redis.register_script(_BOARD_EVERYWHERE)
        return bool(
            self._board_everywhere(
                keys=[self.key("tournament", tid, "matches")], args=[self.key("match", ""), str(board)]
            )
        )

    _board_everywhere = None


# KEYS[1] the tournament's match list; ARGV[1] the match key prefix ("{p}:match:"), ARGV[2] the board.
_BOARD_EVERYWHERE = """
local board, playing = tonumber(ARGV[2]), 0
for _, mid in ipairs(redis.call('LRANGE', KEYS[1], 0, -1)) do
  local match = redis.call('HMGET', ARGV[1] .. mid, 'spec', 'status')
  local spec = cjson.decode(match[1])
  if spec.first <= board and board <= spec.last then
    if redis.call('HEXISTS', ARGV[1] .. mid .. ':pairs', ARGV[2]) == 1 then
      playing = playing + 1
    elseif match[2] ~= 'complete' then     -- a complete (decided) match never plays it
      return 0
    end
  end
end
if playing > 0 then return 1 end
return 0
"""
