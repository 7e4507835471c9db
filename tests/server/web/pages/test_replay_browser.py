"""The board replay in Debian's chromium against one real server over the seeded store
(``support.seeded``: a two-room american62 board pair, snoozer at four and at five,
widow_cinch's three rooms, auction_cinch at five, a Progressive table): every room's
cards at every seat are the engine's; one control steps all rooms together by card, by
trick and by phase, with keys and buttons; the place is in the URL fragment and a link to
``#t3c2`` opens that place; the compass draws the hands of the step; the room selector
shows one room of k at a time. Screenshots of each game's board page go to tmp_path
(``docs/replay-*.png``, every game's, come from ``tools/replay_screenshots.py``)."""

from __future__ import annotations

import pytest
from support.apiclient import ADMIN
from support.apiserver import start_api, stop_api
from support.backend import fresh_store
from support.browser import chromium_page
from support.seeded import seed

from server.engine.cards import names_of
from server.engine.replay import start_hand
from server.web.pages.matches import visible_boards
from server.web.pages.steps import walk
from workers.jobs import queue_for

# One process runs the module (./dev test --dist loadgroup): its module-scoped fixture is built once.
pytestmark = [pytest.mark.e2e, pytest.mark.browser, pytest.mark.slow, pytest.mark.xdist_group("replay_browser")]

GAMES = {
    "american62": "round robin american62",
    "snoozer": "round robin snoozer at four",
    "snoozer5": "blind snoozer at five",
    "widow_cinch": "gauntlet widow_cinch",
    "auction_cinch": "blind auction_cinch at five",
    "progressive": "progressive",
}

STATE = """() => [...document.querySelectorAll('.replay .room')].map(room => ({
  key: room.dataset.room, current: room.dataset.current, hidden: room.hidden,
  dealt: Object.fromEntries([...room.querySelectorAll('td.dealt')].map(td =>
    [td.dataset.seat, [...td.querySelectorAll('[data-card]')].map(c => c.dataset.card)])),
  compass: Object.fromEntries([...room.querySelectorAll('.compass .at')].map(at =>
    [at.dataset.seat, [...at.querySelectorAll('.held [data-card]')].map(c => c.dataset.card)])),
  onTable: [...room.querySelectorAll('.compass .on-table [data-card]')].map(c => c.dataset.card),
  shownPlays: [...room.querySelectorAll('.play')].filter(p => !p.closest('[hidden]')).length,
  now: [...room.querySelectorAll('.now')].map(e => e.dataset.step),
}))"""


@pytest.fixture(scope="module")
def served(redis_url):
    """One seeded store and one API server for the whole module; the board page of each game."""
    with fresh_store(redis_url) as store:
        api = start_api(redis_url, store)
        try:

            def create_table(ruleset, options, seats):
                r = api.call(
                    "POST", "/api/v1/tables", ADMIN, json={"ruleset": ruleset, "options": options, "seats": seats}
                )
                assert r.status_code == 201, r.text
                return r.json()["id"]

            arena = seed(store, queue_for(store, store.queue_name), create_table)
            paths = {}
            for game, name in GAMES.items():
                tid = arena.tournaments[name]
                mid = store.match_ids(tid)[0]
                board = visible_boards(store, tid, store.stored_boards(mid))[0]
                paths[game] = (mid, board)
            yield api, store, paths, arena
        finally:
            stop_api(api)


def frames_of(store, mid, board):
    """Each room's steps as the engine walks them: {key: hands by seat}."""
    out = []
    for room in store.pair(mid, board)["rooms"]:
        w = walk(room)
        out.append({s["key"]: dict(zip(w["seats"], s["hands"])) for s in w["steps"]})
    return out


def test_every_rooms_cards_are_the_engines_in_every_game(served, tmp_path):
    api, store, paths, _ = served
    with chromium_page() as (page, requested):
        errors = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.set_viewport_size({"width": 1280, "height": 900})
        for game, (mid, board) in paths.items():
            page.goto(f"{api.base}/matches/{mid}/boards/{board}", wait_until="load")
            rooms = page.evaluate(STATE)
            pair = store.pair(mid, board)
            assert len(rooms) == len(pair["rooms"]) >= 1, game
            for shown, room in zip(rooms, pair["rooms"]):
                state = start_hand(room)  # the engine deals the stored board
                dealt = {seat: sorted(names_of(mask)) for seat, mask in zip(state.seats, state.hands)}
                assert {s: sorted(c) for s, c in shown["dealt"].items()} == dealt, game
                assert set(shown["compass"]) == set(state.seats), game
            if len(rooms) > 2:  # the room selector shows one room at a time
                assert [r["hidden"] for r in rooms] == [False] + [True] * (len(rooms) - 1), game
                page.click('.room-picker [data-show="2"]')
                assert [r["hidden"] for r in page.evaluate(STATE)][:2] == [True, False], game
                page.click('.room-picker [data-show=""]')
                assert not any(r["hidden"] for r in page.evaluate(STATE)), game
            page.goto(f"{api.base}/matches/{mid}/boards/{board}#t3c2", wait_until="load")
            page.screenshot(path=tmp_path / f"replay-{game}.png", full_page=False)
    assert not errors, errors
    assert all(url.startswith(api.base) for url in requested), [u for u in requested if not u.startswith(api.base)]


