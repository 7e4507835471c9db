"""Tables over the API: seats, a whole game with dealer rotation, public view, record."""

import hashlib
import time

import pytest
from support.apiclient import ADMIN, RemoteBot
from support.schema_checks import check_record_replays
from support.waiting import Stall

from server.engine import Board, generate_board, make_ruleset, replay
from workers.luck import hand_luck

pytestmark = pytest.mark.e2e


def wait_table(api, tid):
    """The finished table and every view of it seen on the way; the test fails once no hand
    has been played (and the status not changed) for ``STALL`` seconds."""
    stalled = Stall(f"table {tid} to finish")
    views = []
    while (v := api.call("GET", f"/api/v1/tables/{tid}").json())["status"] != "finished":
        views.append(v)
        stalled((v["status"], v["hands_played"]))
        time.sleep(0.1)
    return v, [*views, v]


def test_game_to_51_with_a_remote_bot_joining(api, rq_workers, remote_bots, store):
    token = api.register("joiner")
    created = api.call(
        "POST", "/api/v1/tables", ADMIN, json={"ruleset": "foster51", "seats": {"N": "rule", "E": "rule", "S": "rule"}}
    )
    assert created.status_code == 201, created.text
    tid = created.json()["id"]
    opened = api.call("GET", f"/api/v1/tables/{tid}").json()
    assert opened["status"] == "open" and opened["deal_seed"] is None and len(opened["commitment"]) == 64
    assert api.call("GET", f"/api/v1/tables/{tid}/record").status_code == 409
    joined = api.call("POST", f"/api/v1/tables/{tid}/join", token, json={"seat": "W"})
    assert joined.status_code == 200 and joined.json()["seats"]["W"] == "joiner"
    assert api.call("POST", f"/api/v1/tables/{tid}/join", token, json={}).status_code == 409
    bot = RemoteBot(api, token, seed=5)
    remote_bots.append(bot)
    bot.start()
    final, views = wait_table(api, tid)
    assert final["winner"] in ("NS", "EW") and max(final["scores"].values()) >= 51
    assert not store.redis.smembers(store.key("tables", "live"))  # finished: no longer live
    assert not store.redis.smembers(store.key("bot", "joiner", "tables"))
    for v in views:  # spectators never see a hand or a stock
        live = v.get("live")
        if live:
            assert live["view"]["hand"] is None and live["view"]["legal"] is None
            assert all(d["cards"] is None for d in live["view"]["draws"])
        assert all("actions" not in h and "luck" not in h for h in v["hands"])  # luck tells of the stock
        assert v["commitment"] == opened["commitment"]
        assert v["deal_seed"] is None or v["status"] == "finished"  # the deal seed only once it is over
    seed = final["deal_seed"]
    assert len(seed) == 32 and hashlib.sha256(seed.encode()).hexdigest() == final["commitment"]
    record = api.call("GET", f"/api/v1/tables/{tid}/record").json()
    dealers = [h["board"]["dealer"] for h in record["hands"]]
    assert dealers == ["NESW"[i % 4] for i in range(len(dealers))] and len(dealers) >= 2
    for n, h in enumerate(record["hands"], 1):
        assert h["board"] == generate_board(seed, n).to_dict()  # dealt from the committed seed
        assert replay(h)["delta"] == h["result"]["delta"]  # a record is a replay input
        last = (
            record["hands"][n - 2] if n > 1 else {"scores": {"NS": 0, "EW": 0}, "result": {"delta": {"NS": 0, "EW": 0}}}
        )
        assert h["scores"] == {s: last["scores"][s] + last["result"]["delta"][s] for s in ("NS", "EW")}  # before it
        board = Board.from_dict(h["board"])  # the luck, recomputable from the record
        assert h["luck"] == hand_luck(make_ruleset("foster51"), board, h["actions"])


def test_table_refuses_unknown_bots_and_needs_a_token(api):
    assert api.call("POST", "/api/v1/tables", json={"seats": {"N": "random"}}).status_code == 401
    r = api.call("POST", "/api/v1/tables", ADMIN, json={"seats": {"N": "ghost"}})
    assert r.status_code == 422 and "ghost" in r.text
    assert api.call("GET", "/api/v1/tables/g999").status_code == 404


