"""The match and bot pages, the leaderboard's trends and the rating history API, from
Flask's test client over a store filled by hand: board pairs with known scores and
faults, some boards finished everywhere and one not, so what is hidden is known."""

import re
from html import unescape

import pytest
from support.pagecheck import html

from server.arena import anytime, dealsets, registry
from server.arena.ratings import record
from server.arena.store import Store
from server.arena.tournaments import after_match_progress, plan_matches, rate_match, validate

DEALS = dealsets.generate("match-pages", 6)
SCORES = {1: 6, 2: -2, 3: 10, 4: 4}


def html_text(page: str) -> str:
    """A page's text as read: its tags dropped, its entities decoded."""
    return unescape(re.sub(r"<[^>]+>", "", page))


def room(*faults):
    return {
        "result": {"delta": {"NS": 0, "EW": 0}},
        "faults": [{"seat": s, "index": i, "error": e} for s, i, e in faults],
    }


def two_room(board, score, first=(), second=()):
    return {"board": board, "score": score, "rooms": [room(*first), room(*second)]}


def tournament(store, request):
    spec = validate({**request, "deals": DEALS.name, "practice": True}, registry.roster(store))
    store.put_dealset(DEALS)
    tid = store.create_tournament(spec, plan_matches(spec), "test", 60_000)
    return tid, [store.match(mid) for mid in store.match_ids(tid)]


@pytest.fixture
def arena(client, store: Store):
    """A round robin of random, rule and remo (a trusted remote bot) on 4 boards: boards 1-3
    finished in every match, board 4 only in the first match (so hidden everywhere). In the
    first match (random v rule) random faults on board 2 (room 1, at N) and on the hidden
    board 4, rule on board 3 (room 2, at N); remo has two timeouts in its match with rule.
    The first match is rated (``rate_match``) although the tournament is not finished."""
    token = registry.register(store, "remo", "a remote bot")
    store.set_bot_fields("remo", trusted=True)
    tid, matches = tournament(store, {"bots": ["random", "rule", "remo"], "boards": 4})
    first = matches[0]
    assert (first["x"], first["y"]) == ("random", "rule")
    store.record_pairs(
        first,
        [
            two_room(1, SCORES[1]),
            two_room(2, SCORES[2], first=[("N", 5, "random broke")]),
            two_room(3, SCORES[3], second=[("N", 7, "rule played 9Z")]),
            two_room(4, SCORES[4], first=[("S", 2, "secret 4H")]),
        ],
    )
    for m in matches[1:]:
        store.record_pairs(m, [two_room(n, 1) for n in (1, 2, 3)])
    remo_rule = next(m for m in matches if {m["x"], m["y"]} == {"remo", "rule"})
    store.add_timeout(remo_rule["id"], "remo")
    store.add_timeout(remo_rule["id"], "remo")
    after_match_progress(store, store.match(first["id"]))
    rate_match(store, store.match(first["id"]))  # rated ahead of the tournament's end, for the pages to show
    return {"tid": tid, "matches": matches, "first": first, "token": token, "remo_rule": remo_rule}


def test_the_match_page_shows_the_apis_numbers_and_only_boards_finished_everywhere(client, arena):
    mid, tid = arena["first"]["id"], arena["tid"]
    page = html(client.get(f"/matches/{mid}"))
    api = next(m for m in client.get(f"/api/v1/tournaments/{tid}/matches").get_json() if m["id"] == mid)
    st = api["stats"]
    # board 4 is finished in this match only: no figure counts it yet (server.arena.visibility)
    assert st["boards"] == 3 and st["total"] == sum(SCORES[n] for n in (1, 2, 3))
    assert f'href="/tournaments/{tid}"' in page and 'href="/bots/random"' in page and 'href="/bots/rule"' in page
    assert f"{st['mean']:+.2f}" in page and f"[{st['ci_low']:+.2f}, {st['ci_high']:+.2f}]" in page
    assert f"{st['won']} / {st['tied']} / {st['lost']}" in page and f"{100 * st['los']:.1f}%" in page
    rows = re.findall(r'<tr data-board="(\d+)" data-score="(-?\d+)">', page)
    assert rows == [("1", "6"), ("2", "-2"), ("3", "10")], "board 4 is not finished in the other matches"
    for n in (1, 2, 3):
        assert f'href="/matches/{mid}/boards/{n}"' in page
    assert f"/matches/{mid}/boards/4" not in page and 'data-hidden="1"' in page
    values = re.findall(r'<circle class="pt"[^>]*data-value="(-?\d+)"', page)
    assert values == ["6", "4", "14"], "the cumulative net of the boards shown"
    assert '<polygon class="band"' in page and "charts.css" in page


