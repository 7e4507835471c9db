"""A table's page in a real browser (Debian's chromium) against the real server and RQ
workers, while its game runs. The test holds one seat (a remote bot it answers for), so
the game stands still while the test looks: at each of its decisions it reads every
``data-card`` in the page and checks each against what the API's public view had made
public by then, and its own hand against the page; then it lets the game run to the end
and finds the winner and a link to each hand's replay, all without a reload."""

import time
from collections import defaultdict
from random import Random

import pytest
from support.apiclient import ADMIN
from support.browser import chromium_page
from support.waiting import Stall
from test_pages_browser import only_local

from server.engine.playout import random_action

pytestmark = [pytest.mark.e2e, pytest.mark.browser, pytest.mark.slow]

# Every card drawn in the page, the hand the live section shows, and whether every card
# is in that section (the only place a card may be drawn while the game runs).
SCAN = """() => {
  const all = [...document.querySelectorAll('[data-card]')];
  return {hand: document.getElementById('live').dataset.hand, cards: all.map(c => c.dataset.card),
          inLive: all.every(c => c.closest('#live') !== null), status: document.getElementById('status').textContent,
          faces: Object.fromEntries(all.map(c => [c.dataset.card, c.outerHTML]))};
}"""


def public_cards(live_view):
    """The cards a spectator's view of a hand names: played to a trick, or shown in the draw."""
    played = [c for t in live_view["tricks"] for p in t["plays"] for c in [p["card"], *p["extras"]]]
    return played + [c for d in live_view["draws"] for c in d["shown"]]


class Watch:
    """The test's seat at the table, and what the API's public view has shown so far."""

    def __init__(self, api, token, tid):
        self.api, self.token, self.tid, self.rng = api, token, tid, Random(7)
        self.public = defaultdict(set)  # hand number -> cards public by the last view read
        self.decision = None
        self.view = None
        self.scans = 0

    def read(self):
        """The view now, its public cards added to what was public before (it only grows)."""
        self.view = self.api.call("GET", f"/api/v1/tables/{self.tid}").json()
        if self.view["live"]:
            self.public[self.view["live"]["hand"]] |= set(public_cards(self.view["live"]["view"]))
        for h in self.view["hands"]:
            self.public[h["number"]] |= {p["card"] for t in h["tricks"] for p in t["plays"]}
        return self.view

    def next(self):
        """Wait for this seat's next decision (None if there is none): the game stands still."""
        r = self.api.call("GET", "/api/v1/decisions/next", self.token, params={"wait": 2})
        self.decision = r.json() if r.status_code == 200 else None
        return self.decision

    def await_next(self, seconds=60):
        """The seat's next decision, waiting through empty long-polls: the table's job can
        wait for a worker, and every step of a busy machine for a core."""
        deadline = time.monotonic() + seconds
        while self.next() is None and time.monotonic() < deadline:
            pass
        return self.decision

    def answer(self):
        action = random_action(self.decision["legal"], self.rng)
        r = self.api.call("POST", f"/api/v1/decisions/{self.decision['id']}", self.token, json=action)
        assert r.status_code == 200, r.text
        self.decision = None

    def check(self, page):
        """Scan the page, then read the view: each card drawn was public by then, in the
        hand the page shows, and none is in this seat's hand while it holds a decision."""
        scan = page.evaluate(SCAN)
        view = self.read()
        self.scans += 1
        assert scan["inLive"], scan
        if scan["cards"]:
            hand = int(scan["hand"])
            assert set(scan["cards"]) <= self.public[hand], (scan["cards"], hand, self.public[hand])
            assert len(scan["cards"]) == len(set(scan["cards"])), scan["cards"]
            live = view["live"]
            if self.decision and live and live["hand"] == hand:
                assert not set(scan["cards"]) & set(self.decision["observation"]["hand"]), scan
        return scan, view

    def wait_until_shown(self, page, timeout=8.0):
        """While this seat holds its decision, scan until the page shows the view exactly."""
        deadline = time.monotonic() + timeout
        while True:
            scan, view = self.check(page)
            live = view["live"]
            if (
                live
                and scan["hand"] == str(live["hand"])
                and sorted(scan["cards"]) == sorted(public_cards(live["view"]))
            ):
                return scan
            assert time.monotonic() < deadline, ("the page never caught up", scan, live)
            time.sleep(0.1)


