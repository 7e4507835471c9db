"""Bad input gets a 4xx problem that says what is wrong, and changes nothing."""

import pytest
from support.apiclient import ADMIN
from support.apiserver import start_api, stop_api
from support.backend import fresh_store

# One process runs the module (./dev test --dist loadgroup): its server is started once.
pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("bad_input")]

JSON = {"Content-Type": "application/json"}


def nested(depth):
    value = 1
    for _ in range(depth):
        value = {"a": value}
    return value


@pytest.fixture(scope="module")
def one_api(redis_url):
    """One server for every refused request: each case checks that it changed nothing, so
    they can share it (a server a case is 1-2 s of start-up, thirty times over)."""
    with fresh_store(redis_url) as store:
        api = start_api(redis_url, store)
        yield api
        stop_api(api)


def snapshot(api):
    return (api.call("GET", "/api/v1/bots").json(), api.call("GET", "/api/v1/tournaments").json())


@pytest.mark.parametrize(
    "method, path, kwargs, status, fragment",
    [
        ("POST", "/api/v1/bots", {"data": "{not json", "headers": {"Content-Type": "application/json"}}, 400, "JSON"),
        ("POST", "/api/v1/bots", {"json": {"name": 7}}, 422, "name"),
        ("POST", "/api/v1/bots", {"json": {"name": "ok-name", "admin": True}}, 422, "admin"),
        ("POST", "/api/v1/bots", {"json": {"name": "Bad Name"}}, 422, "name"),
        ("POST", "/api/v1/bots", {"json": {"name": "me"}}, 422, "reserved"),
        ("POST", "/api/v1/bots", {"json": {"name": "x" * 70000}}, 413, ""),
        ("POST", "/api/v1/tournaments", {"json": {"bots": ["random", "nobody"]}, "admin": True}, 422, "nobody"),
        (
            "POST",
            "/api/v1/tournaments",
            {"json": {"bots": ["random", "rule"], "boards": "ten"}, "admin": True},
            422,
            "boards",
        ),
        (
            "POST",
            "/api/v1/tournaments",
            {"json": {"bots": ["random", "rule"], "boards": 5000}, "admin": True},
            422,
            "boards",
        ),
        (
            "POST",
            "/api/v1/tournaments",
            {"json": {"bots": ["random", "rule"], "ruleset": "pedro99"}, "admin": True},
            422,
            "ruleset",
        ),
        (
            "POST",
            "/api/v1/tournaments",
            {"json": {"bots": ["random", "rule"], "limits": {"decision_ms": -1}}, "admin": True},
            422,
            "decision_ms",
        ),
        (
            "POST",
            "/api/v1/tournaments",
            {
                "json": {"ruleset": "widow_cinch", "bots": ["random", "rule", "search"], "rooms": "permute"},
                "admin": True,
            },
            422,
            "rooms=permute is for single seats",
        ),
        (
            "POST",
            "/api/v1/tables",
            {"json": {"ruleset": "widow_cinch", "options": {"players": 4}}, "admin": True},
            422,
            "played by (6,) players",
        ),
        ("GET", "/api/v1/tournaments/t999", {}, 404, "t999"),
        ("GET", "/api/v1/tournaments/t999/results", {}, 404, "t999"),
        ("GET", "/api/v1/matches/t999.m1/boards/1", {}, 404, "t999"),
        ("GET", "/api/v1/ratings/pedro99", {}, 404, "pedro99"),
        ("GET", "/api/v1/bots/nobody", {}, 404, "nobody"),
        # what Python's JSON parser takes but the arena cannot: a 400 naming it, not a 500
        ("POST", "/api/v1/bots", {"data": "[" * 20000 + "]" * 20000, "headers": JSON}, 400, "nested too deeply"),
        (
            "POST",
            "/api/v1/bots",
            {"data": '{"name": "deep", "description": ' + "[" * 40 + "]" * 40 + "}", "headers": JSON},
            400,
            "nested deeper than 32",
        ),
        (
            "POST",
            "/api/v1/bots",
            {"data": '{"name": "big", "description": ' + "9" * 5000 + "}", "headers": JSON},
            400,
            "2**53",
        ),
        (
            "POST",
            "/api/v1/bots",
            {"data": '{"name": "big", "description": 9007199254740993}', "headers": JSON},
            400,
            "2**53",
        ),
        ("POST", "/api/v1/bots", {"data": '{"name": "nan", "description": NaN}', "headers": JSON}, 400, "NaN"),
        (
            "POST",
            "/api/v1/bots",
            {"data": '{"name": "lone", "description": "x\\ud800"}', "headers": JSON},
            400,
            "body.description: the string holds a lone surrogate",
        ),
        (
            "POST",
            "/api/v1/bots",
            {"data": '{"name": "nul", "description": "x\\u0000"}', "headers": JSON},
            400,
            "body.description: the string holds a NUL",
        ),
        (
            "POST",
            "/api/v1/bots",
            {"data": '{"name": "key", "description": "", "\\ud800": 1}', "headers": JSON},
            400,
            "lone surrogate",
        ),
        ("POST", "/api/v1/tables", {"json": {"options": nested(40)}, "admin": True}, 400, "body.options.a.a"),
        (
            "POST",
            "/api/v1/tables",
            {"data": '{"seed": ' + "1" * 5000 + "}", "headers": JSON, "admin": True},
            400,
            "2**53",
        ),
        (
            "POST",
            "/api/v1/tournaments",
            {"json": {"bots": ["random", "rule"], "options": nested(900)}, "admin": True},
            400,
            "nested",
        ),
        (
            "POST",
            "/api/v1/tournaments",
            {"data": '{"bots": ["random", "rule\\u0000"]}', "headers": JSON, "admin": True},
            400,
            "body.bots[1]: the string holds a NUL",
        ),
        ("GET", "/api/v1/bots/no%00body", {}, 400, "path parameter name"),
        ("GET", "/api/v1/tournaments?x=%00", {}, 400, "query parameter x"),
    ],
)
def test_bad_input_is_a_problem_and_changes_nothing(one_api, method, path, kwargs, status, fragment):
    api = one_api
    before = snapshot(api)
    token = ADMIN if kwargs.pop("admin", False) else None
    r = api.call(method, path, token, **kwargs)
    assert r.status_code == status, r.text
    assert r.headers["Content-Type"] == "application/problem+json"
    body = r.json()
    assert body["status"] == status and fragment in r.text
    assert snapshot(api) == before