def test_one_control_steps_every_room_by_card_trick_and_phase_and_the_fragment_names_the_place(served, tmp_path):
    api, store, paths, _ = served
    mid, board = paths["american62"]
    expected = frames_of(store, mid, board)
    url = f"{api.base}/matches/{mid}/boards/{board}"

    def at(key):
        rooms = page.evaluate(STATE)
        assert page.evaluate("location.hash") == f"#{key}"
        for room, frames in zip(rooms, expected):
            assert room["current"] == key
            assert {s: sorted(c) for s, c in room["compass"].items()} == {s: sorted(c) for s, c in frames[key].items()}
        return rooms

    with chromium_page() as (page, _):
        page.set_viewport_size({"width": 1280, "height": 900})
        page.goto(url + "#t3c2", wait_until="load")
        rooms = at("t3c2")
        assert all(r["shownPlays"] == 10 and len(r["onTable"]) == 2 for r in rooms), rooms  # 2 tricks and 2 cards
        assert page.locator(".step-label").inner_text().startswith("Trick 3, card 2")
        page.keyboard.press("ArrowRight")
        at("t3c3")
        page.keyboard.press("ArrowLeft")
        page.keyboard.press("ArrowLeft")
        at("t3c1")
        page.keyboard.press("Shift+ArrowRight")
        at("t3c4")
        page.keyboard.press("Shift+ArrowRight")
        at("t4c4")
        page.keyboard.press("Shift+ArrowLeft")
        at("t3c4")
        page.click('.stepper [data-go="card+"]')
        at("t4c1")
        page.keyboard.press("]")  # the end of the play
        at("t6c4")
        page.keyboard.press("]")
        rooms = at("score")
        assert page.locator('.stepper [data-go="card+"]').is_disabled()
        page.keyboard.press("Home")
        rooms = at("deal")
        assert all(r["shownPlays"] == 0 and sum(map(len, r["compass"].values())) == 36 for r in rooms)
        page.keyboard.press("]")  # the auction, whole
        bids = page.evaluate("() => JSON.parse(document.querySelector('.stepper').dataset.keys)")
        last_bid = [k["key"] for k in bids if k["phase"] == "bidding"][-1]
        at(last_bid)
        page.click('.stepper [data-go="phase+"]')
        at("trump1")
        page.keyboard.press("[")
        at(last_bid)
        page.screenshot(path=tmp_path / "replay-american62-auction.png", full_page=True)

        # a link to a place opens it (a phase: its end); changing the fragment moves there
        page.goto(url + "#bidding", wait_until="load")
        page.wait_for_function(f"document.querySelector('.room').dataset.current === '{last_bid}'")
        at(last_bid)
        page.goto(url + "#t5c3", wait_until="load")
        at("t5c3")
        page.evaluate("location.hash = '#t2c1'")
        page.wait_for_function("document.querySelector('.room').dataset.current === 't2c1'")
        at("t2c1")

        page.set_viewport_size({"width": 360, "height": 740})
        page.goto(url + "#t3c2", wait_until="load")
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        score = page.locator("#board-score").bounding_box()
        assert score and score["x"] >= 0 and score["x"] + score["width"] <= 360 and score["y"] < 740
        page.screenshot(path=tmp_path / "replay-american62-360.png", full_page=False)


def test_a_finished_tables_hand_is_the_same_replay(served):
    api, store, _, arena = served
    with chromium_page() as (page, _):
        for tid in arena.tables:
            record = store.table_hands(tid)[0]
            w = walk(record)
            page.goto(f"{api.base}/tables/{tid}/hands/1#t2c1", wait_until="load")
            (room,) = page.evaluate(STATE)
            assert room["current"] == "t2c1" and len(room["onTable"]) == 1
            expected = next(s for s in w["steps"] if s["key"] == "t2c1")["hands"]
            assert [sorted(room["compass"][seat]) for seat in w["seats"]] == [sorted(h) for h in expected]
            page.keyboard.press("End")
            assert page.evaluate("location.hash") == "#score" and page.locator(".room .score").is_visible()


def test_without_script_every_step_is_shown(served):
    api, store, paths, _ = served
    mid, board = paths["widow_cinch"]
    with chromium_page() as (page, _):
        page.route("**/replay.js", lambda route: route.abort())
        page.goto(f"{api.base}/matches/{mid}/boards/{board}#t3c2", wait_until="load")
        rooms = page.evaluate(STATE)
        tricks = [len(walk(room)["tricks"]) for room in store.pair(mid, board)["rooms"]]
        assert [r["shownPlays"] for r in rooms] == [6 * n for n in tricks]
        assert page.locator(".stepper").is_hidden() and all(not r["hidden"] for r in rooms)
