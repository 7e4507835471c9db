"""A burst: as many long-polls as one process takes (CINCH_LONG_POLLS, 1,000) arriving
within a second, as when every bot reconnects after an API restart, are all held on a
real gunicorn process and a real Redis, and /ready answers 200 throughout, promptly. The client is
``support.burst``, the one ``benchmarks/burst.py`` runs."""

import pytest
from support.apiserver import start_api, stop_api
from support.burst import allow_connections, burst

from server.arena import registry
from server.config import Config

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

CAPACITY = Config.from_env({}).long_polls  # the default, as documented


def test_the_documented_capacity_arriving_at_once_is_all_held(redis_url, store):
    allow_connections(CAPACITY + 500)  # before the server starts: it inherits the limit
    api = start_api(redis_url, store, processes=1)
    try:
        tokens = [registry.register(store, f"burst{i}") for i in range(CAPACITY // 2)]
        result = burst(api.port, tokens, CAPACITY, 6)
    finally:
        stop_api(api)
    assert result.sent_within < 1, result.summary()
    assert (result.held, result.refused, result.other) == (CAPACITY, 0, 0), (result.summary(), result.refusals)
    assert not result.ready_failures, result.summary()
    # Under 1 s in benchmarks/burst.py even with both cores busy elsewhere (843 ms,
    # docs/rest-protocol.md); here another test process may share the cores, so 1.5 s.
    assert result.ready_max() < 1.5, result.summary()
