"""Security: tokens on every protected operation, no acting for another bot's seat, no leaks.

The leak scan plays a tournament with a remote bot and checks every decision the bot
received against the engine: the observation must be exactly what that seat may know,
and no spectator view shows a board pair before both rooms are finished.
"""

import re
import threading

import pytest
from support.apiclient import ADMIN, RemoteBot, wait_finished

from server.engine.cards import CARD_NAMES

pytestmark = pytest.mark.e2e

CARD = re.compile(r'"([2-9TJQKA][CDHS])"')
EXAMPLE_PARAMETERS = {"{board}": "1", "{decision_id}": "0123456789abcdef" * 2}


def operations(api):
    doc = api.call("GET", "/api/v1/openapi.json").json()
    for path, item in doc["paths"].items():
        for method, op in item.items():
            if not isinstance(op, dict):
                continue
            concrete = re.sub(r"\{[^}]+\}", lambda m: EXAMPLE_PARAMETERS.get(m.group(0), "x1"), path)
            yield method.upper(), concrete, bool(op.get("security"))


def test_every_protected_operation_refuses_a_missing_or_bad_token(api):
    protected = [(m, p) for m, p, secured in operations(api) if secured]
    assert len(protected) >= 6
    for method, path in protected:
        for token in (None, "not-a-token"):
            r = api.call(method, path, token, json={"type": "pass"} if method == "POST" else None)
            assert r.status_code == 401, (method, path, r.status_code, r.text)
            assert r.headers["Content-Type"] == "application/problem+json"
            assert r.headers.get("WWW-Authenticate") == "Bearer"


def test_public_operations_need_no_token_and_admin_ones_refuse_bots(api):
    for method, path, secured in operations(api):
        if not secured and method == "GET":
            assert api.call(method, path).status_code in (200, 204, 404), path
    token = api.register("mallory")
    assert api.call("POST", "/api/v1/tournaments", token, json={"bots": ["random", "rule"]}).status_code == 403
    assert api.call("POST", "/api/v1/bots/random/disable", token).status_code == 403
    assert api.call("POST", "/api/v1/bots/random/enable", token).status_code == 403
    for method, path in (
        ("GET", "/api/v1/decisions"),
        ("GET", "/api/v1/decisions/next?wait=0"),
        ("GET", "/api/v1/bots/me"),
        ("POST", "/api/v1/decisions/" + "0" * 32),
    ):
        r = api.call(method, path, ADMIN, json={"type": "pass"} if method == "POST" else None)
        assert r.status_code == 403 and "admin token plays no bot" in r.json()["detail"], (path, r.text)
    api.register("victim")
    assert api.call("POST", "/api/v1/bots/victim/token", token).status_code == 403


def test_no_bot_can_see_or_answer_another_bots_decisions(api, rq_workers, remote_bots):
    owner, intruder = api.register("owner"), api.register("intruder")
    created = api.call(
        "POST",
        "/api/v1/tournaments",
        ADMIN,
        json={"bots": ["owner", "random"], "boards": 1, "limits": {"decision_ms": 20000}},
    ).json()
    first = api.call("GET", "/api/v1/decisions/next", owner, params={"wait": 20}).json()
    assert api.call("GET", "/api/v1/decisions", intruder).json() == []
    assert api.call("GET", "/api/v1/decisions/next", intruder, params={"wait": 0}).status_code == 204
    action = first["legal"][0] if first["legal"][0]["type"] in ("pass", "bid") else None
    stolen = api.call("POST", f"/api/v1/decisions/{first['id']}", intruder, json=action or {"type": "pass"})
    assert stolen.status_code == 404  # not even its existence is confirmed
    bot = RemoteBot(api, owner, seed=2)
    remote_bots.append(bot)
    bot.start()
    wait_finished(api, created["id"])
    again = api.call("POST", f"/api/v1/decisions/{first['id']}", owner, json={"type": "pass"})
    assert again.status_code in (409, 410)  # never applied twice


def _cards(value):
    return set(CARD.findall(str(value).replace("'", '"')))


def test_decisions_reveal_only_what_the_seat_may_know(api, rq_workers, remote_bots):
    token = api.register("watcher")
    bot = RemoteBot(api, token, seed=3)
    remote_bots.append(bot)
    bot.start()
    tid = api.call("POST", "/api/v1/tournaments", ADMIN, json={"bots": ["watcher", "rule"], "boards": 3}).json()["id"]
    peeks = []

    def spectate():
        while not stop.is_set():
            for n in (1, 2, 3):
                r = api.call("GET", f"/api/v1/matches/{tid}.m1/boards/{n}")
                if r.status_code == 200:
                    peeks.append(r.json())

    stop = threading.Event()
    spy = threading.Thread(target=spectate, daemon=True)
    spy.start()
    wait_finished(api, tid)
    stop.set()
    spy.join(timeout=5)
    for pair in peeks:  # only ever whole, finished pairs
        assert len(pair["rooms"]) == 2 and all(len(r["actions"]) >= 30 for r in pair["rooms"])
    assert bot.seen
    for decision in bot.seen:
        obs = decision["observation"]
        me = obs["seat"]
        allowed = set(obs["hand"])
        for trick in obs["tricks"]:
            for play in trick["plays"]:
                allowed |= {play["card"], *play["extras"]}
        for draw in obs["draws"]:
            allowed |= set(draw["shown"])
            assert draw["cards"] is None or draw["seat"] == me
            allowed |= set(draw["cards"] or []) | set(draw.get("left_in_stock", []))
        if obs["phase"] == "rob":  # the robbing dealer searches the stock
            allowed |= set(decision["legal"][0]["from"])
        assert _cards(obs) <= allowed, (me, _cards(obs) - allowed)
        assert "deck" not in str(obs) and "seed" not in obs
        assert all(c in CARD_NAMES for c in _cards(obs))
