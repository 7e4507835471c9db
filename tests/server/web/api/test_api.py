"""The API over a real HTTP server: bots, remote seats in tournaments, time limits."""

import pytest
from support.apiclient import ADMIN, RemoteBot, wait_finished

from server.arena import anytime, dealsets, registry
from server.arena.tournaments import plan_matches, validate
from server.engine import replay

pytestmark = pytest.mark.e2e


def test_health_ready_and_openapi(api):
    assert api.call("GET", "/api/v1/health").json() == {"status": "ok"}
    assert api.call("GET", "/api/v1/ready").status_code == 200
    doc = api.call("GET", "/api/v1/openapi.json").json()
    assert doc["openapi"].startswith("3.") and "/api/v1/decisions/next" in doc["paths"]
    assert "bearer" in doc["components"]["securitySchemes"]
    assert api.call("GET", "/api/v1/docs").status_code == 200


def test_register_rotate_disable(api):
    token = api.register("alice")
    assert api.call("GET", "/api/v1/decisions", token).status_code == 200
    again = api.call("POST", "/api/v1/bots", json={"name": "alice"})
    assert again.status_code == 409 and again.headers["Content-Type"] == "application/problem+json"
    rotated = api.call("POST", "/api/v1/bots/alice/token", token).json()["token"]
    assert api.call("GET", "/api/v1/decisions", token).status_code == 401  # the old one is dead
    assert api.call("GET", "/api/v1/decisions", rotated).status_code == 200
    assert api.call("POST", "/api/v1/bots/alice/disable", rotated).status_code == 403
    assert api.call("POST", "/api/v1/bots/alice/disable", ADMIN).json()["status"] == "disabled"
    assert api.call("GET", "/api/v1/decisions", rotated).status_code == 401
    listed = {b["name"]: b for b in api.call("GET", "/api/v1/bots").json()}
    assert listed["alice"]["status"] == "disabled" and listed["random"]["kind"] == "builtin"
    assert "token" not in str(listed)
    assert api.call("POST", "/api/v1/bots/alice/enable", rotated).status_code == 401  # disabled: no token
    assert api.call("POST", "/api/v1/bots/alice/enable", ADMIN).json()["status"] == "active"
    assert api.call("GET", "/api/v1/decisions", rotated).status_code == 200  # the same token again
    assert api.call("POST", "/api/v1/bots/random/disable", ADMIN).json()["status"] == "disabled"
    refused = api.call("POST", "/api/v1/tournaments", ADMIN, json={"bots": ["random", "rule"], "boards": 1})
    assert refused.status_code == 422 and "random" in refused.json()["detail"]
    assert api.call("POST", "/api/v1/bots/random/enable", ADMIN).json()["status"] == "active"
    assert api.call("POST", "/api/v1/bots/nobody/enable", ADMIN).status_code == 404


def test_remote_bot_plays_a_tournament_and_records_replay(api, rq_workers, remote_bots, store):
    token = api.register("remote-one")
    bot = RemoteBot(api, token, seed=1, illegal_first=True)
    remote_bots.append(bot)
    bot.start()
    created = api.call(
        "POST", "/api/v1/tournaments", ADMIN, json={"bots": ["remote-one", "random"], "boards": 4, "chunk": 2}
    )
    assert created.status_code == 201, created.text
    tid = created.json()["id"]
    wait_finished(api, tid)
    assert not bot.errors
    assert bot.seen and set(bot.refused) == {422}
    for decision in bot.seen:
        assert set(decision) == {"id", "observation", "legal", "deadline", "deadline_in_ms"}
        assert not {"match", "board", "room", "tournament"} & set(decision["observation"])
    matches = api.call("GET", f"/api/v1/tournaments/{tid}/matches").json()
    assert matches[0]["status"] == "complete" and matches[0]["timeouts"] == {}
    pair = api.call("GET", f"/api/v1/matches/{matches[0]['id']}/boards/1").json()
    for room in pair["rooms"]:
        assert replay(room)["delta"] == room["result"]["delta"]
    results = api.call("GET", f"/api/v1/tournaments/{tid}/results").json()
    assert {row["bot"] for row in results["standings"]} == {"remote-one", "random"}
    board = api.call("GET", "/api/v1/ratings/american62").json()
    assert {row["bot"] for row in board["bots"]} >= {"remote-one", "random"}


def test_silent_bot_times_out_gets_default_actions_and_is_marked_faulty(api, rq_workers, remote_bots):
    token = api.register("sleepy")
    bot = RemoteBot(api, token, silent=True)
    remote_bots.append(bot)
    bot.start()
    created = api.call(
        "POST",
        "/api/v1/tournaments",
        ADMIN,
        json={
            "bots": ["sleepy", "rule"],
            "boards": 2,
            "chunk": 2,
            "limits": {"decision_ms": 100, "bank_ms": 0, "max_timeouts": 2},
        },
    )
    tid = created.json()["id"]
    wait_finished(api, tid)
    match = api.call("GET", f"/api/v1/tournaments/{tid}/matches").json()[0]
    assert match["timeouts"]["sleepy"] == 3 and match["faulty"] == ["sleepy"]
    assert match["stats"]["boards"] == 2
    late = api.call("POST", f"/api/v1/decisions/{bot.seen[0]['id']}", token, json={"type": "pass"})
    assert late.status_code in (409, 410)