def test_bad_answers_to_a_real_decision(api, rq_workers):
    token = api.register("clumsy")
    api.call(
        "POST",
        "/api/v1/tournaments",
        ADMIN,
        json={"bots": ["clumsy", "random"], "boards": 1, "limits": {"decision_ms": 30000}},
    )
    decision = api.call("GET", "/api/v1/decisions/next", token, params={"wait": 20}).json()
    path = f"/api/v1/decisions/{decision['id']}"
    for bad, fragment in (
        ({"type": "fly"}, "type"),
        ({"type": "bid", "amount": "9"}, "amount"),
        ({"type": "play", "card": "ZZ"}, "card"),
        ({"type": "pass", "x": 1}, "x"),
        ({"type": "trump", "suit": "H"}, "not allowed now"),
    ):
        r = api.call("POST", path, token, json=bad)
        assert r.status_code == 422 and fragment in r.text, (bad, r.text)
    assert api.call("GET", "/api/v1/decisions", token).json()[0]["id"] == decision["id"]  # still open
    legal = decision["legal"][0]
    assert api.call("POST", path, token, json=legal).status_code == 200
    assert api.call("POST", "/api/v1/decisions/" + "0" * 32, token, json=legal).status_code == 404


def test_the_longest_skip_fits_the_servers_request_line(api):
    """64 decision ids in ``skip`` (the schema's limit) reach the API through gunicorn's
    request-line limit: the answer is the API's own JSON, never an HTML 414."""
    token = api.register("skipper")
    ids = [f"{n:032x}" for n in range(64)]
    r = api.call("POST", "/api/v1/decisions/" + "f" * 32, token, json={"type": "pass"}, params={"skip": ids})
    assert r.status_code == 404 and r.headers["Content-Type"] == "application/problem+json", r.text
    r = api.call(
        "POST", "/api/v1/decisions/" + "f" * 32, token, json={"type": "pass"}, params={"skip": ids + ["0" * 32]}
    )
    assert r.status_code == 422 and "skip" in r.text
    r = api.call("POST", "/api/v1/decisions/" + "f" * 32, token, json={"type": "pass"}, params={"skip": ["x" * 64]})
    assert r.status_code == 422 and "not a decision id" in r.text


def test_over_long_lines_and_headers_are_problems_from_the_app_not_the_servers_html(api):
    """gunicorn answers these itself with an HTML page unless its limits are lifted
    (``cinch serve`` lifts them); the app then answers each as problem+json, and every
    response carries the security headers."""
    import requests

    long_uri = requests.get(api.base + "/api/v1/bots/" + "x" * 5000, timeout=30)
    assert long_uri.status_code == 414 and long_uri.headers["Content-Type"] == "application/problem+json"
    assert "the limit is 4094" in long_uri.json()["detail"]
    long_header = requests.get(api.base + "/api/v1/bots", headers={"X-Long": "y" * 8100}, timeout=30)
    assert long_header.status_code == 431 and "X-Long header is over" in long_header.json()["detail"]
    many = requests.get(api.base + "/api/v1/bots", headers={f"X-{i}": "1" for i in range(120)}, timeout=30)
    assert many.status_code == 431 and many.headers["Content-Type"] == "application/problem+json"
    for path in ("/api/v1/bots", "/", "/api/v1/nowhere"):
        r = requests.get(api.base + path, timeout=30)
        assert r.headers["X-Content-Type-Options"] == "nosniff" and r.headers["X-Frame-Options"] == "DENY"
        assert r.headers["Referrer-Policy"] == "same-origin"
        assert "default-src 'self'" in r.headers["Content-Security-Policy"]
        assert "unsafe-inline" not in r.headers["Content-Security-Policy"], "our pages run no inline script"
