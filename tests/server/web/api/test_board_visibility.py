"""No view shows a deal that any entrant of the tournament still has to play.

Three bots, one of them slow (a remote bot holding its decisions): the other matches
finish their boards long before, and yet no board pair of any match is readable, nor is
the secret seed, until the slow bot has played every board; then all of them are.
"""

import threading

import pytest
from support.apiclient import ADMIN, RemoteBot, wait_finished
from support.waiting import wait_for

pytestmark = pytest.mark.e2e


def views(api, tid):
    """(match id, board, status code) of every board-pair view of the tournament."""
    t = api.call("GET", f"/api/v1/tournaments/{tid}").json()
    out = []
    for m in api.call("GET", f"/api/v1/tournaments/{tid}/matches").json():
        for n in range(t["first"], t["first"] + t["boards"]):
            out.append((m["id"], n, api.call("GET", f"/api/v1/matches/{m['id']}/boards/{n}").status_code))
    return out


@pytest.mark.parametrize(
    "request_",
    [  # the fast match first: the two workers are not all held up
        {"format": "round_robin", "bots": ["random", "rule", "slowpoke"]},
        {"format": "blind", "bots": ["random", "slowpoke"], "references": ["rule"]},
    ],
    ids=["two-room", "blind"],
)
def test_no_board_is_shown_until_every_entrant_has_played_it(api, rq_workers, remote_bots, request_):
    token = api.register("slowpoke")
    assert api.call("POST", "/api/v1/bots/slowpoke/trust", ADMIN, json={"trusted": True}).status_code == 200
    gate = threading.Event()
    bot = RemoteBot(api, token, gate=gate)
    remote_bots.append(bot)
    bot.start()
    created = api.call(
        "POST",
        "/api/v1/tournaments",
        ADMIN,
        json={**request_, "boards": 2, "chunk": 2, "limits": {"decision_ms": 60_000}},
    )
    assert created.status_code == 201, created.text
    tid = created.json()["id"]
    assert created.json()["commitment"]["boards"] == 2

    def others_done():
        ms = api.call("GET", f"/api/v1/tournaments/{tid}/matches").json()
        return all(m["status"] == "complete" for m in ms if "slowpoke" not in (m["x"], m["y"])) and bot.seen

    pairs_done = lambda: api.call("GET", f"/api/v1/tournaments/{tid}").json()["pairs_done"]
    wait_for(others_done, "the matches without slowpoke to complete", pairs_done, poll=0.1)
    t = api.call("GET", f"/api/v1/tournaments/{tid}").json()
    assert t["pairs_done"] >= 2 and t["deals_seed"] is None
    blocked = views(api, tid)
    assert blocked and all(code == 404 for _, _, code in blocked), blocked

    gate.set()
    finished = wait_finished(api, tid)
    assert finished["deals_seed"] and all(code == 200 for _, _, code in views(api, tid))
    mid, n, _ = views(api, tid)[0]
    pair = api.call("GET", f"/api/v1/matches/{mid}/boards/{n}").json()
    assert ("side" in pair) == (request_["format"] == "blind") and pair.get("side", "NS") in ("NS", "EW")