def test_a_match_with_nothing_visible_and_a_blind_match_render(client, store, arena):
    other = arena["matches"][1]["id"]
    store.record_pairs(arena["matches"][1], [two_room(4, 3)])
    store.record_pairs(arena["matches"][2], [two_room(4, -3)])
    page = html(client.get(f"/matches/{other}"))
    assert len(re.findall(r"<tr data-board=", page)) == 4, "board 4 is now finished everywhere"
    tid, blind = tournament(
        store, {"format": "blind", "bots": ["random", "search"], "references": ["rule"], "boards": 2}
    )
    page = html(client.get(f"/matches/{blind[0]['id']}"))
    assert "reference" in page and "No board of this match" in page
    for m in blind:
        store.record_pairs(m, [{"board": n, "side": "NS", "score": n, "rooms": [room(), room()]} for n in (1, 2)])
    page = html(client.get(f"/matches/{blind[0]['id']}"))
    assert re.findall(r'data-value="(-?\d+)"', page) == ["1", "3"] and "Blind movement" in page
    assert "no match" in html(client.get("/matches/t999.m1"), 404)


def test_the_bot_page_shows_ratings_matches_and_faults_but_no_token(client, store, arena):
    page = html(client.get("/bots/random"))
    api = client.get("/api/v1/bots/random").get_json()
    shown = re.search(
        r'<tr data-ruleset="american62">.*?class="rating" data-rating="([-\d.]+)">([^<]+)<'
        r'.*?class="interval" data-low="([-\d.]+)" data-high="([-\d.]+)">([^<]+)<'
        r'.*?class="text provisional" data-provisional="(true|false)">(.*?)</td>',
        page,
        re.S,
    ).groups()
    r = api["ratings"]["american62"]
    assert tuple(map(float, (shown[0], shown[2], shown[3]))) == (r["rating"], r["low"], r["high"])
    assert shown[1] == f"{r['rating']:+.2f}", "two decimals, not three"
    assert shown[4] == f"[{r['low']:+.2f}, {r['high']:+.2f}]", "the 95% interval, two decimals"
    assert shown[5] == "true" and r["provisional"], "a few boards: provisional"
    assert 'class="prov"' in shown[6] and "*" in shown[6], "the provisional mark"
    assert "* provisional: interval wider than \u00b12 points per board or fewer than 20 boards." in html_text(page)
    assert r["low"] < r["rating"] < r["high"]
    history = client.get("/api/v1/ratings/american62/random/history").get_json()["points"]
    assert len(history) == 1 and history[0]["rating"] == r["rating"]
    assert re.findall(r'<circle class="pt"[^>]*data-value="([-\d.]+)"', page) == [str(r["rating"])]
    assert "95% interval" in page, "the chart's band is the interval"
    bar = re.search(r'<line class="err"[^>]*data-low="([-\d.]+)" data-high="([-\d.]+)"', page)
    assert bar and (float(bar.group(1)), float(bar.group(2))) == (r["low"], r["high"]), "one point: its band as a bar"
    titles = re.findall(r'<text class="axis-title (x|y)-title"[^>]*>([^<]+)</text>', page)
    assert titles == [("x", "after the tournament of (UTC)"), ("y", "rating, points per board")]
    recent = re.findall(r'<tr data-match="([^"]+)">', page)
    assert recent == [m["id"] for m in arena["matches"] if "random" in (m["x"], m["y"])]
    assert f'href="/matches/{arena["first"]["id"]}"' in page
    faults = re.findall(r'<tr data-match="[^"]+" data-board="(\d+)">', page)
    assert faults == ["2"] and "random broke" in page, "board 3's fault is rule's; board 4 is hidden"
    assert "secret 4H" not in page and "rule played 9Z" not in page
    assert 'data-replaced="1"' in page

    rule = html(client.get("/bots/rule"))
    assert "rule played 9Z" in rule and "random broke" not in rule
    mean = re.search(rf'<tr data-match="{arena["first"]["id"]}">.*?data-mean="([-\d.]+)"', rule, re.S).group(1)
    shown = [SCORES[n] for n in (1, 2, 3)]  # board 4 is not finished everywhere
    assert float(mean) == pytest.approx(-sum(shown) / 3, abs=1e-4), "seen from rule's side (Y)"

    remo = html(client.get("/bots/remo"))
    assert arena["token"] not in remo and registry.token_hash(arena["token"]) not in remo
    assert 'data-timeouts="2"' in remo and "not in the last day" in remo and "Not rated yet" in remo
    store.open_requests("remo")  # the bot asks: seen now
    assert "not in the last day" not in html(client.get("/bots/remo"))
    assert "no bot" in html(client.get("/bots/nobody"), 404)


