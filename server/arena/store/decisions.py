"""Remote decisions: a worker asks, a bot's long-poll is woken, the bot answers, all on
Redis's clock. This module owns their keys:

    {p}:bot:{name}:pending        zset  open decision ids of the bot, by deadline
    {p}:bot:{name}:seen           string Redis time the bot last asked for or answered a decision
                                        (expires after a day unseen)
    {p}:bot:{name}:listeners      hash  wake channel suffix -> Redis time until which that API
                                        process counts as holding the bot's long-polls
                                        (``listen.lua``; the key lapses LISTEN_SECONDS after
                                        the last registration)
    {p}:wake:{suffix}             pub/sub channel of one API process: a bot's name per new
                                        decision for it, with the request as served
                                        (``server.web.waker``)
    {p}:decision:{id}             hash  bot, head (the request JSON but its deadline), legal, seat,
                                        deadline (the real one: the per-decision limit plus
                                        the bank left), shown (the limit only: what the bot
                                        sees), opened (Redis time), status; deleted once closed
    {p}:bot:{name}:closed:{minute} hash the id (16 bytes) -> status ("a" or "e") of each of
                                        the bot's decisions closed in that minute of Redis's
                                        clock, kept ``CLOSED_DECISION_SECONDS`` after it ends
    {p}:decision:{id}:answer      list  the accepted answer, for the waiting worker
    {p}:match:{mid}:bank          hash  bot -> time bank left (ms)
    {p}:match:{mid}:timeouts      hash  bot -> timeouts so far
    {p}:match:{mid}:faulty        set   bots recorded as faulty in the match

A closed decision keeps only what refusing a late answer needs, its bot and status, as
one field of its bot's hash for the minute (about 90 bytes, where a key of its own costs
about 180: ``close.lua``), for at least ``CLOSED_DECISION_SECONDS`` (``server.arena.settings``).
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Iterable
from typing import Any

from redis import Redis

from server.arena.settings import CLOSED_DECISION_SECONDS
from server.arena.store.base import StoreBase, decoded, lua

LISTEN_SECONDS = 60
"""How long a process's registration for a bot's wake-ups lasts past the read or answer that made it."""

_OPEN = lua("open.lua", LISTEN_TTL=LISTEN_SECONDS)
_OPEN_COUNT = lua("open_count.lua")
_ASK = lua("ask.lua", LISTEN_TTL=LISTEN_SECONDS)
_ANSWER = lua("answer.lua", CLOSED_TTL=CLOSED_DECISION_SECONDS, LISTEN_TTL=LISTEN_SECONDS)
_ANSWER_CONTEXT = lua("answer_context.lua", CLOSED_TTL=CLOSED_DECISION_SECONDS)
_EXPIRE = lua("expire.lua", CLOSED_TTL=CLOSED_DECISION_SECONDS)


class Decisions(StoreBase):
    def __init__(self, redis: Redis, prefix: str = "cinch"):
        super().__init__(redis, prefix)
        self._open = redis.register_script(_OPEN)
        self._open_count = redis.register_script(_OPEN_COUNT)
        self._ask = redis.register_script(_ASK)
        self._answer = redis.register_script(_ANSWER)
        self._answer_context = redis.register_script(_ANSWER_CONTEXT)
        self._expire = redis.register_script(_EXPIRE)

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
                self.key("bot", bot, "listeners"),
            ],
            args=[bot, initial_bank_ms, decision_ms, did, head, legal, observation["seat"], self.wake_channel("")],
        )
        if raw[0] == b"faulty":
            return None
        return did, float(raw[1]), float(raw[2])

    def wake_channel(self, listener: str) -> str:
        """The pub/sub channel of the API process registered as ``listener`` (``open_requests``,
        ``answer_decision``): for each decision of a bot it holds long-polls of, ``ask``
        publishes there the bot's name, the decision's id, its milliseconds left and the
        request up to them, a line each. One channel per process, so a process reads the
        wake-ups of its own long-polls only, not every decision of the arena."""
        return self.key("wake", listener)

    def open_requests(
        self, bot: str, limit: int = -1, skip: Iterable[str] = (), listener: str | None = None
    ) -> list[str]:
        """The bot's open decision requests as JSON, soonest deadline first, each with
        its shown ``deadline`` (opened + the per-decision limit, never the bank) and
        ``deadline_in_ms`` until it (0 once passed; a request stays open until its real
        deadline); ids in ``skip`` are left out. Notes the bot as seen, and registers
        ``listener`` (a process about to wait for more) for the bot's wake-ups."""
        return [
            r.decode()
            for r in self._open(
                keys=[self.key("bot", bot, "pending"), self.key("bot", bot, "seen"), self.key("bot", bot, "listeners")],
                args=[self.key("decision", ""), limit, listener or "", *skip],
            )
        ]

    def last_seen(self, bot: str) -> float | None:
        """When ``bot`` last asked for or answered a decision (Redis's clock, seconds), or
        None if not within a day: shows whether a remote bot being waited for is there."""
        return self.last_seen_of([bot])[bot]

    def last_seen_of(self, bots: Iterable[str]) -> dict[str, float | None]:
        """``last_seen`` of each of ``bots``, in one round trip (the leaderboard shows every one's)."""
        names = list(bots)
        if not names:
            return {}
        raw = self.redis.mget([self.key("bot", bot, "seen") for bot in names])
        return {bot: None if r is None else float(r) for bot, r in zip(names, raw)}

    def open_count(self, bot: str) -> int:
        """How many decisions ``bot`` has open now (past their deadline not counted)."""
        return int(self._open_count(keys=[self.key("bot", bot, "pending")]))

    def open_ages(self, bot: str) -> list[float]:
        """How long each of ``bot``'s open decisions has waited, in seconds, oldest first:
        what the operator's page shows of them (no id, no observation)."""
        now = self.now()
        ids = self.redis.zrangebyscore(self.key("bot", bot, "pending"), f"({now}", "+inf")
        pipe = self.redis.pipeline(transaction=False)
        for did in ids:
            pipe.hget(self.key("decision", decoded(did)), "opened")
        return sorted((max(now - float(o), 0.0) for o in pipe.execute() if o is not None), reverse=True)

    def answer_context(self, token_hash: str, did: str) -> tuple[str | None, dict[str, Any] | None]:
        """(the active bot holding the token, what judging its answer to ``did`` needs:
        the decision's bot, status, legal actions and seat), in one round trip."""
        raw = self._answer_context(
            keys=[self.key("token", token_hash), self.key("decision", did)],
            args=[self.key("bot", ""), did],
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
            "seat": seat.decode() if seat is not None else "",  # a closed decision keeps no seat
        }

    def answer_decision(
        self,
        token_hash: str,
        did: str,
        bot: str,
        action: dict[str, Any],
        limit: int = -1,
        skip: Iterable[str] = (),
        listener: str | None = None,
    ) -> tuple[str, list[str]]:
        """Accept ``bot``'s answer if the token is ``bot``'s. Returns 'ok' or why not
        ('unauthorized', 'missing', 'answered', 'expired'), and, when accepted, the bot's
        other open requests (as ``open_requests``, ``listener`` included)."""
        raw = self._answer(
            keys=[
                self.key("decision", did),
                self.key("decision", did, "answer"),
                self.key("bot", bot, "pending"),
                self.key("token", token_hash),
                self.key("bot", bot, "seen"),
                self.key("bot", bot, "listeners"),
            ],
            args=[
                bot,
                json.dumps(action),
                did,
                self.key("decision", ""),
                limit,
                self.key("bot", ""),
                listener or "",
                *skip,
            ],
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
                status = self._expire(
                    keys=[self.key("decision", did), self.key("bot", bot, "pending")],
                    args=[did, bot, self.key("bot", bot, "closed", "")],
                )
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
        return self._timeouts_read(self.redis.hgetall(self.key("match", mid, "timeouts")))

    @staticmethod
    def _timeouts_read(raw: dict[Any, Any]) -> dict[str, int]:
        return {decoded(k): int(v) for k, v in raw.items()}

    def remote_reads(self, mids: list[str]) -> dict[str, tuple[dict[str, int], set[str]]]:
        """Each match's timeouts per bot (``timeouts``) and faulty bots, in one round trip:
        what a page of many matches shows of their remote play."""
        pipe = self.redis.pipeline(transaction=False)
        for mid in mids:
            pipe.hgetall(self.key("match", mid, "timeouts"))
            pipe.smembers(self.key("match", mid, "faulty"))
        got = pipe.execute()
        return {
            mid: (self._timeouts_read(timeouts), {decoded(b) for b in faulty})
            for mid, timeouts, faulty in zip(mids, got[::2], got[1::2])
        }

    def mark_faulty(self, mid: str, bot: str) -> None:
        self.redis.sadd(self.key("match", mid, "faulty"), bot)

    def is_faulty(self, mid: str, bot: str) -> bool:
        return bool(self.redis.sismember(self.key("match", mid, "faulty"), bot))

    def match_remote_dump(self, mid: str) -> dict[str, Any]:
        """What the reads show of a match's remote play: its timeouts per bot and its
        faulty bots (an export's; the time banks only serve play)."""
        return {
            "timeouts": self.timeouts(mid),
            "faulty": sorted(decoded(b) for b in self.redis.smembers(self.key("match", mid, "faulty"))),
        }

    def restore_match_remote(self, pipe: Any, mid: str, timeouts: dict[str, int], faulty: Iterable[str]) -> None:
        """Queue on ``pipe`` the writes that store ``match_remote_dump``'s answer again."""
        if timeouts:
            pipe.hset(self.key("match", mid, "timeouts"), mapping=dict(timeouts))
        bots = list(faulty)
        if bots:
            pipe.sadd(self.key("match", mid, "faulty"), *bots)
