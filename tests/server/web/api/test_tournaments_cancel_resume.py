"""Cancel and resume through the API, with the service's real workers and supervisor."""

import time

import pytest
from support.apiclient import ADMIN, wait_finished
from support.waiting import wait_for

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

REQUEST = {"bots": ["search", "rule"], "boards": 12, "chunk": 2, "deals": "standard"}


def test_cancel_then_resume_through_the_api(api, rq_workers, store):
    tid = api.call("POST", "/api/v1/tournaments", ADMIN, json=REQUEST).json()["id"]
    assert api.call("GET", f"/api/v1/tournaments/{tid}").json()["driver"] == "service"
    tournament = lambda: api.call("GET", f"/api/v1/tournaments/{tid}").json()
    wait_for(lambda: tournament()["pairs_done"] >= 2, "play to start", lambda: tournament()["pairs_done"], poll=0.1)
    assert api.call("POST", f"/api/v1/tournaments/{tid}/cancel").status_code == 401
    cancelled = api.call("POST", f"/api/v1/tournaments/{tid}/cancel", ADMIN)
    assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
    time.sleep(3)  # boards in progress end; nothing new starts
    frozen = api.call("GET", f"/api/v1/tournaments/{tid}").json()
    time.sleep(3)
    assert api.call("GET", f"/api/v1/tournaments/{tid}").json()["pairs_done"] == frozen["pairs_done"] < 12
    assert frozen["status"] == "cancelled"

    resumed = api.call("POST", f"/api/v1/tournaments/{tid}/resume", ADMIN)
    assert resumed.status_code == 200 and resumed.json()["status"] in ("queued", "running")
    busy = api.call("POST", f"/api/v1/tournaments/{tid}/resume", ADMIN)
    assert busy.status_code in (200, 409)  # 409 while the service drives it; 200 if it just ended
    finished = wait_finished(api, tid)
    assert finished["pairs_done"] == finished["pairs_total"] == 12
    again = api.call("POST", f"/api/v1/tournaments/{tid}/cancel", ADMIN)
    assert again.status_code == 409 and again.headers["Content-Type"] == "application/problem+json"
    assert api.call("POST", f"/api/v1/tournaments/{tid}/resume", ADMIN).status_code == 409
    assert api.call("POST", "/api/v1/tournaments/t999/resume", ADMIN).status_code == 404
    ratings = {r["bot"]: r for r in api.call("GET", "/api/v1/ratings/american62").json()["bots"]}
    assert ratings["search"]["matches"] == 1 and ratings["search"]["boards"] == 12