def test_the_leaderboard_links_bots_and_draws_each_ones_rating_trend(client, store, arena):
    for m in arena["matches"][1:]:
        store.record_pairs(m, [two_room(4, 1)])
        after_match_progress(store, store.match(m["id"]))
    store.open_requests("remo")
    page = html(client.get("/"))
    board = client.get("/api/v1/ratings/american62").get_json()["bots"]
    rows = re.findall(
        r'<tr data-bot="([^"]+)">\s*<td>\d+</td>\s*<td class="text bot"><a href="/bots/([^"]+)">'
        r'.*?class="rating" data-rating="([-\d.]+)">.*?data-points="(\d+)" data-last="([-\d.]+)".*?'
        r'class="text seen">([^<]*)<',
        page,
        re.S,
    )
    assert [r[0] for r in rows] == [b["bot"] for b in board] and len(rows) == 3
    for bot, link, rating, points, last, seen in rows:
        history = client.get(f"/api/v1/ratings/american62/{bot}/history").get_json()["points"]
        assert link == bot and float(rating) == float(last) == history[-1]["rating"]
        assert int(points) == len(history) == 1, "one tournament: its end is one point"
        assert bool(seen.strip()) == (bot == "remo"), "last seen for the remote bot only"
    for b in board:  # each row's 95% interval in two decimals, and the provisional mark of a few boards
        cell = f'<td class="interval" data-low="{b["low"]}" data-high="{b["high"]}">[{b["low"]:+.2f}, {b["high"]:+.2f}]</td>'
        assert cell in page and b["provisional"]
        assert f'data-rating="{b["rating"]}">{b["rating"]:+.2f}</td>' in page
    assert page.count('<td class="text provisional" data-provisional="true"><abbr class="prov"') == 3
    assert "interval wider than \u00b12 points per board or fewer than 20 boards" in html_text(page), "the legend"


def test_a_refresh_redraws_the_trends_and_charts_that_the_pages_keep(client, store):
    """The sparklines and rating charts are kept by the ratings' version: read again they
    are the same, and after the next refresh they show its point."""
    for bot in ("ann", "bob"):
        registry.register(store, bot)

    def finished(n):
        store.add_comparisons("american62", [record(f"t{n}.m1", [n, 0, 1], "ann", "bob", f"e{n}", {1: 4 + n, 2: n}, n)])
        store.refresh_ratings("american62")

    def drawn():
        board = html(client.get("/"))
        chart = re.search(r'<svg class="chart"[^>]*data-points="(\d+)"', html(client.get("/bots/ann"))).group(1)
        return sorted(re.findall(r'class="sparkline"[^>]*data-points="(\d+)" data-last="([-\d.]+)"', board)), chart

    finished(1)
    first = drawn()
    assert first == drawn() and first[1] == "1" and [p for p, _ in first[0]] == ["1", "1"]
    finished(2)
    second = drawn()
    assert second[1] == "2" and [p for p, _ in second[0]] == ["2", "2"] and second[0] != first[0]
    last = {r["bot"]: r["rating"] for r in client.get("/api/v1/ratings/american62").get_json()["bots"]}
    assert sorted(float(v) for _, v in second[0]) == sorted(last.values())


