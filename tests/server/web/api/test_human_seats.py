"""Human seats over the API (the Flask test client, no server): the seat in the request
schema, the private link it returns, and its token's scope: that seat's decisions and
which seat it holds, nothing else, and nothing once the game is over."""

import pytest
from support.apiclient import ADMIN

from server.arena import registry


@pytest.fixture
def client(api_client):
    return api_client


def auth(token):
    return {"Authorization": f"Bearer {token}"}


def create(client, seats, **body):
    return client.post("/api/v1/tables", json={"seats": seats, **body}, headers=auth(ADMIN))


@pytest.mark.parametrize(
    ("holder", "says"),
    [
        ({"human": ""}, "human"),
        ({"human": "a" * 33}, "human"),
        ({"human": "<b>x</b>"}, "human"),
        ({"name": "ann"}, "name"),
        ({"human": "ann", "decision_ms": 9_999}, "decision_ms"),
        ({"human": "ann", "decision_ms": 600_001}, "decision_ms"),
        ({"human": "ann", "decision_ms": "60000"}, "decision_ms"),
        ({"human": "ann", "bank_ms": 1000}, "bank_ms"),
        (7, "human"),
        ([], "human"),
    ],
)
def test_a_bad_human_seat_is_a_problem_naming_it(client, holder, says):
    r = create(client, {"N": "random", "S": holder})
    assert r.status_code == 422 and r.mimetype == "application/problem+json", r.get_data(as_text=True)
    assert says in r.get_data(as_text=True) and "S" in r.get_data(as_text=True)


def test_a_human_seat_at_a_seat_the_table_has_not_is_refused(client):
    r = create(client, {"P7": {"human": "ann"}})
    assert r.status_code == 422 and "P7" in r.get_json()["detail"]


def test_the_seat_link_is_a_capability_for_that_seat_only(client, store):
    bot_token = registry.register(store, "mybot")
    r = create(client, {"N": "random", "E": "mybot", "S": {"human": "Ann Lee", "decision_ms": 30_000}, "W": "random"})
    assert r.status_code == 201, r.get_data(as_text=True)
    tid, links = r.get_json()["id"], r.get_json()["seat_links"]
    assert list(links) == ["S"] and links["S"].startswith(f"/tables/{tid}/seat#cinch_")
    token = links["S"].split("#", 1)[1]
    other = create(client, {"N": {"human": "Bo"}}).get_json()  # another table's human seat
    other_token = other["seat_links"]["N"].split("#", 1)[1]

    view = client.get(f"/api/v1/tables/{tid}").get_json()
    assert view["humans"] == {"S": {"human": "Ann Lee", "decision_ms": 30_000}}
    principal = view["seats"]["S"]
    assert principal.startswith("human.") and token not in str(view)
    seat = client.get(f"/api/v1/tables/{tid}/seat", headers=auth(token))
    assert seat.status_code == 200
    assert seat.get_json() == {"table": tid, "seat": "S", "name": "Ann Lee", "decision_ms": 30_000}
    for wrong in (other_token, bot_token, ADMIN):  # another table's seat, a bot, the admin
        assert client.get(f"/api/v1/tables/{tid}/seat", headers=auth(wrong)).status_code == 403
    assert client.get(f"/api/v1/tables/{tid}/seat").status_code == 401
    assert client.get(f"/api/v1/tables/{tid}/seat", headers=auth("cinch_nothing")).status_code == 401

    # the seat's decisions, and only its own: a decision asked of the bot is not the seat's
    obs = {"seat": "S", "legal": [{"type": "pass"}], "hand": ["AS"]}
    store.ask(principal, tid, obs, 30_000, 0)
    store.ask("mybot", tid, {**obs, "seat": "E"}, 30_000, 0)
    open_now = client.get("/api/v1/decisions", headers=auth(token)).get_json()
    assert [d["observation"]["seat"] for d in open_now] == ["S"]
    bot_open = client.get("/api/v1/decisions", headers=auth(bot_token)).get_json()
    assert [d["observation"]["seat"] for d in bot_open] == ["E"]
    assert (
        client.post(f"/api/v1/decisions/{bot_open[0]['id']}", json={"type": "pass"}, headers=auth(token)).status_code
        == 404
    )
    assert (
        client.post(
            f"/api/v1/decisions/{open_now[0]['id']}", json={"type": "bid", "amount": 7}, headers=auth(token)
        ).status_code
        == 422
    )
    assert (
        client.post(f"/api/v1/decisions/{open_now[0]['id']}", json={"type": "pass"}, headers=auth(token)).status_code
        == 200
    )

    # nothing else: no bot endpoint, no table made or joined, no admin's
    assert client.get("/api/v1/bots/me", headers=auth(token)).status_code == 403
    assert client.post("/api/v1/tables", json={}, headers=auth(token)).status_code == 403
    assert client.post(f"/api/v1/tables/{other['id']}/join", json={}, headers=auth(token)).status_code == 403
    assert client.post("/api/v1/bots/mybot/token", headers=auth(token)).status_code == 403
    assert client.get(f"/api/v1/bots/{principal}").status_code == 404  # its principal is no bot
    assert principal not in [b["name"] for b in client.get("/api/v1/bots").get_json()]

    store.finish_table(tid, "NS", {"NS": 62, "EW": 0})  # the game over, the token is gone
    assert client.get(f"/api/v1/tables/{tid}/seat", headers=auth(token)).status_code == 401
    assert client.get("/api/v1/decisions", headers=auth(token)).status_code == 401
    assert not store.redis.exists(store.key("bot", principal))
