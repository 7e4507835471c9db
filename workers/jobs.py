"""RQ jobs: thin functions over the match runner and the store.

Jobs take only JSON-able arguments (every queue and worker uses RQ's JSON serializer),
return nothing of value (results go through the store), and can be re-run from scratch:
a chunk skips the boards already stored and stores each board pair as soon as it is
played, so a killed job loses at most the pair in progress and its retry resumes.
"""

from __future__ import annotations

from rq import Queue, Retry, get_current_job
from rq.serializers import JSONSerializer

from server.engine import make_ruleset
from server.store import Store
from server.tournaments import after_match_progress, chunks
from server.remote import RemoteAgent
from workers.bots import BUILTIN, Agent, make_bot
from workers.match import play_board_pair

QUEUE = "cinch"
JOB_TIMEOUT = 1800      # seconds for one chunk; generous, a chunk of built-in bots takes well under one


def play_chunk(prefix: str, mid: str, first: int, last: int) -> int:
    """Play boards first..last of match ``mid`` that are not stored yet; returns how many."""
    store = Store(get_current_job().connection, prefix)
    return play_chunk_with(store, mid, first, last)


def play_chunk_with(store: Store, mid: str, first: int, last: int) -> int:
    match = store.match(mid)
    rules = make_ruleset(match["ruleset"], match["options"])
    x, y = (agent_for(store, match[side], match) for side in ("x", "y"))
    done = store.stored_boards(mid)
    played = 0
    for number in range(first, last + 1):
        if number in done:
            continue
        record = play_board_pair(rules, store.board(match["deals"], number), number, x, y, mid)
        store.record_pairs(match, [record])
        played += 1
    after_match_progress(store, match)
    return played


def agent_for(store: Store, name: str, match: dict) -> Agent:
    """A built-in bot by name, or the remote seat of a registered bot."""
    if name in BUILTIN:
        return make_bot(name, match["seed"])
    return RemoteAgent(store, name, match["id"], match.get("limits"))


def queue_for(store: Store, name: str = QUEUE) -> Queue:
    return Queue(name, connection=store.redis, serializer=JSONSerializer)


def enqueue_missing(store: Store, queue: Queue, tid: str, chunk: int, attempt: int = 0) -> int:
    """Enqueue a job for every range of boards not yet stored; returns the number of jobs.

    Job ids are deterministic per (tournament, match, range, attempt), so enqueueing the
    same attempt twice does not duplicate work, and a supervisor re-enqueues a lost
    range under a new attempt number.
    """
    jobs = 0
    for mid in store.match_ids(tid):
        match = store.match(mid)
        if match["status"] == "complete":
            continue
        for first, last in chunks(match, chunk, store.stored_boards(mid)):
            job_id = f"{store.prefix}_{mid}_{first}-{last}_a{attempt}".replace(".", "_")
            if queue.fetch_job(job_id) is not None:
                continue
            queue.enqueue(play_chunk, store.prefix, mid, first, last, job_id=job_id, retry=Retry(max=3),
                          job_timeout=JOB_TIMEOUT, result_ttl=600, failure_ttl=86400)
            jobs += 1
    return jobs
