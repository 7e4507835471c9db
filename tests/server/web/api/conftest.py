"""The API in process (Flask's test client) on the test's own prefix and queue, with the
admin token the tests use."""

import pytest
from support.apiclient import ADMIN

from server.web.app import create_app


@pytest.fixture
def api_client(redis_url, store):
    app = create_app(
        {
            "REDIS_URL": redis_url,
            "CINCH_PREFIX": store.prefix,
            "CINCH_QUEUE": store.queue_name,
            "CINCH_ADMIN_TOKEN": ADMIN,
        }
    )
    return app.test_client()
