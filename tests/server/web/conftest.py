"""The web suite's fixtures (API and pages): a real API server (``support.apiserver``) on a
real Redis, with real RQ workers; every response checked against the OpenAPI document."""

import pytest
from support.apiserver import start_api, stop_api


@pytest.fixture
def api(redis_url, store):
    client = start_api(redis_url, store)
    yield client
    stop_api(client)


@pytest.fixture
def api_with(redis_url, store):
    """Start servers with their own environment (``api_with(CINCH_X="1")``); stopped after."""
    servers = []

    def start(**env):
        servers.append(start_api(redis_url, store, **env))
        return servers[-1]

    yield start
    for server in servers:
        stop_api(server)


@pytest.fixture
def remote_bots():
    bots = []
    yield bots
    for bot in bots:
        bot.stop.set()
    for bot in bots:
        bot.join(timeout=5)