def test_the_rating_history_api(client, arena):
    api = client.get("/api/v1/ratings/american62/rule/history")
    assert api.status_code == 200
    body = api.get_json()
    assert body["bot"] == "rule" and [p["tournament"] for p in body["points"]] == [
        int(arena["first"]["tournament"][1:])
    ]
    assert set(body["points"][0]) == {"t", "rating", "se", "low", "high", "provisional", "tournament"}
    assert client.get("/api/v1/ratings/foster51/rule/history").get_json()["points"] == []
    for path in ("/api/v1/ratings/american62/nobody/history", "/api/v1/ratings/bogus/rule/history"):
        r = client.get(path)
        assert r.status_code == 404 and r.mimetype == "application/problem+json"


def test_the_tournament_page_links_matches_and_bots(client, arena):
    page = html(client.get(f"/tournaments/{arena['tid']}"))
    for m in arena["matches"]:
        assert f'<tr data-match="{m["id"]}"><td class="text"><a href="/matches/{m["id"]}">' in page
    assert re.search(r'<tr data-bot="random"><td>\d+</td><td class="text"><a href="/bots/random">', page)


def test_a_running_match_shows_its_anytime_interval_labelled_and_a_complete_one_does_not(client, store):
    """A running match with 24 boards finished everywhere shows, on its page and in the
    tournament's matches table, its anytime 95% interval (the API's numbers) beside the 95%
    one, each named; a complete match and one with too few boards show none. (Every match
    of a tournament shows the same boards, those finished everywhere, so the young match is
    another tournament's.)"""
    deals = dealsets.generate("anytime-pages", 30)
    store.put_dealset(deals)
    roster = registry.roster(store)

    def create(bots):
        spec = validate({"bots": bots, "boards": 30, "deals": deals.name, "practice": True}, roster)
        tid = store.create_tournament(spec, plan_matches(spec), "test", 60_000)
        return tid, [store.match(mid) for mid in store.match_ids(tid)]

    tid, (running, done, other) = create(["random", "rule", "search"])
    store.record_pairs(running, [two_room(n, (n * 7) % 23 - 8) for n in range(1, 25)])
    store.record_pairs(done, [two_room(n, n % 5 - 1) for n in range(1, 31)])
    store.record_pairs(other, [two_room(n, n % 3) for n in range(1, 25)])
    young_tid, (young,) = create(["random", "rule"])
    store.record_pairs(young, [two_room(n, 2) for n in range(1, 4)])
    api = {m["id"]: m for m in client.get(f"/api/v1/tournaments/{tid}/matches").get_json()}
    st = api[running["id"]]["stats"]
    assert st["boards"] == 24 and api[done["id"]]["stats"]["boards"] == 24, "boards 25-30: this match only"
    shown = f"[{st['anytime_low']:+.2f}, {st['anytime_high']:+.2f}]"
    page = html(client.get(f"/matches/{running['id']}"))
    assert "<dt>anytime 95% interval (raw)</dt>" in page and shown in page
    assert "valid however often it is looked at" in page and "<dt>95% interval (raw)</dt>" in page
    assert "valid at the match&#39;s end" in page or "valid at the match's end" in page
    page = html(client.get(f"/matches/{young['id']}"))
    assert f"none yet (fewer than {anytime.MIN_BOARDS} boards)" in page
    page = html(client.get(f"/matches/{done['id']}"))
    assert api[done["id"]]["status"] == "complete" and "anytime" not in page
    page = html(client.get(f"/tournaments/{tid}"))
    assert ">anytime 95% (raw, running)</th>" in page and ">95% interval (raw)</th>" in page
    cells = dict(re.findall(r'<tr data-match="([^"]+)">.*?<td class="ci anytime">([^<]*)</td>', page, re.S))
    assert cells[running["id"]] == shown and cells[done["id"]] == "" and cells[other["id"]].startswith("[")
