"""The page tests reuse the API suite's real server: its conftest is loaded under its own
module name (two files named conftest.py cannot share one) and its fixtures re-exported;
its helper modules (apiclient, browser) are put on the path. The pages live in the same
app as the API, but their tests mirror ``server/pages`` here."""

import importlib.util
import sys
from pathlib import Path

import pytest

from server.api import create_app

API_TESTS = Path(__file__).resolve().parents[1] / "api"
if str(API_TESTS) not in sys.path:  # apiclient, browser (pagecheck is beside the tests)
    sys.path.insert(0, str(API_TESTS))

_spec = importlib.util.spec_from_file_location("api_suite_conftest", API_TESTS / "conftest.py")
_api_conftest = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_api_conftest)

api = _api_conftest.api


@pytest.fixture
def client(redis_url, store):
    """The app's test client on the test's store (no server: the fast page tests)."""
    app = create_app({"REDIS_URL": redis_url, "CINCH_PREFIX": store.prefix, "CINCH_QUEUE": store.queue_name})
    return app.test_client()
