"""Where the CLI's arena lives: ``REDIS_URL`` if set, otherwise the embedded Redis.

One context manager gives a subcommand its store, its queue and (when it runs them) its
local workers, and cleans up afterwards, whether the command ends, fails or is
interrupted (Ctrl-C, or SIGTERM, which ``server.cli`` turns into the same
KeyboardInterrupt): local workers are stopped, then this command stops using the
embedded Redis, which stops it only if no other command on the same ``$CINCH_HOME`` still
uses it (``workers.embedded``). The clean-up itself is not cut short by a second signal.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import NamedTuple

from redis import Redis
from redis.exceptions import AuthenticationError
from redis.exceptions import ConnectionError as RedisConnectionError
from rq import Queue

from server.arena.store import Store
from server.cli.errors import UsageError
from server.config import Config, masked
from workers.embedded import EmbeddedRedis
from workers.jobs import queue_for
from workers.local import LocalWorkers, live_workers, signals_deferred


class Arena(NamedTuple):
    store: Store
    queue: Queue
    workers: LocalWorkers | None
    url: str


def worker_count(local_workers: int | None, remote: bool) -> int:
    """How many local workers to run; ``None`` means the default for the mode (2 embedded, 0 remote)."""
    if local_workers is None:
        return 0 if remote else 2
    if local_workers < 0:
        raise UsageError(f"--workers must be 0 or more, not {local_workers}")
    if local_workers == 0 and not remote:
        raise UsageError(
            "--workers 0 needs REDIS_URL: without it the arena's Redis is embedded in this "
            "machine's commands, no worker elsewhere can reach it, and nothing would play"
        )
    return local_workers


def redis_problem(url: str, exc: RedisConnectionError) -> str:
    """Why a Redis could not be reached, for people: the error, and what to change where
    waiting will not mend it (``remedy``). The password is never shown."""
    remedy = redis_remedy(exc)
    return f"cannot reach Redis at REDIS_URL={masked(url)}: {exc}" + (f"; {remedy}" if remedy else "")


def redis_remedy(exc: RedisConnectionError) -> str | None:
    """What to change for a failure that waiting will not mend: a TLS server whose
    certificate this machine cannot verify, or a refused password
    (docs/operations.md#across-machines); None for a Redis that is only not up yet."""
    text = str(exc)
    if "certificate verify failed" in text.lower():
        return "give the CA that signed its certificate as rediss://...?ssl_ca_certs=/path/to/ca.crt"
    if isinstance(exc, AuthenticationError) or "WRONGPASS" in text or "NOAUTH" in text:
        return "check the password in REDIS_URL (redis://:PASSWORD@host:port/0)"
    return None


@contextmanager
def arena(
    config: Config,
    local_workers: int | None,
    plays: bool = True,
    worker_env: dict[str, str] | None = None,
    worker_logging: str = "WARNING",
) -> Iterator[Arena]:
    """The store and queue of the configured arena (its Redis, prefix and queue), with
    ``local_workers`` local workers (None: the default; ``worker_env`` their environment,
    else this process's; ``worker_logging`` the level they log from). A command that only
    reads or changes records (``plays`` False) runs no workers."""
    url, prefix, queue = config.redis_url, config.prefix, config.queue
    count = worker_count(local_workers, remote=bool(url)) if plays else 0
    stack = ExitStack()
    try:
        if url:
            redis = stack.enter_context(Redis.from_url(url))
            try:
                redis.ping()
            except RedisConnectionError as exc:
                raise UsageError(redis_problem(url, exc)) from None
        else:
            try:
                url = stack.enter_context(EmbeddedRedis(config.home))
            except RuntimeError as exc:
                raise UsageError(str(exc)) from None
            redis = stack.enter_context(Redis.from_url(url))
        store = Store(redis, prefix)
        q = queue_for(store, queue)
        workers = (
            stack.enter_context(LocalWorkers(url, queue, count, env=worker_env, logging_level=worker_logging))
            if count
            else None
        )
        if plays and workers is None and not live_workers(q):
            print(
                f"no worker is attached to {masked(url)} yet: start some with `REDIS_URL={masked(url)} cinch worker`",
                file=sys.stderr,
            )
        yield Arena(store, q, workers, url)
    finally:
        with signals_deferred():
            stack.close()
