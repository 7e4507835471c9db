"""Fast: the table pages from Flask's test client. Tables are created over the API and
played in-process by the worker's own function (``play_table_with``); a game stopped in
the middle of hand 2 stands for one still running. The running page must draw exactly
the cards the API's public view holds, never one from a hand."""

import re

import pytest
from support.pagecheck import html

from server.engine import generate_board, replay
from server.web.app import create_app
from workers.table import play_table_with

ADMIN = "pages-admin"
SEATS = {"N": "rule", "E": "random", "S": "rule", "W": "random"}


class Stopped(BaseException):
    """Raised from inside the worker to leave a game running, as a crashed worker does (a
    BaseException, as the worker's own exits are: an Exception is an error in the game,
    which fails the table)."""


@pytest.fixture
def client(redis_url, store):
    app = create_app(
        {"REDIS_URL": redis_url, "CINCH_PREFIX": store.prefix, "CINCH_QUEUE": store.queue_name, "ADMIN_TOKEN": ADMIN}
    )
    return app.test_client()


def create(client, seats=SEATS, ruleset="foster51", options=None):
    r = client.post(
        "/api/v1/tables",
        json={"ruleset": ruleset, "options": options or {}, "seats": seats},
        headers={"Authorization": f"Bearer {ADMIN}"},
    )
    assert r.status_code == 201, r.get_data(as_text=True)
    return r.get_json()["id"]


def running(client, store, monkeypatch, tid):
    """Play ``tid`` until hand 2 has a trick with two cards played, and stop there."""
    publish = store.set_table_live

    def stop_in_hand_two(table, live):
        publish(table, live)
        if live and live["hand"] == 2 and any(len(t["plays"]) >= 2 for t in live["view"]["tricks"]):
            raise Stopped

    monkeypatch.setattr(store, "set_table_live", stop_in_hand_two)
    with pytest.raises(Stopped):
        play_table_with(store, tid)
    monkeypatch.undo()
    return client.get(f"/api/v1/tables/{tid}").get_json()


def public_cards(live_view):
    """Every card the spectator's view of the hand in progress names: played or shown."""
    played = [c for t in live_view["tricks"] for p in t["plays"] for c in [p["card"], *p["extras"]]]
    return played + [c for d in live_view["draws"] for c in d["shown"]]


def drawn(page):
    return re.findall(r'data-card="([^"]+)"', page)


def test_a_running_table_draws_only_the_public_cards_of_the_hand_in_progress(client, store, monkeypatch):
    tid = create(client)
    v = running(client, store, monkeypatch, tid)
    assert v["status"] == "running" and v["live"]["hand"] == 2 and v["hands_played"] == 1
    page = html(client.get(f"/tables/{tid}"))
    public = public_cards(v["live"]["view"])
    deck = generate_board(store.table(tid)["deal_seed"], 2).to_dict()["deck"]
    assert len(public) >= 2 and set(deck) - set(public)  # some cards are still hidden in hands
    assert sorted(drawn(page)) == sorted(public)  # each public card once, nothing else
    assert 'id="live" data-hand="2"' in page and 'class="trick current"' in page
    assert f'id="score-NS">{v["scores"]["NS"]}<' in page and f'id="score-EW">{v["scores"]["EW"]}<' in page
    assert '<tr data-hand="1">' in page and "/hands/" not in page  # replays once the game is over
    assert v["commitment"] in page and store.table(tid)["deal_seed"] not in page
    assert "revealed once the game is over" in page and 'id="result" hidden' in page


def test_a_finished_table_shows_the_winner_the_seed_and_links_to_every_hand(client, store):
    tid = create(client)
    play_table_with(store, tid)
    v = client.get(f"/api/v1/tables/{tid}").get_json()
    assert v["status"] == "finished" and v["winner"] in ("NS", "EW")
    page = html(client.get(f"/tables/{tid}"))
    side = {"NS": "N", "EW": "E"}[v["winner"]]
    partner = {"N": "S", "E": "W"}[side]
    assert f'id="winner">{v["winner"]} ({SEATS[side]}, {SEATS[partner]})<' in page
    links = re.findall(rf'href="(/tables/{tid}/hands/\d+)"', page)
    assert links == [f"/tables/{tid}/hands/{n}" for n in range(1, v["hands_played"] + 1)] and len(links) >= 2
    assert f'id="deal-seed">{v["deal_seed"]}<' in page and v["commitment"] in page
    assert f'id="score-{v["winner"]}">{v["scores"][v["winner"]]}<' in page
    assert drawn(page) == [] and 'id="live" data-hand="" hidden' in page
    for h in v["hands"]:
        after = {s: h["scores"][s] + h["delta"][s] for s in ("NS", "EW")}  # scores are before the hand
        assert f"<td>{after['NS']}&ndash;{after['EW']}</td>" in page


def test_the_list_of_tables_is_newest_first_with_scores_and_winners(client, store, monkeypatch):
    assert "No tables yet" in html(client.get("/tables"))
    assert 'href="/tables"' in html(client.get("/"))  # in the nav of every page
    finished, live = create(client), create(client)
    opened = create(client, {"N": "rule", "E": "random"})
    play_table_with(store, finished)
    running(client, store, monkeypatch, live)
    page = html(client.get("/tables"))
    assert re.findall(r'<tr data-id="(\w+)">', page) == [opened, live, finished]
    api = {t["id"]: t for t in client.get("/api/v1/tables").get_json()}
    for tid, status in ((opened, "open"), (live, "running"), (finished, "finished")):
        row = page.split(f'<tr data-id="{tid}">')[1].split("</tr>")[0]
        t = api[tid]
        assert t["status"] == status and f'class="status {status}"' in row
        assert f'href="/tables/{tid}"' in row and f"{t['scores']['NS']}&ndash;{t['scores']['EW']}" in row
        assert f'class="num hands">{t["hands_played"]}<' in row
        assert f'class="winner">{t["winner"] or ""}<' in row
    assert "open</span>" in page.split(f'<tr data-id="{opened}">')[1].split("</tr>")[0]
    assert drawn(page) == []


