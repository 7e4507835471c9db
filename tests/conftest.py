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

import pytest
from hypothesis import settings
from support.backend import back_end, fresh_store

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


@pytest.fixture
def store(redis_url):
    """A Store under a fresh prefix, removed afterwards (``support.backend.fresh_store``)."""
    with fresh_store(redis_url) as store:
        yield store


@pytest.fixture
def queue(store):
    return queue_for(store, store.queue_name)


@pytest.fixture
def rq_workers(redis_url, store):
    with back_end(redis_url, store) as pool:
        yield pool
