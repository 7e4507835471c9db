"""A person plays a whole game at a human seat, by clicking, in a real browser (Debian's
chromium) against the real server and RQ workers: an american62 game and a snoozer game
against built-in bots, one server and one browser for both. At each decision the test
clicks any one of the legal actions the page offers; meanwhile a second page watches the
table as a spectator and never holds one of the person's cards, in its DOM or in any
response it received. The seat's token is in no URL's path or query and in no server log,
and the finished game's record is a table's normal one."""

import json
import time
from collections import defaultdict
from random import Random
from urllib.parse import urlsplit

import pytest
from support.apiclient import ADMIN
from support.apiserver import server_log
from support.browser import chromium_page
from support.schema_checks import check_record_replays
from support.waiting import Stall
from test_pages_browser import only_local

from server.engine import make_ruleset

pytestmark = [pytest.mark.e2e, pytest.mark.browser, pytest.mark.slow]

SEAT = "S"
# What the seat's page offers once it offers anything (else null): each enabled offer (one
# legal action, or a card to toggle into a discard, a rob or a play's extras) and whether
# it is pressed, then the confirm button if a complete choice can be confirmed; the seat's
# cards; the table's status; whether the focus is on an offer (keyboard play).
OFFERS = """() => {
  const status = document.getElementById('status').textContent;
  const offers = [...document.querySelectorAll('#seat .offer:not([disabled]), #confirm:not([disabled])')];
  if (!offers.length && status !== 'finished') { return null; }
  return {offers: offers.map(o => ({pressed: o.getAttribute('aria-pressed') === 'true', confirm: o.id === 'confirm',
                                    pass: o.textContent === 'Pass'})),
          hand: [...document.querySelectorAll('#my-hand [data-card]')].map(c => c.dataset.card), status,
          focused: offers.indexOf(document.activeElement)};
}"""
OFFERED = "#seat .offer:not([disabled]), #confirm:not([disabled])"
# Every card the spectator's page draws, the hand it shows, and whether every card is in it.
SPECTATOR = """() => {
  const all = [...document.querySelectorAll('[data-card]')];
  return {hand: document.getElementById('live').dataset.hand, cards: all.map(c => c.dataset.card),
          inLive: all.every(c => c.closest('#live') !== null)};
}"""


def public_cards(view):
    """Every card the public view names: played to a trick, or shown in the draw."""
    cards = set()
    if view["live"]:
        live = view["live"]["view"]
        cards |= {c for t in live["tricks"] for p in t["plays"] for c in [p["card"], *p["extras"]]}
        cards |= {c for d in live.get("draws", []) for c in d["shown"]}
    return cards


def click_one(page, state, rng):
    """Take one offered step: any offered action or card, but a complete choice is confirmed
    half the time and a card is added to a choice before one is taken out (so a rob or a
    discard always completes), and a pass is taken mostly (random bids set a game back)."""
    offers = state["offers"]
    confirm = [i for i, o in enumerate(offers) if o["confirm"]]
    passes = [i for i, o in enumerate(offers) if o["pass"]]
    unpressed = [i for i, o in enumerate(offers) if not o["pressed"] and not o["confirm"]]
    if confirm and (rng.random() < 0.5 or not unpressed):
        pick = confirm[0]
    elif passes and rng.random() < 0.8:
        pick = passes[0]
    else:
        pick = rng.choice(unpressed or list(range(len(offers))))
    page.locator(OFFERED).nth(pick).click()