def test_an_open_table_shows_its_open_seats(client):
    tid = create(client, {"N": "rule", "E": "random"})
    page = html(client.get(f"/tables/{tid}"))
    assert 'class="status open"' in page and page.count('class="bot open">open seat<') == 2
    assert drawn(page) == [] and "No hand finished yet." in page


def test_unknown_table_is_an_html_404_and_the_assets_are_served(client):
    assert "no table" in html(client.get("/tables/nope"), 404)
    assert client.get("/api/v1/tables/nope").mimetype == "application/problem+json"
    tid = create(client)
    page = html(client.get(f"/tables/{tid}"))
    assert "/assets/table.js" in page and "/assets/table.css" in page
    css, js = client.get("/assets/table.css"), client.get("/assets/table.js")
    assert css.status_code == 200 and css.mimetype == "text/css" and js.status_code == 200


def test_a_three_player_seven_up_table_shows_its_seats_sides_and_hands(client, store):
    seats = {"P1": "rule", "P2": "random", "P3": "rule"}
    tid = create(client, seats, "seven_up", {"players": 3})
    play_table_with(store, tid)
    v = client.get(f"/api/v1/tables/{tid}").get_json()
    assert v["status"] == "finished" and v["winner"] in seats and set(v["scores"]) == set(seats)
    page = html(client.get(f"/tables/{tid}"))
    for seat in seats:
        assert f'data-side="{seat}"' in page and f'id="score-{seat}">{v["scores"][seat]}<' in page
        assert f'data-seat="{seat}"><b>{seat}</b>' in page
    assert f'id="winner">{v["winner"]} ({seats[v["winner"]]})<' in page
    last = v["hands"][-1]
    assert "&ndash;".join(str(last["delta"][s]) for s in seats) in page
    assert "NS" not in page.split('id="table"')[1].split("</section>")[0]
    listed = html(client.get("/tables")).split(f'<tr data-id="{tid}">')[1].split("</tr>")[0]
    assert "&ndash;".join(str(v["scores"][s]) for s in seats) in listed
    for n in range(1, v["hands_played"] + 1):
        hand = html(client.get(f"/tables/{tid}/hands/{n}"))
        record = client.get(f"/api/v1/tables/{tid}/record").get_json()["hands"][n - 1]
        assert "P1 rule, P2 random, P3 rule" in hand
        assert hand.count('class="trick"') == len(record["public"]["tricks"])
        assert all(f'<tr data-seat="{s}"><th scope="row">{s}</th>' in hand for s in seats)
    final = " &middot; ".join(f"{s} {v['scores'][s]}" for s in seats)
    assert f"<b>{final}</b>" in hand  # the last hand ends at the game's final score


def test_a_snoozer_table_deals_53_cards_and_its_hands_replay_and_draw_the_joker(client, store):
    seats = {"P1": "rule", "P2": "random", "P3": "rule", "P4": "random", "P5": "rule"}
    tid = create(client, seats, ruleset="snoozer", options={"players": 5})
    play_table_with(store, tid)
    v = client.get(f"/api/v1/tables/{tid}").get_json()
    assert v["status"] == "finished" and v["winner"] in seats and v["scores"][v["winner"]] >= 50
    record = client.get(f"/api/v1/tables/{tid}/record").get_json()
    assert len(record["hands"]) == v["hands_played"] >= 2
    for n, hand in enumerate(record["hands"], 1):
        assert replay(hand)["delta"] == hand["result"]["delta"]
        deck = hand["board"]["deck"]
        assert len(deck) == 53 and deck == generate_board(v["deal_seed"], n, tuple(seats), 53).to_dict()["deck"]
        # six cards to each of five seats: the joker is in play when it is among the first 30
        dealt = "JK" in deck[:30]
        assert dealt == any(a.get("card") == "JK" for a in hand["actions"])
        assert dealt == ('data-card="JK"' in html(client.get(f"/tables/{tid}/hands/{n}")))


def test_a_five_player_auction_cinch_table_shows_its_seats_and_every_hand(client, store):
    seats = {"P1": "rule", "P2": "random", "P3": "rule", "P4": "random", "P5": "rule"}
    tid = create(client, seats, "auction_cinch", {"players": 5, "target": 21})
    play_table_with(store, tid)
    v = client.get(f"/api/v1/tables/{tid}").get_json()
    assert v["status"] == "finished" and v["winner"] in seats and set(v["scores"]) == set(seats)
    page = html(client.get(f"/tables/{tid}"))
    assert all(f'data-side="{seat}"' in page for seat in seats)
    record = client.get(f"/api/v1/tables/{tid}/record").get_json()["hands"]
    for n in range(1, v["hands_played"] + 1):
        hand = html(client.get(f"/tables/{tid}/hands/{n}"))
        assert hand.count('class="trick"') == len(record[n - 1]["public"]["tricks"]) == 6
        assert any(a["type"] == "call" for a in record[n - 1]["actions"])
