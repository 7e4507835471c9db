"""``GET /metrics`` in-process: the admin's only, labelled by route template, ids echoed."""

import re

from support.apiclient import ADMIN

from server.arena import registry
from server.web.app import create_app


def client(redis_url, store):
    return create_app(
        {"REDIS_URL": redis_url, "CINCH_PREFIX": store.prefix, "CINCH_QUEUE": store.queue_name, "ADMIN_TOKEN": ADMIN}
    ).test_client()


def test_metrics_are_the_admins_and_count_by_route_template(redis_url, store):
    app = client(redis_url, store)
    token = registry.register(store, "peeker")
    assert app.get("/metrics").status_code == 401
    assert app.get("/metrics", headers={"Authorization": f"Bearer {token}"}).status_code == 403
    assert app.get("/api/v1/bots/peeker").status_code == 200
    assert app.get("/no/such/path").status_code == 404
    shown = app.get("/metrics", headers={"Authorization": f"Bearer {ADMIN}"})
    assert shown.status_code == 200 and shown.mimetype == "text/plain"
    text = shown.get_data(as_text=True)
    assert re.search(r'cinch_http_responses_total\{method="GET",route="/api/v1/bots/<name>",status="2xx"\} \d', text)
    assert re.search(r'cinch_http_responses_total\{method="GET",route="unmatched",status="4xx"\} \d', text)
    assert "peeker" not in text and "/no/such/path" not in text and token not in text
    assert re.search(r"^cinch_redis_up 1\.0$", text, re.M) and "cinch_redis_keys" in text


def test_every_response_carries_a_request_id(redis_url, store):
    app = client(redis_url, store)
    kept = app.get("/api/v1/health", headers={"X-Request-Id": "lb-0123456789"})
    assert kept.headers["X-Request-Id"] == "lb-0123456789"
    made = app.get("/api/v1/health", headers={"X-Request-Id": "two words; <script>"}).headers["X-Request-Id"]
    assert re.fullmatch(r"[0-9a-f]{32}", made)
    assert app.get("/nowhere").headers["X-Request-Id"] != made