def test_a_table_body_is_optional_as_documented(api):
    spec = api.call("GET", "/api/v1/openapi.json").json()["paths"]["/api/v1/tables"]["post"]
    assert spec["requestBody"].get("required") is not True
    created = api.call("POST", "/api/v1/tables", ADMIN)
    assert created.status_code == 201, created.text
    table = api.call("GET", f"/api/v1/tables/{created.json()['id']}").json()
    assert table["ruleset"] == "american62" and table["status"] == "open"
    assert table["seats"] == {"N": None, "E": None, "S": None, "W": None}


def test_a_bot_token_seats_only_itself_and_built_in_bots(api):
    alice, bob = api.register("alice"), api.register("bob")
    refused = api.call("POST", "/api/v1/tables", alice, json={"seats": {"N": "alice", "E": "bob"}})
    assert refused.status_code == 403 and refused.headers["Content-Type"] == "application/problem+json"
    assert "seats.E" in refused.json()["detail"] and "'bob' joins with its own token" in refused.json()["detail"]
    assert alice not in refused.text
    assert api.call("GET", "/api/v1/tables").json() == []  # nothing changed
    created = api.call("POST", "/api/v1/tables", alice, json={"seats": {"N": "alice", "E": "rule", "S": "random"}})
    assert created.status_code == 201, created.text
    tid = created.json()["id"]
    assert api.call("GET", f"/api/v1/tables/{tid}").json()["seats"] == {
        "N": "alice",
        "E": "rule",
        "S": "random",
        "W": None,
    }
    assert api.call("POST", f"/api/v1/tables/{tid}/join", bob, json={"seat": "W"}).status_code == 200
    by_admin = api.call("POST", "/api/v1/tables", ADMIN, json={"seats": {"N": "alice", "E": "bob"}})
    assert by_admin.status_code == 201, by_admin.text


def test_table_time_limits_above_the_admin_caps_are_refused(api):
    token = api.register("hasty")
    for limits, name, cap in [
        ({"decision_ms": 10_001}, "decision_ms", 10_000),
        ({"bank_ms": 60_001}, "bank_ms", 60_000),
    ]:
        for who in (token, ADMIN):
            r = api.call("POST", "/api/v1/tables", who, json={"seats": {"N": "rule"}, "limits": limits})
            assert r.status_code == 422 and f"limits.{name}: at most {cap}" in r.json()["detail"], r.text
    assert api.call("GET", "/api/v1/tables").json() == []
    r = api.call(
        "POST",
        "/api/v1/tables",
        token,
        json={"seats": {"N": "hasty"}, "limits": {"decision_ms": 10_000, "bank_ms": 60_000}},
    )
    assert r.status_code == 201, r.text


def test_live_tables_are_bounded_per_bot_and_in_all(api_with):
    api = api_with(CINCH_TABLE_MAX_LIVE="4")
    busy, calm = api.register("busy"), api.register("calm")
    for _ in range(3):  # a bot's own tables count, seated or not
        assert api.call("POST", "/api/v1/tables", busy, json={"seats": {"N": "rule"}}).status_code == 201
    for who, seats in [(busy, {"N": "rule"}), (ADMIN, {"N": "busy"})]:
        r = api.call("POST", "/api/v1/tables", who, json={"seats": seats})
        assert r.status_code == 409 and "'busy' has 3 live tables" in r.json()["detail"], r.text
        assert "CINCH_TABLE_MAX_PER_BOT" in r.json()["detail"]
    tid = api.call("POST", "/api/v1/tables", calm, json={"seats": {"N": "calm"}}).json()["id"]
    joined = api.call("POST", f"/api/v1/tables/{tid}/join", busy, json={})
    assert joined.status_code == 409 and "'busy' has 3 live tables" in joined.json()["detail"]
    assert api.call("GET", f"/api/v1/tables/{tid}").json()["seats"] == {"N": "calm", "E": None, "S": None, "W": None}
    full = api.call("POST", "/api/v1/tables", calm, json={"seats": {"N": "calm"}})
    assert full.status_code == 409 and "the arena holds 4 live tables" in full.json()["detail"]
    assert len(api.call("GET", "/api/v1/tables").json()) == 4


