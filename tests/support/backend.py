"""The service's back end for tests, as real processes."""

import contextlib
from collections.abc import Iterator

from server.arena.store import Store
from workers.local import LocalWorkers, ProcessGroup
from workers.supervisor import supervisor_command


@contextlib.contextmanager
def back_end(redis_url: str, store: Store) -> Iterator[LocalWorkers]:
    """Two ``rq worker`` processes on the test's own queue, and the supervisor that drives
    tournaments created through the API. A test that must see work waiting before anyone
    plays it starts this itself rather than taking the ``rq_workers`` fixture."""
    with LocalWorkers(redis_url, store.queue_name, 2) as pool, ProcessGroup() as service:
        service.spawn("supervisor", supervisor_command(redis_url, store.prefix, store.queue_name))
        yield pool