def play_game(api, browser, ruleset, tmp_path, screenshot=False):
    created = api.call(
        "POST",
        "/api/v1/tables",
        ADMIN,
        json={
            "ruleset": ruleset,
            "seats": {"N": "rule", "E": "rule", SEAT: {"human": "Ann", "decision_ms": 60_000}, "W": "rule"},
        },
    )
    assert created.status_code == 201, created.text
    tid, link = created.json()["id"], created.json()["seat_links"][SEAT]
    token = link.split("#", 1)[1]
    seat_page, watcher = browser.new_page(), browser.new_page()
    urls, watched = [], []
    for p in (seat_page, watcher):
        p.on("request", lambda r: urls.append(r.url))
    watcher.on("response", lambda r: watched.append(r))
    refused = []
    seat_page.on("console", lambda m: refused.append(m.text) if "Content Security Policy" in m.text else None)
    seat_page.set_viewport_size({"width": 360, "height": 780})
    watcher.goto(f"{api.base}/tables/{tid}", wait_until="domcontentloaded")
    seat_page.goto(api.base + link, wait_until="domcontentloaded")
    rng, decisions, stalled = Random(ruleset), 0, Stall(f"{ruleset} table {tid} to finish")
    public = defaultdict(set)  # hand number -> the cards its public view had named by the last look
    checked = 0  # looks at the spectator's page during the hand the person holds
    while True:
        state = seat_page.wait_for_function(OFFERS, timeout=30_000).json_value()
        if state["status"] == "finished":
            break
        view = api.call("GET", f"/api/v1/tables/{tid}").json()  # the game waits for the person: this is now
        (open_now,) = api.call("GET", "/api/v1/decisions", token).json()  # the page shows the seat's own cards
        assert state["hand"] == open_now["observation"]["hand"], (state, open_now["observation"])
        if view["live"]:
            public[view["live"]["hand"]] |= public_cards(view)
        for h in view["hands"]:  # a finished hand's tricks, which the spectator may still show
            public[h["number"]] |= {c for t in h["tricks"] for p in t["plays"] for c in [p["card"], *p["extras"]]}
        shown = watcher.evaluate(SPECTATOR)
        assert shown["inLive"], shown
        if shown["cards"]:  # a card the spectator sees was public in the hand it shows
            assert set(shown["cards"]) <= public[int(shown["hand"])], (shown, ruleset)
        now = view["live"]  # the hand the person holds (a hand done is the last one's: the next is dealt)
        if not checked and now and now["view"]["phase"] != "done":  # once, wait for the spectator to catch up
            watcher.wait_for_function(f"() => document.getElementById('live').dataset.hand === '{now['hand']}'")
            shown = watcher.evaluate(SPECTATOR)
        if now and now["view"]["phase"] != "done" and shown["hand"] == str(now["hand"]):
            assert not set(shown["cards"]) & set(state["hand"]), (shown, state["hand"], ruleset)
            if now["view"]["to_act"] == SEAT:  # the page shows the seat's whole hand
                assert len(state["hand"]) == now["view"]["hand_sizes"][SEAT], (state, now["view"])
            checked += 1
        if decisions == 3:
            assert seat_page.evaluate("document.documentElement.scrollWidth") <= 360  # no sideways scroll
            if screenshot:
                held = f"S {len(state['hand'])}"  # the table's view caught up with the decision
                seat_page.wait_for_function(
                    f"() => document.querySelector('#live .held').textContent.includes('{held}')"
                )
                seat_page.screenshot(path=tmp_path / "human-seat.png", full_page=True)
                check_accessible(seat_page)
        if decisions == 5:  # a decision's first offer has the focus: the keyboard plays it
            assert state["focused"] == 0, state
            seat_page.keyboard.press("Enter")
        else:
            click_one(seat_page, state, rng)
        decisions += 1
        stalled((view["status"], view["hands_played"], decisions))
    final = api.call("GET", f"/api/v1/tables/{tid}").json()
    assert final["status"] == "finished" and final["winner"] and decisions > 10, (final["status"], decisions)
    assert checked >= 1, (checked, decisions)  # the spectator polls every 1.5 s: often a hand behind
    seat_page.wait_for_function("() => document.getElementById('seat-state').textContent.includes('game is over')")
    record = check_record_replays(api, final, make_ruleset(ruleset))
    paths = [urlsplit(u).path for u in urls]
    answers = [p for p in paths if p.startswith("/api/v1/decisions/") and p != "/api/v1/decisions/next"]
    # every action of the seat in the record is one the person chose on the page and posted
    assert sum(a["seat"] == SEAT for h in record["hands"] for a in h["actions"]) == len(answers) > 0
    assert not any(f["seat"] == SEAT for h in record["hands"] for f in h["faults"]), "the person timed out"
    # the spectator: only the public view, never a decision or the seat
    other = [r.url for r in watched if urlsplit(r.url).path not in (f"/tables/{tid}", f"/api/v1/tables/{tid}")]
    assert all(urlsplit(u).path.startswith("/assets/") for u in other), other
    for r in watched:
        if r.url.endswith(f"/api/v1/tables/{tid}") and r.ok:
            body = r.json()
            if body["live"]:
                assert body["live"]["view"]["hand"] is None and body["live"]["view"]["legal"] is None
            assert all("actions" not in h for h in body["hands"])
            assert token not in json.dumps(body)
    # the token: in no URL's path or query, in no server log; a 401 once the game is over
    assert all(token not in urlsplit(u)._replace(fragment="").geturl() for u in urls), "the token was sent in a URL"
    assert api.call("GET", "/api/v1/decisions", token).status_code == 401
    assert not refused, refused
    seat_page.close()
    watcher.close()
    print(f"{ruleset}: {decisions} decisions, {final['hands_played']} hands, spectator checked {checked} times")
    return tid, token, decisions


def check_accessible(page):
    """0 axe-core violations on the seat's page mid-decision, light and dark."""
    from axe_playwright_python.sync_playwright import Axe

    axe = Axe()
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        violations = axe.run(page).response["violations"]
        assert not violations, [(v["id"], v["impact"], v["nodes"][0]["target"]) for v in violations]
    page.emulate_media(color_scheme="light")


def test_a_person_plays_whole_games_by_clicking_and_a_spectator_never_sees_their_cards(api, rq_workers, tmp_path):
    started = time.monotonic()
    with chromium_page() as (page, requested):
        browser = page.context.browser
        american = play_game(api, browser, "american62", tmp_path, screenshot=True)
        snoozer = play_game(api, browser, "snoozer", tmp_path)
        page.goto(f"{api.base}/tables/{american[0]}/hands/1", wait_until="domcontentloaded")  # the replay exists
        assert page.locator("[data-card]").count() > 0
        assert "Ann (person)" in page.inner_text("main") and "human." not in page.inner_text("main")
    log = server_log(api)
    assert f"/api/v1/tables/{american[0]}/seat" in log or "GET" in log  # the log is there to search
    assert american[1] not in log and snoozer[1] not in log, "a seat token in the server's log"
    only_local(requested)
    print(f"decisions clicked: american62 {american[2]}, snoozer {snoozer[2]}; {time.monotonic() - started:.1f} s")