def test_a_seat_map_not_of_the_rulesets_table_is_refused_naming_its_seats(api, store):
    token = api.register("seater")
    for body, seats in [
        ({"ruleset": "seven_up", "options": {"players": 3}, "seats": {"N": "rule"}}, "P1 P2 P3"),
        ({"ruleset": "pitch", "options": {"players": 2}, "seats": {"P1": "rule", "P3": "rule"}}, "P1 P2"),
        ({"ruleset": "american62", "seats": {"P1": "rule"}}, "N E S W"),
        ({"ruleset": "all_fives", "options": {"players": 4}, "seats": {"X": "seater"}}, "N E S W"),
    ]:
        for who in (token, ADMIN):
            r = api.call("POST", "/api/v1/tables", who, json=body)
            assert r.status_code == 422 and r.headers["Content-Type"] == "application/problem+json", r.text
            assert f"has the seats {seats}" in r.json()["detail"], r.text
    assert api.call("GET", "/api/v1/tables").json() == []  # nothing created
    assert store.redis.get(store.key("seq", "table")) is None and not store.redis.smembers(store.key("tables", "live"))
    created = api.call(
        "POST",
        "/api/v1/tables",
        token,
        json={"ruleset": "seven_up", "options": {"players": 3}, "seats": {"P3": "rule"}},
    )
    assert created.status_code == 201, created.text
    tid = created.json()["id"]
    table = api.call("GET", f"/api/v1/tables/{tid}").json()
    assert table["seats"] == {"P1": None, "P2": None, "P3": "rule"} and table["scores"] == {"P1": 0, "P2": 0, "P3": 0}
    wrong = api.call("POST", f"/api/v1/tables/{tid}/join", token, json={"seat": "N"})
    assert wrong.status_code == 422 and "has the seats P1 P2 P3" in wrong.json()["detail"], wrong.text
    assert api.call("POST", f"/api/v1/tables/{tid}/join", token, json={"seat": "P2"}).json()["seats"]["P2"] == "seater"


def test_a_blind_cinch_table_of_built_in_bots_plays_to_the_end(api, rq_workers):
    created = api.call(
        "POST",
        "/api/v1/tables",
        ADMIN,
        json={"ruleset": "blind_cinch", "seats": {"N": "rule", "E": "random", "S": "rule", "W": "random"}},
    )
    assert created.status_code == 201, created.text
    final, _ = wait_table(api, created.json()["id"])
    rules = make_ruleset("blind_cinch")
    assert final["winner"] in ("NS", "EW") and final["scores"][final["winner"]] >= rules.target
    record = check_record_replays(api, final, rules)
    assert [s["scores"] for s in final["hands"]] == [h["scores"] for h in record["hands"]]


def test_a_remote_bot_holds_seats_of_one_side_unless_self_play_or_practice(api):
    """One program at N and E sees both sides' hands, so anyone who joins plays against a
    bot that knows their cards: refused with a 422 naming it, on create and on join, unless
    the bot holds every seat (self-play) or the table is marked practice (shown to all)."""
    token, other = api.register("atta"), api.register("other")  # three live tables a bot at most
    refused = api.call("POST", "/api/v1/tables", token, json={"seats": {"N": "atta", "E": "atta"}})
    assert refused.status_code == 422 and "atta would hold seats of two opposing sides" in refused.json()["detail"]
    assert api.call("POST", "/api/v1/tables", token, json={"seats": {"N": "atta", "S": "atta"}}).status_code == 201
    alone = api.call("POST", "/api/v1/tables", token, json={"seats": dict.fromkeys("NESW", "atta")})
    assert alone.status_code == 201, "self-play hides nothing from anyone"
    practice = api.call("POST", "/api/v1/tables", token, json={"seats": {"N": "atta", "E": "atta"}, "practice": True})
    assert practice.status_code == 201
    assert api.call("GET", f"/api/v1/tables/{practice.json()['id']}").json()["practice"] is True
    seven = api.call(
        "POST",
        "/api/v1/tables",
        other,
        json={"ruleset": "seven_up", "options": {"players": 3}, "seats": {"P1": "other"}},
    )
    tid = seven.json()["id"]
    assert api.call("GET", f"/api/v1/tables/{tid}").json()["practice"] is False
    again = api.call("POST", f"/api/v1/tables/{tid}/join", other, json={"seat": "P2"})
    assert again.status_code == 422 and "two opposing sides" in again.json()["detail"], "each seat is a side"
    assert api.call("POST", f"/api/v1/tables/{tid}/join", other, json={}).status_code == 422
    assert api.call("GET", f"/api/v1/tables/{tid}").json()["seats"] == {"P1": "other", "P2": None, "P3": None}
    partnered = api.call("POST", "/api/v1/tables", ADMIN, json={"seats": {"N": "other"}}).json()["id"]
    joined = api.call("POST", f"/api/v1/tables/{partnered}/join", other, json={})
    assert joined.status_code == 200 and joined.json()["seats"]["S"] == "other", "the first open seat of its side"
