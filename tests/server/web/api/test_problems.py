"""Domain errors become problems in one place: the status and type their class names."""

import pytest

from server.errors import PROBLEM_TYPES, ArenaError, Conflict, InvalidRequest, NotFound
from server.web.app import create_app

ADMIN = "admin-token-for-problems"


@pytest.fixture
def client(redis_url, store):
    app = create_app(
        {"REDIS_URL": redis_url, "CINCH_PREFIX": store.prefix, "CINCH_QUEUE": store.queue_name, "ADMIN_TOKEN": ADMIN}
    )
    return app.test_client()


def problem_of(response, status, kind):
    assert response.status_code == status and response.content_type == "application/problem+json"
    body = response.get_json()
    assert body["status"] == status and body["type"] == PROBLEM_TYPES + kind
    return body["detail"]


def test_a_store_error_is_a_404_naming_what_is_missing(client):
    detail = problem_of(client.get("/api/v1/ratings/american62/nobody/history"), 404, "not-found")
    assert detail == "no bot 'nobody'"


def test_a_registry_error_is_a_409(client):
    assert client.post("/api/v1/bots", json={"name": "ann", "description": ""}).status_code == 201
    detail = problem_of(client.post("/api/v1/bots", json={"name": "ann", "description": ""}), 409, "conflict")
    assert "already exists" in detail


def test_a_spec_error_is_a_422_naming_the_field(client):
    r = client.post(
        "/api/v1/tournaments",
        json={"bots": ["random", "random"], "boards": 2},
        headers={"Authorization": f"Bearer {ADMIN}"},
    )
    assert "bots" in problem_of(r, 422, "invalid-request")


def test_the_engines_ruleset_error_is_a_422(client):
    r = client.post(
        "/api/v1/tables",
        json={"ruleset": "american62", "options": {"players": 99}},
        headers={"Authorization": f"Bearer {ADMIN}"},
    )
    assert "players" in problem_of(r, 422, "invalid-request")


def test_each_kind_keeps_the_builtin_class_callers_caught_before():
    assert issubclass(InvalidRequest, ValueError) and issubclass(Conflict, ValueError)
    assert issubclass(NotFound, KeyError) and str(NotFound("no bot 'x'")) == "no bot 'x'"
    assert all(issubclass(k, ArenaError) for k in (InvalidRequest, Conflict, NotFound))
