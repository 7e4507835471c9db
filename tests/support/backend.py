"""The service's back end for tests, as real processes."""

import contextlib
import uuid
from collections.abc import Iterator

from redis import Redis

from server.arena.store import Store
from workers.local import LocalWorkers, ProcessGroup
from workers.supervisor import supervisor_command


def _delete_matching(redis: Redis, pattern: str) -> None:
    keys = list(redis.scan_iter(match=pattern, count=1000))
    for start in range(0, len(keys), 500):
        redis.delete(*keys[start : start + 500])


@contextlib.contextmanager
def fresh_store(redis_url: str) -> Iterator[Store]:
    """A Store under a fresh prefix with a queue name of its own; its keys and its queue's RQ
    keys are removed afterwards, so no database the test did not create is ever flushed."""
    redis = Redis.from_url(redis_url)
    tag = f"test{uuid.uuid4().hex[:10]}"
    store = Store(redis, prefix=tag)
    store.queue_name = f"cinch-{tag}"
    try:
        yield store
    finally:
        _delete_matching(redis, f"{tag}:*")
        _delete_matching(redis, f"rq:*{tag}*")
        redis.close()


@contextlib.contextmanager
def back_end(redis_url: str, store: Store, workers: int = 2) -> Iterator[LocalWorkers]:
    """``workers`` ``rq worker`` processes on the test's own queue, and the supervisor that
    drives tournaments created through the API. A test that must see work waiting before
    anyone plays it starts this itself rather than taking the ``rq_workers`` fixture."""
    with LocalWorkers(redis_url, store.queue_name, workers) as pool, ProcessGroup() as service:
        service.spawn("supervisor", supervisor_command(redis_url, store.prefix, store.queue_name))
        yield pool
