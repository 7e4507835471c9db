"""Where the CLI's arena lives: ``REDIS_URL`` if set, otherwise an embedded Redis.

One context manager gives a subcommand its store, its queue and (when it runs them)
its local workers, and cleans up afterwards: local workers are stopped and an embedded
Redis is shut down, with its data kept in ``$CINCH_HOME``.
"""

from __future__ import annotations

import os
import sys
from contextlib import contextmanager
from typing import Iterator, NamedTuple

from redis import Redis
from redis.exceptions import ConnectionError as RedisConnectionError

from server.store import Store
from workers.jobs import QUEUE, queue_for
from workers.local import LocalWorkers, embedded_redis, live_workers, stop_embedded, url_of

from .errors import UsageError


class Arena(NamedTuple):
    store: Store
    queue: object
    workers: LocalWorkers | None
    url: str


@contextmanager
def arena(local_workers: int | None, prefix: str = "cinch", queue: str = QUEUE) -> Iterator[Arena]:
    """The store and queue to use; ``local_workers`` None means the default for the mode."""
    url = os.environ.get("REDIS_URL")
    embedded = None
    if url:
        redis = Redis.from_url(url)
        try:
            redis.ping()
        except RedisConnectionError as exc:
            raise UsageError(f"cannot reach Redis at REDIS_URL={url}: {exc}") from None
        count = local_workers or 0
    else:
        embedded = redis = embedded_redis()
        url = url_of(redis)
        count = 2 if local_workers is None else local_workers
    store = Store(redis, prefix)
    q = queue_for(store, queue)
    workers = LocalWorkers(url, queue, count).start() if count else None
    if workers is None and not live_workers(q):
        print(f"no worker is attached to {url} yet: start some with `REDIS_URL={url} cinch worker`",
              file=sys.stderr)
    try:
        yield Arena(store, q, workers, url)
    finally:
        if workers:
            workers.stop()
        if embedded is not None:
            stop_embedded(embedded)
