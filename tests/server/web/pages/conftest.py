"""The page tests' own fixture; the real server fixtures are the web suite's (``tests/server/web/conftest.py``)."""

import pytest

from server.web.app import create_app


@pytest.fixture
def client(redis_url, store):
    """The app's test client on the test's store (no server: the fast page tests)."""
    app = create_app({"REDIS_URL": redis_url, "CINCH_PREFIX": store.prefix, "CINCH_QUEUE": store.queue_name})
    return app.test_client()
