"""The OpenAPI document as a client generator reads it: every operation named for a
generated client (``answer_decision``, not ``post_api_v1_decisions_decision_id``)."""

import re

from server.api import create_app


def operations(redis_url, store):
    app = create_app({"REDIS_URL": redis_url, "CINCH_PREFIX": store.prefix, "CINCH_QUEUE": store.queue_name})
    spec = app.test_client().get("/api/v1/openapi.json").get_json()
    return [(method, path, op) for path, item in spec["paths"].items()
            for method, op in item.items() if isinstance(op, dict)]


def test_every_operation_has_a_unique_snake_case_operation_id(redis_url, store):
    ops = operations(redis_url, store)
    ids = [op.get("operationId") for _, _, op in ops]
    assert all(i and re.fullmatch(r"[a-z]+(_[a-z]+)*", i) for i in ids), ids
    assert len(set(ids)) == len(ids) >= 27
    named = {(m, p): op["operationId"] for m, p, op in ops}
    assert named[("post", "/api/v1/decisions/{decision_id}")] == "answer_decision"
    assert named[("get", "/api/v1/decisions/next")] == "next_decision"
    assert named[("post", "/api/v1/tournaments")] == "create_tournament"
