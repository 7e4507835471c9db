"""``GET /api/v1/tournaments`` by page and filter, and tournament names, through Flask's test
client (no server): a name checked and shown in the list, the tournament and its results;
the ``Link`` header walking the pages; each bad filter or page a 422 problem naming it."""

import pytest
from support.apiclient import ADMIN

PROBLEM = "application/problem+json"


@pytest.fixture
def client(api_client):
    return api_client


def create(client, **body):
    r = client.post(
        "/api/v1/tournaments",
        json={"bots": ["rule", "random"], "boards": 2, **body},
        headers={"Authorization": f"Bearer {ADMIN}"},
    )
    return r


def test_a_name_is_kept_shown_and_searched(client):
    r = create(client, name="Spring <Cup> 2026")
    assert r.status_code == 201, r.json
    tid = r.json["id"]
    create(client)  # no name
    assert client.get(f"/api/v1/tournaments/{tid}").json["name"] == "Spring <Cup> 2026"
    assert client.get(f"/api/v1/tournaments/{tid}/results").json["name"] == "Spring <Cup> 2026"
    found = client.get("/api/v1/tournaments?q=cup+spr").json
    assert [t["id"] for t in found] == [tid]
    page = client.get("/tournaments?q=spring").data.decode()
    assert "Spring &lt;Cup&gt; 2026" in page and "<Cup>" not in page


@pytest.mark.parametrize(
    ("name", "says"), [("", "1 to 80"), ("a" * 81, "1 to 80"), ("two\nlines", "printable"), (" x", "space"), (7, "")]
)
def test_a_bad_name_is_a_422_problem_naming_it(client, name, says):
    r = create(client, name=name)
    assert r.status_code == 422 and r.content_type == PROBLEM
    assert "name" in r.json["errors"]["json"] and says in str(r.json["errors"]["json"]["name"])


def test_the_link_header_walks_the_pages_both_ways(client, store):
    made = [create(client, ruleset="american62" if i % 2 else "foster51").json["id"] for i in range(5)]
    r = client.get("/api/v1/tournaments?limit=2")
    assert [t["id"] for t in r.json] == made[::-1][:2] and 'rel="prev"' not in r.headers["Link"]
    nxt = r.headers["Link"].split(";")[0].strip("<>")
    r2 = client.get(nxt)
    assert [t["id"] for t in r2.json] == made[::-1][2:4]
    prev = [part.split(";")[0].strip(" <>") for part in r2.headers["Link"].split(",") if 'rel="prev"' in part][0]
    assert [t["id"] for t in client.get(prev).json] == made[::-1][:2]
    foster = client.get("/api/v1/tournaments?ruleset=foster51&bot=rule&status=queued").json
    assert [t["id"] for t in foster] == [made[4], made[2], made[0]]
    assert all(t["leader"] is None for t in foster)  # nothing played yet
    assert "Link" not in client.get("/api/v1/tournaments?limit=100").headers


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("limit=0", "limit"),
        ("limit=101", "limit"),
        ("limit=ten", "limit"),
        ("ruleset=bridge", "ruleset"),
        ("format=swiss", "format"),
        ("status=won", "status"),
        ("before=x9", "before"),
        ("before=t2&after=t1", "after"),
        ("bot=a&bot=b&bot=c&bot=d&bot=e", "bot"),
        ("bot=%3Cscript%3E", "bot"),
        ("sort=name", "sort"),
    ],
)
def test_a_bad_filter_or_page_is_a_422_problem_naming_it(client, query, field):
    r = client.get(f"/api/v1/tournaments?{query}")
    assert r.status_code == 422 and r.content_type == PROBLEM, r.data
    assert field in r.json["errors"]["query"]
    page = client.get(f"/tournaments?{query}")
    assert page.status_code == 400 and field in page.data.decode()
