"""Fast: every page renders from Flask's test client (no server, no browser), needs no
token, and errors outside /api/ are HTML pages while the API keeps problem+json."""

from support.pagecheck import html

from server.arena.store import Store
from server.web.app import create_app
from workers.driver import start


def test_every_page_renders_without_a_token(client, store: Store, queue):
    tid = start(store, queue, {"bots": ["random", "rule"], "boards": 2, "chunk": 2}, "test")
    gauntlet = start(
        store,
        queue,
        {"format": "gauntlet", "candidates": ["random"], "references": ["rule", "search"], "boards": 2},
        "test",
    )
    blind = start(
        store, queue, {"format": "blind", "bots": ["random", "search"], "references": ["rule"], "boards": 2}, "test"
    )
    for other in (gauntlet, blind):
        text = html(client.get(f"/tournaments/{other}"))
        assert "random" in text and "rule" in text
    for path in (
        "/",
        "/leaderboard",
        "/leaderboard?ruleset=american62",
        "/leaderboard?ruleset=foster51",
        "/tournaments",
        f"/tournaments/{tid}",
    ):
        text = html(client.get(path))
        assert "Cinch arena" in text, path
    page = html(client.get(f"/tournaments/{tid}"))
    assert "random" in page and "rule" in page and 'id="progress"' in page
    assert tid in html(client.get("/tournaments"))
    css = client.get("/assets/pages.css")
    assert css.status_code == 200 and css.mimetype == "text/css"
    assert client.get("/assets/live.js").status_code == 200


def test_unknown_pages_are_html_404s_and_the_api_keeps_problems(client):
    assert "no tournament" in html(client.get("/tournaments/nope"), 404)
    assert "unknown ruleset" in html(client.get("/leaderboard?ruleset=bogus"), 404)
    html(client.get("/no/such/page"), 404)
    html(client.post("/tournaments"), 405)
    api = client.get("/api/v1/tournaments/nope")
    assert api.status_code == 404 and api.mimetype == "application/problem+json"
    assert client.get("/api/v1/nothing").mimetype == "application/problem+json"


def test_bad_path_strings_are_a_400_page(client):
    assert "NUL" in html(client.get("/tournaments/a%00b"), 400)


def test_redis_away_is_a_503_page_with_retry_after(store, tmp_path):
    app = create_app(
        {
            "REDIS_URL": f"unix://{tmp_path}/nowhere.sock?db=0",
            "CINCH_PREFIX": store.prefix,
            "CINCH_QUEUE": store.queue_name,
        }
    )
    client = app.test_client()
    for path in ("/", "/tournaments", "/tournaments/t1"):
        r = client.get(path)
        assert "database" in html(r, 503) and r.headers["Retry-After"], path
    api = client.get("/api/v1/tournaments")
    assert api.status_code == 503 and api.mimetype == "application/problem+json"


def test_cards_are_drawn_with_suit_symbols_in_red_and_black(client):
    from flask import render_template_string

    with client.application.test_request_context("/"):
        out = render_template_string(
            '{% from "_cards.html" import cards, suit %}{{ cards(["TH", "2C", "JK"]) }}{{ suit("D") }}'
        )
    assert 'data-card="TH"' in out and "10" in out and "\u2665" in out
    assert 'class="card red ' in out and 'class="card black ' in out and "\u2663" in out
    assert 'data-card="JK"' in out and 'data-suit="D"' in out


def test_every_registered_ruleset_has_a_leaderboard_page_and_a_rated_one_a_tab(client, store: Store):
    page = html(client.get("/leaderboard?ruleset=snoozer"))
    assert "Leaderboard snoozer" in page and 'aria-current="page">snoozer<' in page
    assert "ruleset=pedro" not in html(client.get("/leaderboard"))  # no ratings yet: no tab
    store.redis.hset(store.key("ratings", "pedro"), "rule", "{}")  # pedro has ratings now
    assert "ruleset=pedro" in html(client.get("/leaderboard"))