def test_a_running_table_updates_without_a_reload_and_never_shows_a_hidden_card(api, rq_workers, tmp_path):
    token = api.register("watcher")
    created = api.call(
        "POST",
        "/api/v1/tables",
        ADMIN,
        json={
            "ruleset": "foster51",
            "seats": {"N": "watcher", "E": "rule", "S": "random", "W": "rule"},
            "limits": {"decision_ms": 10_000},
        },
    )
    assert created.status_code == 201, created.text
    tid = created.json()["id"]
    watch = Watch(api, token, tid)
    deadline = time.monotonic() + 60
    while True:  # play on until a trick has begun, then hold the seat's turn
        assert watch.await_next(), "no decision for the test's seat"
        view = watch.read()
        if view["live"] and view["live"]["view"]["tricks"]:
            break
        assert time.monotonic() < deadline, "no trick began"
        watch.answer()
    with chromium_page() as (page, requested):
        navigations = []
        page.on("framenavigated", lambda frame: navigations.append(frame.url))
        page.set_viewport_size({"width": 360, "height": 780})
        page.goto(f"{api.base}/tables/{tid}", wait_until="domcontentloaded")
        drawn_by_server, _ = watch.check(page)
        assert sorted(drawn_by_server["cards"]) == sorted(public_cards(view["live"]["view"]))  # as it stands
        assert drawn_by_server["status"] == "running"
        shown = [(drawn_by_server["hand"], len(drawn_by_server["cards"]))]
        for step in range(6):  # the page follows the game, one decision at a time
            watch.answer()
            assert watch.await_next(), "the game ended early"
            scan = watch.wait_until_shown(page)
            shown.append((scan["hand"], len(scan["cards"])))
            if step == 0:  # the script draws a card exactly as the server did
                same = set(drawn_by_server["faces"]) & set(scan["faces"])
                assert same and all(drawn_by_server["faces"][c] == scan["faces"][c] for c in same)
                assert page.evaluate("document.documentElement.scrollWidth") <= 360  # no sideways scroll
                page.screenshot(path=tmp_path / "table-running-360.png", full_page=True)
        assert len(set(shown)) > 1, shown  # the page's state advanced
        stalled = Stall("the table to finish")
        while True:  # then let it run, scanning at every decision
            watch.next()
            watch.check(page)
            if watch.view["status"] == "finished":
                break
            stalled((watch.view["status"], watch.view["hands_played"]))
            if watch.decision:
                watch.answer()
        final = watch.view
        assert watch.scans > 20 and final["winner"] in ("NS", "EW") and final["hands_played"] >= 2
        page.wait_for_function("() => document.getElementById('status').textContent === 'finished'", timeout=10_000)
        bots = {"NS": "watcher, random", "EW": "rule, rule"}[final["winner"]]
        assert page.locator("#winner").inner_text() == f"{final['winner']} ({bots})"
        assert page.locator(".side.won").get_attribute("data-side") == final["winner"]
        for side in ("NS", "EW"):
            assert page.locator(f"#score-{side}").inner_text() == str(final["scores"][side])
        links = page.locator("#hands a").evaluate_all("links => links.map(a => a.getAttribute('href'))")
        assert links == [f"/tables/{tid}/hands/{n}" for n in range(1, final["hands_played"] + 1)]
        assert page.locator("#deal-seed").inner_text() == final["deal_seed"] and final["deal_seed"]
        assert page.locator("#commitment").inner_text() == final["commitment"]
        assert page.locator("[data-card]").count() == 0 and page.locator("#live").is_hidden()
        page.screenshot(path=tmp_path / "table-finished-360.png", full_page=True)
        assert len(navigations) == 1, navigations  # the first load only
        polls = len([u for u in requested if u.endswith(f"/api/v1/tables/{tid}")])
        assert polls >= 4
        time.sleep(3.5)  # finished: the page stops polling
        assert len([u for u in requested if u.endswith(f"/api/v1/tables/{tid}")]) == polls
        page.goto(f"{api.base}/tables", wait_until="domcontentloaded")
        row = page.locator(f'#tables tr[data-id="{tid}"]')
        assert "finished" in row.inner_text() and row.locator(".winner").inner_text() == final["winner"]
    only_local(requested)
