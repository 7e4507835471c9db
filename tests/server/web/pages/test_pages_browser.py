"""The pages in a real browser (Debian's chromium) against a real server and workers:
the leaderboard in rating order, a tournament's progress advancing without a reload,
the cross-table's numbers equal to the API's, and nothing requested from another host.
Screenshots of each page go to the test's tmp_path."""

import contextlib
import time
from urllib.parse import urlparse

import pytest
from support.apiclient import ADMIN, wait_finished
from support.backend import back_end
from support.browser import chromium_page

pytestmark = [pytest.mark.e2e, pytest.mark.browser, pytest.mark.slow]


def create(api, **body):
    r = api.call("POST", "/api/v1/tournaments", ADMIN, json=body)
    assert r.status_code == 201, r.text
    return r.json()["id"]


def only_local(requested):
    hosts = {urlparse(u).hostname for u in requested if not u.startswith("data:")}
    assert hosts == {"127.0.0.1"}, requested


def test_leaderboard_and_finished_tournament_match_the_api(api, rq_workers, tmp_path):
    tid = create(api, bots=["random", "rule", "search"], boards=4, chunk=2)
    blind = create(api, format="blind", bots=["random", "search"], references=["rule"], boards=4)
    assert wait_finished(api, tid), "tournament did not finish"
    assert wait_finished(api, blind), "blind tournament did not finish"
    ratings = api.call("GET", "/api/v1/ratings/american62").json()["bots"]
    results = api.call("GET", f"/api/v1/tournaments/{tid}/results").json()
    matches = api.call("GET", f"/api/v1/tournaments/{tid}/matches").json()
    with chromium_page() as (page, requested):
        page.set_viewport_size({"width": 1100, "height": 700})
        page.goto(f"{api.base}/", wait_until="networkidle")
        bots = page.locator("#leaderboard tbody tr").evaluate_all("rows => rows.map(r => r.dataset.bot)")
        assert bots == [row["bot"] for row in ratings] and len(bots) == 3
        shown = [float(x) for x in page.locator("#leaderboard td.rating").all_inner_texts()]
        assert shown == [row["rating"] for row in ratings] and shown == sorted(shown, reverse=True)
        assert page.locator("#leaderboard tbody tr").first.locator("td").last.inner_text() == "built-in"
        page.screenshot(path=tmp_path / "leaderboard.png", full_page=True)

        page.click("text=foster51")
        page.wait_for_load_state("networkidle")
        assert "ruleset=foster51" in page.url and page.locator(".tabs a.active").inner_text() == "foster51"

        page.goto(f"{api.base}/tournaments", wait_until="networkidle")
        row = page.locator(f'#tournaments tr[data-id="{tid}"]')
        assert "finished" in row.inner_text() and row.locator(".progress-cell").inner_text() == "12/12"
        page.screenshot(path=tmp_path / "tournaments.png", full_page=True)

        row.locator("a").click()
        page.wait_for_load_state("networkidle")
        assert page.url.endswith(f"/tournaments/{tid}")
        assert page.locator("#pairs-done").inner_text() == "12"
        standings = page.locator("#standings tbody tr").evaluate_all("rows => rows.map(r => r.dataset.bot)")
        assert standings == [r["bot"] for r in results["standings"]]
        cells = page.locator("#crosstable td.cell").evaluate_all(
            "cells => cells.map(c => [c.dataset.row, c.dataset.col, c.dataset.mean, c.dataset.low, c.dataset.high,"
            " c.className, c.querySelector('.mean').textContent])"
        )
        assert len(cells) == 6
        for row_bot, col_bot, mean, low, high, classes, text in cells:
            st = results["crosstable"][row_bot][col_bot]
            assert float(mean) == st["mean"] and text == f"{st['mean'] + 0.0:+.2f}"
            assert float(low) == st["ci_low"] and float(high) == st["ci_high"]
            significant = st["ci_low"] > 0 or st["ci_high"] < 0
            assert ("sig" in classes.split()) == (significant and st["mean"] != 0)
            assert ("pos" in classes.split()) == (st["mean"] > 0)
        shown_matches = page.locator("#matches tbody tr").evaluate_all("rows => rows.map(r => r.dataset.match)")
        assert shown_matches == [m["id"] for m in matches]
        page.screenshot(path=tmp_path / "tournament.png", full_page=True)

        page.goto(f"{api.base}/tournaments/{blind}", wait_until="networkidle")
        blind_results = api.call("GET", f"/api/v1/tournaments/{blind}/results").json()
        rows = page.locator("#standings tbody tr").evaluate_all("rows => rows.map(r => r.dataset.bot)")
        assert rows == [r["bot"] for r in blind_results["standings"]] and sorted(rows) == ["random", "search"]
        assert "against the reference bots' par room" in page.locator("main").inner_text()
        for cell in page.locator("#crosstable td.cell").all():
            st = blind_results["crosstable"][cell.get_attribute("data-row")][cell.get_attribute("data-col")]
            assert float(cell.get_attribute("data-mean")) == st["mean"]
        page.screenshot(path=tmp_path / "tournament-blind.png", full_page=True)

        assert page.goto(f"{api.base}/tournaments/nope").status == 404
        assert "no tournament" in page.locator(".detail").inner_text()
    only_local(requested)


def test_a_running_tournaments_progress_advances_without_a_reload(api, redis_url, store, tmp_path):
    # the page is open before any worker starts, so it sees the tournament move however fast the bots are
    tid = create(api, bots=["search", "rule"], boards=8, chunk=1)
    with chromium_page() as (page, requested), contextlib.ExitStack() as running:
        navigations = []
        page.on("framenavigated", lambda frame: navigations.append(frame.url))
        page.goto(f"{api.base}/tournaments/{tid}", wait_until="domcontentloaded")
        assert page.locator("#pairs-done").inner_text() == "0"
        assert page.locator("#pairs-total").inner_text() == "8"
        running.enter_context(back_end(redis_url, store))
        page.wait_for_function("() => Number(document.getElementById('pairs-done').textContent) > 0", timeout=120_000)
        page.screenshot(path=tmp_path / "tournament-running.png", full_page=True)
        page.wait_for_function("() => document.getElementById('status').textContent === 'finished'", timeout=240_000)
        assert page.locator("#pairs-done").inner_text() == "8"
        assert page.locator("#progress").evaluate("bar => bar.value") == 8
        assert len(navigations) == 1, navigations  # the first load only
        polls = [u for u in requested if u.endswith(f"/api/v1/tournaments/{tid}")]
        assert polls, requested
        count = len(polls)
        time.sleep(4.5)  # finished: polling has stopped
        assert len([u for u in requested if u.endswith(f"/api/v1/tournaments/{tid}")]) == count
    only_local(requested)
