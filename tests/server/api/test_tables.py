"""Tables over the API: seats, a whole game with dealer rotation, public view, record."""

import time

from apiclient import ADMIN, RemoteBot

from server.engine import replay


def wait_table(api, tid, timeout=240):
    deadline = time.monotonic() + timeout
    views = []
    while time.monotonic() < deadline:
        v = api.call("GET", f"/api/v1/tables/{tid}").json()
        views.append(v)
        if v["status"] == "finished":
            return v, views
        time.sleep(0.1)
    raise AssertionError("table did not finish")


def test_game_to_51_with_a_remote_bot_joining(api, rq_workers, remote_bots):
    token = api.register("joiner")
    created = api.call("POST", "/api/v1/tables", ADMIN, json={
        "ruleset": "foster51", "seats": {"N": "rule", "E": "rule", "S": "rule"}})
    assert created.status_code == 201, created.text
    tid = created.json()["id"]
    assert api.call("GET", f"/api/v1/tables/{tid}").json()["status"] == "open"
    assert api.call("GET", f"/api/v1/tables/{tid}/record").status_code == 409
    joined = api.call("POST", f"/api/v1/tables/{tid}/join", token, json={"seat": "W"})
    assert joined.status_code == 200 and joined.json()["seats"]["W"] == "joiner"
    assert api.call("POST", f"/api/v1/tables/{tid}/join", token, json={}).status_code == 409
    bot = RemoteBot(api, token, seed=5)
    remote_bots.append(bot)
    bot.start()
    final, views = wait_table(api, tid)
    assert final["winner"] in ("NS", "EW") and max(final["scores"].values()) >= 51
    for v in views:                                   # spectators never see a hand or a stock
        live = v.get("live")
        if live:
            assert live["view"]["hand"] is None and live["view"]["legal"] is None
            assert all(d["cards"] is None for d in live["view"]["draws"])
        assert all("actions" not in h for h in v["hands"])
    record = api.call("GET", f"/api/v1/tables/{tid}/record").json()
    dealers = [h["board"]["dealer"] for h in record["hands"]]
    assert dealers == ["NESW"[i % 4] for i in range(len(dealers))] and len(dealers) >= 2
    for h in record["hands"]:
        assert replay({"ruleset": "foster51", "board": h["board"], "actions": h["actions"]})["delta"] == h["delta"]


def test_table_refuses_unknown_bots_and_needs_a_token(api):
    assert api.call("POST", "/api/v1/tables", json={"seats": {"N": "random"}}).status_code == 401
    r = api.call("POST", "/api/v1/tables", ADMIN, json={"seats": {"N": "ghost"}})
    assert r.status_code == 422 and "ghost" in r.text
    assert api.call("GET", "/api/v1/tables/g999").status_code == 404
