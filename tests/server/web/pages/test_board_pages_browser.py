"""A board pair in a real browser (Debian's chromium) against the real server and RQ
workers: after a small tournament, both rooms show the API's board (the same 36 cards
at the same seats), one control steps both rooms through the tricks together (keys and
buttons), the tricks drawn are the record's, nothing is requested from another host,
and the page fits a 360 px-wide window. Screenshots go to the test's tmp_path."""

import pytest
from support.apiclient import ADMIN, wait_finished
from support.browser import chromium_page
from test_pages_browser import only_local

from server.engine import replay
from server.engine.cards import names_of
from server.engine.replay import start_hand

pytestmark = [pytest.mark.e2e, pytest.mark.browser, pytest.mark.slow]

ROOMS = """rooms => rooms.map(room => ({
  key: room.dataset.room,
  current: room.dataset.current,
  dealt: Object.fromEntries([...room.querySelectorAll('td.dealt')].map(td =>
    [td.dataset.seat, [...td.querySelectorAll('[data-card]')].map(c => c.dataset.card)])),
  tricks: [...room.querySelectorAll('li.trick')].map(li => ({
    number: Number(li.dataset.trick), winner: li.dataset.winner, hidden: li.hidden,
    current: li.classList.contains('current'),
    plays: [...li.querySelectorAll('.play')].map(p => [p.dataset.seat, p.querySelector('.card').dataset.card])})),
}))"""


def test_a_board_pair_steps_both_rooms_together_through_the_records_tricks(api, rq_workers, tmp_path):
    created = api.call("POST", "/api/v1/tournaments", ADMIN, json={"bots": ["rule", "search"], "boards": 2, "chunk": 2})
    assert created.status_code == 201, created.text
    tid = created.json()["id"]
    assert wait_finished(api, tid), "tournament did not finish"
    (match,) = api.call("GET", f"/api/v1/tournaments/{tid}/matches").json()
    record = api.call("GET", f"/api/v1/matches/{match['id']}/boards/1").json()
    assert record["rooms"][0]["board"] == record["rooms"][1]["board"]
    dealt = start_hand(record["rooms"][0]).dealt  # the engine deals the API's board
    expected_dealt = {seat: sorted(names_of(mask)) for seat, mask in zip("NESW", dealt)}
    expected_tricks = [
        [[[p["seat"], p["card"]] for p in t["plays"]] for t in replay(room)["tricks"]] for room in record["rooms"]
    ]
    winners = [[t["winner"] for t in replay(room)["tricks"]] for room in record["rooms"]]

    with chromium_page() as (page, requested):
        page.set_viewport_size({"width": 1280, "height": 900})
        page.goto(f"{api.base}/matches/{match['id']}/boards/1", wait_until="networkidle")
        rooms = page.locator(".replay .room").evaluate_all(ROOMS)
        assert [r["key"] for r in rooms] == ["1", "2"]
        for room, tricks, won in zip(rooms, expected_tricks, winners):
            assert {seat: sorted(cards) for seat, cards in room["dealt"].items()} == expected_dealt
            assert [t["plays"] for t in room["tricks"]] == tricks
            assert [t["winner"] for t in room["tricks"]] == won
        assert rooms[0]["dealt"] == rooms[1]["dealt"]
        assert sum(len(cards) for cards in rooms[0]["dealt"].values()) == 36

        def at(step):
            now = page.locator(".replay .room").evaluate_all(ROOMS)
            assert [r["current"] for r in now] == [str(step), str(step)]
            assert page.locator(".step-label").inner_text() == f"Trick {step} of 6"
            for room, tricks in zip(now, expected_tricks):
                assert [t["number"] for t in room["tricks"] if not t["hidden"]] == list(range(1, step + 1))
                (current,) = [t for t in room["tricks"] if t["current"]]
                assert current["number"] == step and current["plays"] == tricks[step - 1]

        assert page.locator(".stepper").is_visible()
        at(1)
        assert page.locator('.stepper [data-go="prev"]').is_disabled()
        page.screenshot(path=tmp_path / "board-trick1.png", full_page=True)
        page.keyboard.press("ArrowRight")
        at(2)
        page.click('.stepper [data-go="next"]')
        at(3)
        page.keyboard.press("ArrowLeft")
        at(2)
        page.keyboard.press("End")
        at(6)
        assert page.locator('.stepper [data-go="next"]').is_disabled()
        page.keyboard.press("ArrowRight")
        at(6)
        page.click('.stepper [data-go="first"]')
        at(1)
        page.screenshot(path=tmp_path / "board.png", full_page=True)

        assert page.locator(f'a[href="/tournaments/{tid}"]').count() == 1
        assert page.locator(f'a[href="/matches/{match["id"]}"]').count() == 1
        assert page.locator("#board-score").get_attribute("data-score") == str(record["score"])

        page.set_viewport_size({"width": 360, "height": 740})
        page.goto(f"{api.base}/matches/{match['id']}/boards/1", wait_until="networkidle")
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        page.keyboard.press("ArrowRight")
        at(2)
        page.screenshot(path=tmp_path / "board-360.png", full_page=True)
    only_local(requested)


def test_a_field_boards_rooms_step_together_through_each_rooms_own_tricks(api, rq_workers, tmp_path):
    """A board of three single seats (pitch at three): one control steps all three rooms'
    replays (another game's, drawn from its replay), the script raising nothing."""
    body = {"bots": ["random", "rule", "search"], "ruleset": "pitch", "options": {"players": 3}, "boards": 1}
    created = api.call("POST", "/api/v1/tournaments", ADMIN, json=body)
    assert created.status_code == 201, created.text
    tid = created.json()["id"]
    assert wait_finished(api, tid), "tournament did not finish"
    (match,) = api.call("GET", f"/api/v1/tournaments/{tid}/matches").json()
    record = api.call("GET", f"/api/v1/matches/{match['id']}/boards/1").json()
    expected = [
        [[[p["seat"], p["card"]] for p in t["plays"]] for t in replay(room)["tricks"]] for room in record["rooms"]
    ]
    steps = max(len(tricks) for tricks in expected)

    with chromium_page() as (page, requested):
        errors = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(f"{api.base}/matches/{match['id']}/boards/1", wait_until="networkidle")
        rooms = page.locator(".replay .room").evaluate_all(ROOMS)
        assert [r["key"] for r in rooms] == ["1", "2", "3"]
        assert [[t["plays"] for t in r["tricks"]] for r in rooms] == expected
        assert (
            page.locator(".stepper").is_visible() and page.locator(".step-label").inner_text() == f"Trick 1 of {steps}"
        )
        page.keyboard.press("ArrowRight")
        now = page.locator(".replay .room").evaluate_all(ROOMS)
        assert [r["current"] for r in now] == ["2"] * 3
        assert all([t["number"] for t in r["tricks"] if not t["hidden"]] == [1, 2] for r in now)
        page.keyboard.press("End")
        assert page.locator(".step-label").inner_text() == f"Trick {steps} of {steps}"
        page.screenshot(path=tmp_path / "field-board.png", full_page=True)
    assert not errors, errors
    only_local(requested)