def test_only_the_admin_marks_a_remote_bot_trusted_and_trust_opens_two_room_formats(api):
    token = api.register("vouched")
    assert api.call("GET", "/api/v1/bots/vouched").json()["trusted"] is False
    assert api.call("GET", "/api/v1/bots/rule").json()["trusted"] is True
    refused = api.call(
        "POST", "/api/v1/tournaments", ADMIN, json={"format": "round_robin", "bots": ["vouched", "rule"]}
    )
    assert refused.status_code == 422 and "vouched is not trusted" in refused.json()["detail"]
    assert api.call("POST", "/api/v1/bots/vouched/trust", token, json={"trusted": True}).status_code == 403
    assert api.call("POST", "/api/v1/bots/rule/trust", ADMIN, json={"trusted": False}).status_code == 409
    assert api.call("POST", "/api/v1/bots/ghost/trust", ADMIN, json={"trusted": True}).status_code == 404
    for loose in ("yes", 1, 0, None):
        assert api.call("POST", "/api/v1/bots/vouched/trust", ADMIN, json={"trusted": loose}).status_code == 422
    assert api.call("POST", "/api/v1/bots/vouched/trust", ADMIN, json={"trusted": True}).json()["trusted"] is True
    created = api.call("POST", "/api/v1/tournaments", ADMIN, json={"bots": ["vouched", "rule"], "boards": 1})
    assert created.status_code == 201, created.text
    shown = api.call("GET", f"/api/v1/tournaments/{created.json()['id']}").json()
    assert shown["format"] == "round_robin" and shown["deals"].startswith("secret-") and shown["practice"] is False
    public = api.call("POST", "/api/v1/tournaments", ADMIN, json={"bots": ["vouched", "rule"], "deals": "standard"})
    assert public.status_code == 422 and "practice" in public.json()["detail"]


def test_a_running_match_has_its_anytime_interval_beside_the_mean(api, store):
    """A match with 24 of its 30 boards finished everywhere (filled by hand) is served with
    its confidence sequence; one under ``anytime.MIN_BOARDS`` boards with none; and the
    OpenAPI document says which interval is which. (Every match of a tournament shows the
    boards finished in all of them, so the short match is a tournament of its own.)"""
    deals = dealsets.generate("anytime-api", 30)
    store.put_dealset(deals)

    def create(bots):
        spec = validate({"bots": bots, "boards": 30, "deals": deals.name}, registry.roster(store))
        tid = store.create_tournament(spec, plan_matches(spec), "test", 60_000)
        return tid, [store.match(mid) for mid in store.match_ids(tid)]

    tid, (long_run,) = create(["random", "rule"])
    short_tid, (short_run,) = create(["random", "search"])
    scores = [(n * 7) % 23 - 8 for n in range(1, 25)]
    store.record_pairs(long_run, [{"board": n, "score": s, "rooms": []} for n, s in enumerate(scores, 1)])
    store.record_pairs(short_run, [{"board": n, "score": 3, "rooms": []} for n in range(1, anytime.MIN_BOARDS)])
    served = {m["id"]: m for m in api.call("GET", f"/api/v1/tournaments/{tid}/matches").json()}
    served |= {m["id"]: m for m in api.call("GET", f"/api/v1/tournaments/{short_tid}/matches").json()}
    stats = served[long_run["id"]]["stats"]
    assert served[long_run["id"]]["status"] == "running" and stats["boards"] == 24
    assert (stats["anytime_low"], stats["anytime_high"]) == anytime.betting_interval(scores, 56.0, 5.6)
    assert stats["anytime_low"] < stats["ci_low"] < stats["mean"] < stats["ci_high"] < stats["anytime_high"]
    short = served[short_run["id"]]["stats"]
    assert short["boards"] == anytime.MIN_BOARDS - 1 and short["anytime_low"] is short["anytime_high"] is None
    doc = api.call("GET", "/api/v1/openapi.json").json()["components"]["schemas"]
    described = doc["LiveStats"]["properties"]["anytime_low"]["description"]
    assert described.startswith("anytime-valid 95% confidence sequence: valid however often it is looked at")
    assert "fixed in advance" in doc["Stats"]["properties"]["ci_low"]["description"]


@pytest.mark.parametrize(
    "entrant, how",
    [("my_bot.py:MyBot", "cinch bot run PATH.py:Class"), ("cmd:node bot.js", "cinch bot run --cmd COMMAND")],
)
def test_the_service_refuses_the_users_own_entrants_and_says_how_to_play_them(api, entrant, how):
    """The service's workers cannot run a program of the caller's machine: a 422 naming the
    way to play it here, for every entrant field."""
    for field, body in (
        ("bots", {"bots": [entrant, "rule"]}),
        ("candidates", {"format": "gauntlet", "candidates": [entrant], "references": ["rule"]}),
    ):
        refused = api.call("POST", "/api/v1/tournaments", ADMIN, json={**body, "boards": 1})
        assert refused.status_code == 422, refused.text
        detail = refused.json()["detail"]
        assert detail.startswith(f"{field}: {entrant!r} names a") and how in detail, detail
