"""What the operator's page (``server.web.pages.ops``) shows of the runtime: RQ's queues and
registries, the workers, the failed jobs, and the one action it takes, a re-queue.

Read from RQ's own keys with RQ's own classes, so the page shows what the supervisor and
``rq info`` see. A failed job shows its function, its match and boards, its tournament and
its error's **type and last line only**: RQ keeps the whole traceback (``Result.exc_string``),
whose frames and messages may quote anything a job held, and even the last line may name
a card (an engine refusal) or hold a URL with a password. So the line is scrubbed: bearer
tokens, bot tokens (``cinch_...``), URL passwords and every card name (``AS``, ``TD``,
``JK``) are replaced by ``***`` before it leaves this module.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

from redis import Redis
from rq import Queue, Worker
from rq.exceptions import InvalidJobOperation, NoSuchJobError
from rq.job import Job
from rq.registry import (
    DeferredJobRegistry,
    FailedJobRegistry,
    FinishedJobRegistry,
    ScheduledJobRegistry,
    StartedJobRegistry,
)
from rq.serializers import JSONSerializer

from server import logs
from server.arena.store import Store

FAILED_SHOWN = 50  # failed jobs listed per queue, newest first
REGISTRIES = {
    "started": StartedJobRegistry,
    "finished": FinishedJobRegistry,
    "failed": FailedJobRegistry,
    "deferred": DeferredJobRegistry,
    "scheduled": ScheduledJobRegistry,
}

_CARD = re.compile(r"\b(?:[2-9TJQKA][CDHS]|JK)\b")
_BOT_TOKEN = re.compile(r"cinch_[A-Za-z0-9_-]{16,}")


def scrubbed(line: str) -> str:
    """An error line as the page may show it: no token, no password, no card (see above)."""
    return _CARD.sub("***", _BOT_TOKEN.sub("***", logs.scrub(line)))[:300]


def error_of(job: Job) -> tuple[str, str]:
    """A failed job's exception type and the rest of its last line, scrubbed."""
    result = job.latest_result()
    text = (result.exc_string if result is not None else None) or ""
    lines = [line for line in text.strip().splitlines() if line.strip()]
    if not lines:
        return "", "no error recorded"
    kind, sep, message = lines[-1].partition(":")
    if not sep or " " in kind.strip():  # not "Type: message"
        return "", scrubbed(lines[-1])
    return kind.strip().rsplit(".", 1)[-1], scrubbed(message.strip())


def _queues(redis: Redis) -> list[Queue]:
    return sorted(Queue.all(connection=redis, serializer=JSONSerializer), key=lambda q: q.name)


def queues(redis: Redis) -> list[dict[str, Any]]:
    """Every RQ queue on this Redis: its length and the size of each registry."""
    out = []
    for queue in _queues(redis):
        row: dict[str, Any] = {"name": queue.name, "queued": queue.count}
        for name, registry in REGISTRIES.items():
            row[name] = registry(queue=queue).count
        out.append(row)
    return out


def workers(redis: Redis) -> list[dict[str, Any]]:
    """Every worker registered now (an arena worker is listed only while it beats:
    ``workers.worker``), with its state, current job and last heartbeat."""
    out = []
    for worker in sorted(Worker.all(connection=redis, serializer=JSONSerializer), key=lambda w: w.name):
        state = worker.get_state()
        out.append(
            {
                "name": worker.name,
                "state": str(getattr(state, "value", state)),  # "busy", not "WorkerStatus.BUSY"
                "queues": [q.name for q in worker.queues],
                "job": worker.get_current_job_id(),
                "heartbeat": _stamp(worker.last_heartbeat),
                "born": _stamp(worker.birth_date),
            }
        )
    return out


def _stamp(when: datetime | None) -> float | None:
    if when is None:
        return None
    return (when if when.tzinfo else when.replace(tzinfo=UTC)).timestamp()


def failed_jobs(redis: Redis) -> list[dict[str, Any]]:
    """The failed jobs of every queue (newest first, ``FAILED_SHOWN`` a queue): what ran and
    its scrubbed error."""
    out = []
    for queue in _queues(redis):
        registry = FailedJobRegistry(queue=queue)
        ids = registry.get_job_ids(0, -1)[-FAILED_SHOWN:][::-1]  # by expiry, so oldest first
        for job in Job.fetch_many(ids, connection=redis, serializer=JSONSerializer):
            if job is None:
                continue
            kind, message = error_of(job)
            out.append(
                {**_what(job), "queue": queue.name, "ended": _stamp(job.ended_at), "error_type": kind, "error": message}
            )
    return out


def _what(job: Job) -> dict[str, Any]:
    """A job's id, function and, for a board job (``workers.jobs.play_chunk``), its match,
    boards and tournament."""
    what: dict[str, Any] = {"id": job.id, "function": (job.func_name or "").rsplit(".", 1)[-1]}
    if job.func_name and job.func_name.endswith("play_chunk") and len(job.args) == 4:
        _, mid, first, last = job.args
        what.update(match=mid, boards=f"{first}-{last}", tournament=job.meta.get("tournament"))
    return what


def requeue(store: Store, job_id: str) -> str:
    """Put a failed job back on its queue: 'requeued', or 'not failed' when it is not in
    its failed registry (re-queued already, or expired). Idempotent: RQ's requeue takes the
    job out of the registry with one ZREM and only the caller whose ZREM removed it
    enqueues, so a job re-queued twice (two clicks, two operators) runs once. A board job
    of this arena is recorded with its tournament again, which cancels it with the
    tournament; its boards are claimed before they are played, so none is played twice."""
    try:
        job = Job.fetch(job_id, connection=store.redis, serializer=JSONSerializer)
    except NoSuchJobError:
        return "not failed"
    try:
        FailedJobRegistry(job.origin, connection=store.redis, serializer=JSONSerializer).requeue(job)
    except InvalidJobOperation:
        return "not failed"
    what = _what(job)
    if what.get("tournament") and job.args[0] == store.prefix:
        store.add_jobs(what["tournament"], [job.id])
    return "requeued"


def redis_memory(redis: Redis) -> dict[str, Any]:
    """Redis's memory and key count (``INFO memory``, ``DBSIZE``)."""
    info = redis.info("memory")
    return {
        "used": info.get("used_memory_human"),
        "peak": info.get("used_memory_peak_human"),
        "maxmemory": info.get("maxmemory_human") if info.get("maxmemory") else "no limit",
        "policy": info.get("maxmemory_policy"),
        "key_count": redis.dbsize(),
    }
