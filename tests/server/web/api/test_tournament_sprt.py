"""A tournament with ``sprt`` through the API: its settings are checked (422 naming the
field), and each match's test is served with the results, the matches and the page."""

import pytest
from support.apiclient import ADMIN, wait_finished

pytestmark = pytest.mark.e2e

ROUND_ROBIN = {"bots": ["rule", "random"], "boards": 200}


@pytest.mark.parametrize(
    "sprt, fragment",
    [
        ({"delta0": 5, "delta1": 5}, "delta1"),
        ({"alpha": 0.5}, "alpha"),
        ({"beta": 0}, "beta"),
        ({"delta0": "1"}, "delta0"),
        ({"delta1": 1e6}, "delta1"),
        ({"gamma": 1}, "gamma"),
    ],
)
def test_bad_settings_are_a_problem_naming_the_field(api, sprt, fragment):
    r = api.call("POST", "/api/v1/tournaments", ADMIN, json={**ROUND_ROBIN, "sprt": sprt})
    assert r.status_code == 422 and r.headers["Content-Type"] == "application/problem+json", r.text
    assert fragment in r.json()["errors"]["json"]["sprt"], r.text
    assert api.call("GET", "/api/v1/tournaments").json() == []


def test_the_blind_movement_refuses_it(api):
    r = api.call("POST", "/api/v1/tournaments", ADMIN, json={"format": "blind", "bots": ["random"], "sprt": {}})
    assert r.status_code == 422 and "sprt: the sequential test stops a two-room match" in r.json()["detail"]


def test_a_lopsided_match_is_decided_and_served_with_its_test(api, rq_workers):
    created = api.call("POST", "/api/v1/tournaments", ADMIN, json={**ROUND_ROBIN, "sprt": {"delta1": 10}})
    assert created.status_code == 201, created.text
    tid = created.json()["id"]
    wait_finished(api, tid)
    t = api.call("GET", f"/api/v1/tournaments/{tid}").json()
    assert t["sprt"] == {"delta0": 0.0, "delta1": 10.0, "alpha": 0.05, "beta": 0.05}
    assert t["status"] == "finished" and t["pairs_done"] < 100 < t["pairs_total"] == 200
    [match] = api.call("GET", f"/api/v1/tournaments/{tid}/results").json()["matches"]
    assert match["x"] == "rule" and match["status"] == "complete"
    test = match["sprt"]
    assert test["decision"] == "H1" and test["boards"] < 20 and test["llr"] >= test["upper"]
    assert test["ci_low"] < test["mean"] < test["ci_high"]
    assert match["stats"]["boards"] == t["pairs_done"], "the match counts the boards it played"
    [served] = api.call("GET", f"/api/v1/tournaments/{tid}/matches").json()
    assert served["sprt"] == test
    page = api.call("GET", f"/tournaments/{tid}").text
    assert "sequential test" in page and '<td class="text sprt-decision">H1</td>' in page
    anytime = f"[{test['anytime_low']:+.2f}, {test['anytime_high']:+.2f}]"
    assert test["anytime_low"] < test["mean"] < test["anytime_high"] and "[anytime 95%]" in page
    assert f'<td class="sprt-mean">{test["mean"]:+.2f} {anytime}</td>' in page, "the interval valid at the stop"
    match_page = api.call("GET", f"/matches/{match['id']}").text
    assert f"anytime 95% {anytime}" in " ".join(match_page.split()) and "H1 after" in match_page
    after = api.call("GET", f"/api/v1/matches/{match['id']}/boards/{t['pairs_done'] + 5}")
    assert after.status_code == 404, "a board the decided match never played is no pair of it"
