"""The OpenAPI document as a client generator reads it: every operation named for a
generated client (``answer_decision``, not ``post_api_v1_decisions_decision_id``)."""

import re

import pytest

from server.web.app import create_app


def operations(redis_url, store):
    app = create_app({"REDIS_URL": redis_url, "CINCH_PREFIX": store.prefix, "CINCH_QUEUE": store.queue_name})
    spec = app.test_client().get("/api/v1/openapi.json").get_json()
    return [
        (method, path, op)
        for path, item in spec["paths"].items()
        for method, op in item.items()
        if isinstance(op, dict)
    ]


def test_every_operation_has_a_unique_snake_case_operation_id(redis_url, store):
    ops = operations(redis_url, store)
    ids = [op.get("operationId") for _, _, op in ops]
    assert all(i and re.fullmatch(r"[a-z]+(_[a-z]+)*", i) for i in ids), ids
    assert len(set(ids)) == len(ids) >= 27
    named = {(m, p): op["operationId"] for m, p, op in ops}
    assert named[("post", "/api/v1/decisions/{decision_id}")] == "answer_decision"
    assert named[("get", "/api/v1/decisions/next")] == "next_decision"
    assert named[("post", "/api/v1/tournaments")] == "create_tournament"


def test_every_error_response_of_every_operation_is_a_documented_problem(redis_url, store):
    app = create_app({"REDIS_URL": redis_url, "CINCH_PREFIX": store.prefix, "CINCH_QUEUE": store.queue_name})
    spec = app.test_client().get("/api/v1/openapi.json").get_json()
    shared = spec["components"]["responses"]
    for method, path, op in operations(redis_url, store):
        codes = set(op["responses"])
        for code, response in op["responses"].items():
            if code == "default" or code[0] in "45":
                response = shared[response["$ref"].rsplit("/", 1)[1]] if "$ref" in response else response
                schema = response["content"]["application/problem+json"]["schema"]
                assert schema == {"$ref": "#/components/schemas/Problem"}, (method, path, code)
        assert "400" in codes and ("503" in codes or path.endswith("/health")), (method, path)
        if op.get("security"):
            assert {"401", "403", "429"} <= codes, (method, path)
        if method == "post":
            assert {"413", "415"} <= codes, (method, path)
        if "{" in path:
            assert "404" in codes, (method, path)
    problem = spec["components"]["schemas"]["Problem"]
    assert set(problem["required"]) == {"type", "title", "status", "detail"}
    assert "where it was (json, query, path)" in problem["properties"]["errors"]["description"]


@pytest.mark.e2e
def test_the_suite_checks_every_response_against_the_document(api):
    """The API tests' client validates each response against the served document
    (``apiclient.Api.check``): a real response passes, the same one altered does not."""
    r = api.call("GET", "/api/v1/ratings/american62")
    assert r.status_code == 200 and api.violations == []
    r._content = b'{"ruleset": "whist", "bots": [{"bot": "x"}]}'
    api.check("GET", r)
    assert len(api.violations) == 1 and "whist" in api.violations[0]
    api.violations.clear()
