"""Rate limits and registration policy over a real server: failed authentications,
registrations and empty long-polls are limited (429 problem with Retry-After), a
well-behaved bot is never limited, and closed or invite-only registration says why."""

import time

import pytest
from support.apiclient import ADMIN, wait_finished

import sdk
from examples.random_bot import RandomBot
from sdk.client import Client

pytestmark = pytest.mark.e2e


def assert_too_many(response, says):
    assert response.status_code == 429, response.text
    assert response.headers["Content-Type"] == "application/problem+json"
    assert says in response.json()["detail"]
    assert 1 <= int(response.headers["Retry-After"]) <= 3600


class WatchedClient(Client):
    """An SDK client that notes every error it waited out before retrying."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.waited_out = []

    def delay(self, attempt, error=None):
        self.waited_out.append(getattr(error, "status", None))
        return super().delay(attempt, error)


@pytest.mark.slow
def test_failed_authentications_become_429_past_the_limit_and_a_good_bot_plays_on(api_with, rq_workers):
    api = api_with(CINCH_LIMIT_FAILED_AUTH="30/minute")
    token = api.register("steady")
    client = WatchedClient(api.base, token=token)
    runner = sdk.Runner(RandomBot(seed=3), client, wait=5).start()  # the SDK's runner, as bots run
    try:
        created = api.call(
            "POST", "/api/v1/tournaments", ADMIN, json={"bots": ["steady", "random"], "boards": 4, "chunk": 2}
        )
        assert created.status_code == 201, created.text
        wrong = "not-a-token-0123456789"
        answers = [api.call("GET", "/api/v1/decisions/next", wrong, params={"wait": 0}) for _ in range(200)]
        assert [r.status_code for r in answers] == [401] * 30 + [429] * 170  # not one 429 before the limit
        for r in answers[30:]:
            assert_too_many(r, "too many failed authentications from this address")
            assert wrong not in r.text
        assert api.call("GET", "/api/v1/bots/me", token).status_code == 200  # good tokens are not refused
        wait_finished(api, created.json()["id"])
    finally:
        runner.stop()
        runner.join(timeout=10)
    assert runner.stats["answered"] == runner.stats["decisions"] > 20 and runner.stats["missed"] == 0
    assert 429 not in client.waited_out, client.waited_out  # the bot at play was never slowed


def test_a_registration_flood_is_cut_short(api_with):
    api = api_with(CINCH_LIMIT_REGISTRATIONS="5/hour")
    codes = [api.call("POST", "/api/v1/bots", json={"name": f"flood{i}"}).status_code for i in range(8)]
    assert codes == [201] * 5 + [429] * 3
    refused = api.call("POST", "/api/v1/bots", json={"name": "flood9"})
    assert_too_many(refused, "too many registrations from this address")
    assert api.call("GET", "/api/v1/bots/flood9").status_code == 404  # nothing changed
    admin = api.call("POST", "/api/v1/bots", ADMIN, json={"name": "by-the-admin"})
    assert admin.status_code == 201, "the admin is never rate-limited by other clients at its address"


def test_closed_registration_says_how_to_register(api_with):
    api = api_with(CINCH_REGISTRATION="closed")
    refused = api.call("POST", "/api/v1/bots", json={"name": "outsider"})
    assert refused.status_code == 403 and "closed" in refused.json()["detail"]
    assert "admin token" in refused.json()["detail"]
    assert api.call("GET", "/api/v1/bots/outsider").status_code == 404
    assert api.call("POST", "/api/v1/bots", ADMIN, json={"name": "insider"}).status_code == 201


def test_registration_by_invitation(api_with):
    api = api_with(CINCH_REGISTRATION="invite", CINCH_INVITE_CODE="pedro-2026")
    without = api.call("POST", "/api/v1/bots", json={"name": "guest"})
    assert without.status_code == 403 and '"invite"' in without.json()["detail"]
    wrong = api.call("POST", "/api/v1/bots", json={"name": "guest", "invite": "smudge"})
    assert wrong.status_code == 403 and "not valid" in wrong.json()["detail"] and "smudge" not in wrong.text
    assert api.call("GET", "/api/v1/bots/guest").status_code == 404
    client = Client(f"http://127.0.0.1:{api.port}")
    assert client.register_bot("guest", invite="pedro-2026").name == "guest"


@pytest.mark.slow
def test_empty_long_polls_are_limited_per_token_and_the_sdk_waits_them_out(api_with):
    api = api_with(CINCH_LIMIT_EMPTY_POLLS="3/2second")
    token, other = api.register("busy"), api.register("calm")
    codes = [api.call("GET", "/api/v1/decisions/next", token, params={"wait": 0}).status_code for _ in range(5)]
    assert codes[:3] == [204] * 3 and 429 in codes[3:]
    assert_too_many(
        api.call("GET", "/api/v1/decisions/next", token, params={"wait": 0}),
        "too many long-polls that found nothing for this token",
    )
    assert api.call("GET", "/api/v1/decisions/next", other, params={"wait": 0}).status_code == 204  # per token
    client = Client(f"http://127.0.0.1:{api.port}", token=token)
    start = time.monotonic()
    assert [client.next_decision(wait=0) for _ in range(6)] == [None] * 6  # 429s waited out, no error
    assert time.monotonic() - start >= 1
