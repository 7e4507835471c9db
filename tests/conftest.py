"""Shared fixtures: a real Redis for tests that need one.

``REDIS_URL`` when set (CI may point it at a service), otherwise an embedded Redis (a
real redis-server process, ``workers.embedded``) in a temporary home for the session.
Either way each test gets its own key prefix and queue name and deletes only the keys it
made, so no database it did not create is ever flushed.

Hypothesis runs under the profile ``HYPOTHESIS_PROFILE`` names, else ``ci`` when ``CI`` is
set, else ``dev``: at a desk half the examples, for a quick answer; in CI twice as many,
derandomized (a failure there is reproducible from the commit alone) and with no deadline
(a shared runner's pauses are not the code's slowness).
"""

import logging
import os
import signal
import uuid

import pytest
from hypothesis import settings
from redis import Redis
from support.backend import back_end

from server.arena.store import Store
from workers.embedded import EmbeddedRedis
from workers.jobs import queue_for

# The tests press Ctrl-C on the commands they start, as a user at a terminal does. A run
# started in the background by a non-interactive shell (`./dev test &` in a script) has
# SIGINT ignored, and children inherit an ignored SIGINT, so those commands would never
# see it. Restore the default handler for the session: children then start with it too.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

settings.register_profile("dev", max_examples=50)
settings.register_profile("ci", max_examples=200, derandomize=True, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev"))

# In-process apps' background listeners outlive their tests and say so when the session's
# Redis stops; pytest captures what they log during tests, this keeps the rest quiet.
logging.getLogger("cinch").addHandler(logging.NullHandler())


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory):
    url = os.environ.get("REDIS_URL")
    if url:
        yield url
        return
    with EmbeddedRedis(tmp_path_factory.mktemp("redis")) as url:
        yield url


def _delete_matching(redis: Redis, pattern: str) -> None:
    keys = list(redis.scan_iter(match=pattern, count=1000))
    for start in range(0, len(keys), 500):
        redis.delete(*keys[start : start + 500])


@pytest.fixture
def store(redis_url):
    """A Store under a fresh prefix; its keys and its queue's RQ keys are removed afterwards."""
    redis = Redis.from_url(redis_url)
    tag = f"test{uuid.uuid4().hex[:10]}"
    store = Store(redis, prefix=tag)
    store.queue_name = f"cinch-{tag}"
    yield store
    _delete_matching(redis, f"{tag}:*")
    _delete_matching(redis, f"rq:*{tag}*")
    redis.close()


@pytest.fixture
def queue(store):
    return queue_for(store, store.queue_name)


@pytest.fixture
def rq_workers(redis_url, store):
    with back_end(redis_url, store) as pool:
        yield pool
