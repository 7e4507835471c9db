"""Fixtures for the SDK suite: a real API server (restartable), real RQ workers, bot processes."""

import pytest
from support.sdkharness import ADMIN, ApiServer, BotProcess

import sdk


@pytest.fixture
def server(redis_url, store, tmp_path):
    api = ApiServer(redis_url, store.prefix, store.queue_name, tmp_path).start()
    yield api
    api.stop()


@pytest.fixture
def admin(server):
    with sdk.Client(server.url, admin_token=ADMIN, timeout=10) as client:
        yield client


@pytest.fixture
def bot_processes():
    procs: list[BotProcess] = []
    yield procs
    for proc in procs:
        proc.kill()
