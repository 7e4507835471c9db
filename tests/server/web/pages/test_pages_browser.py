"""The pages in a real browser (Debian's chromium) against a real server and workers:
the leaderboard in rating order, a tournament's progress advancing without a reload, its
standings, cross-table and matches, a match's page and the list of tournaments following
the boards as they are played (and polling no more once it is over), the cross-table's
numbers equal to the API's, and nothing requested from another host. Screenshots of each
page go to the test's tmp_path."""

import contextlib
import time
from urllib.parse import urlparse

import pytest
from support.apiclient import ADMIN, wait_finished
from support.backend import back_end
from support.browser import chromium_page

from workers.jobs import play_chunk_with

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
        shown = page.locator("#leaderboard td.rating").evaluate_all("cs => cs.map(c => Number(c.dataset.rating))")
        assert shown == [row["rating"] for row in ratings] and shown == sorted(shown, reverse=True)
        texts = page.locator("#leaderboard td.rating").all_inner_texts()
        assert texts == [f"{row['rating'] + 0.0:+.2f}" for row in ratings], "two decimals"
        assert page.locator("#leaderboard tbody tr").first.locator("td").last.inner_text() == "built-in"
        page.screenshot(path=tmp_path / "leaderboard.png", full_page=True)

        page.click("text=foster51")
        page.wait_for_load_state("networkidle")
        assert "ruleset=foster51" in page.url and page.locator(".tabs a.active").inner_text() == "foster51"

        page.goto(f"{api.base}/tournaments", wait_until="networkidle")
        row = page.locator(f'#tournaments tr[data-id="{tid}"]')
        assert "finished" in row.inner_text() and row.locator(".progress-cell").inner_text() == "12/12"
        page.screenshot(path=tmp_path / "tournaments.png", full_page=True)

        assert (
            row.locator(".leader").get_attribute("data-bot")
            == api.call("GET", f"/api/v1/tournaments/{tid}/results").json()["standings"][0]["bot"]
        )  # the winner column: the top standings row
        row.locator(f'a[href="/tournaments/{tid}"]').click()
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
        polls = [u for u in requested if f"/tournaments/{tid}/live" in u]
        assert polls, requested
        count = len(polls)
        time.sleep(4.5)  # finished: polling has stopped
        assert len([u for u in requested if f"/tournaments/{tid}/live" in u]) == count
    only_local(requested)


def standings(page):
    """The standings as shown: each bot's boards and mean (the page's own cells)."""
    return page.locator("#standings tbody tr").evaluate_all(
        "rows => rows.map(r => [r.dataset.bot, Number(r.querySelector('td.boards').textContent), r.querySelector('td.mean').textContent])"
    )


def test_tournament_match_and_list_pages_follow_the_boards_without_a_reload(api, store, tmp_path):
    """The test plays the boards itself (the workers' own function, no worker running), one
    board of every match at a time, so each step is seen by the pages however fast the bots are."""
    tid = create(api, bots=["random", "rule", "search-play"], boards=4, chunk=1)
    mids = store.match_ids(tid)

    def play(board):
        for mid in mids:
            play_chunk_with(store, mid, board, board)

    with chromium_page() as (page, requested):
        navigations = []
        browser = page.context.browser
        pages = {"tournament": page, "match": browser.new_page(), "list": browser.new_page()}
        seen, refused = [], []
        for p in pages.values():
            p.on("framenavigated", lambda frame: navigations.append(frame.url))
            p.on("request", lambda r: seen.append(r.url))
            p.on("console", lambda m: refused.append(m.text) if "Content Security Policy" in m.text else None)
        pages["tournament"].goto(f"{api.base}/tournaments/{tid}", wait_until="domcontentloaded")
        pages["match"].goto(f"{api.base}/matches/{mids[0]}", wait_until="domcontentloaded")
        pages["list"].goto(f"{api.base}/tournaments", wait_until="domcontentloaded")
        assert {n for _, n, _ in standings(pages["tournament"])} <= {0}  # no board finished everywhere yet
        assert pages["match"].locator("#boards").count() == 0
        assert pages["list"].locator(f'tr[data-id="{tid}"] .progress-cell').inner_text() == "0/12"

        play(1)
        pages["tournament"].wait_for_function(
            "() => [...document.querySelectorAll('#standings tbody tr')].some(r => r.querySelector('td.boards').textContent === '2')",
            timeout=20_000,
        )
        assert sorted(standings(pages["tournament"])) == sorted(
            [r["bot"], 2, f"{r['mean'] + 0.0:+.2f}"]
            for r in api.call("GET", f"/api/v1/tournaments/{tid}/results").json()["standings"]
        )
        pages["match"].wait_for_selector("#boards tbody tr[data-board='1']", timeout=20_000)
        pages["list"].wait_for_function(
            f"() => document.querySelector('tr[data-id=\"{tid}\"] .progress-cell').textContent === '3/12'",
            timeout=20_000,
        )
        assert pages["tournament"].locator("#pairs-done").inner_text() == "3"
        pages["tournament"].screenshot(path=tmp_path / "tournament-live-1.png", full_page=True)

        play(2)  # every standings row's boards cell changes from 2 to 4, the match gains board 2
        pages["tournament"].wait_for_function(
            "() => [...document.querySelectorAll('#standings tbody tr')].every(r => r.querySelector('td.boards').textContent === '4')",
            timeout=20_000,
        )
        results = api.call("GET", f"/api/v1/tournaments/{tid}/results").json()
        for cell in pages["tournament"].locator("#crosstable td.cell").all():
            st = results["crosstable"][cell.get_attribute("data-row")][cell.get_attribute("data-col")]
            assert float(cell.get_attribute("data-mean")) == st["mean"] and st["boards"] == 2
        pages["match"].wait_for_selector("#boards tbody tr[data-board='2']", timeout=20_000)
        assert pages["match"].locator("#stats [data-field='boards']").inner_text() == "2"
        matches = {m["id"]: m for m in api.call("GET", f"/api/v1/tournaments/{tid}/matches").json()}
        shown = (
            pages["tournament"]
            .locator("#matches tbody tr")
            .evaluate_all("rows => rows.map(r => [r.dataset.match, Number(r.cells[4].textContent)])")
        )
        assert shown == [[mid, matches[mid]["stats"]["boards"]] for mid in mids] and all(n == 2 for _, n in shown)

        play(3)
        play(4)
        for p in pages.values():
            p.wait_for_function("() => document.querySelector('[data-live]').dataset.final === 'true'", timeout=20_000)
        assert pages["tournament"].locator("#status").inner_text() == "finished"
        assert pages["tournament"].locator("#live-note").inner_text() == "(finished)"
        assert [n for _, n, _ in standings(pages["tournament"])] == [8, 8, 8]
        assert pages["match"].locator("#boards tbody tr").count() == 4
        assert "finished" in pages["list"].locator(f'tr[data-id="{tid}"]').inner_text()
        pages["tournament"].screenshot(path=tmp_path / "tournament-live-final.png", full_page=True)
        assert len(navigations) == 3, navigations  # each page's first load only
        polls = [u for u in seen if "/live" in u]
        assert any(f"/matches/{mids[0]}/live" in u for u in polls) and any("/tournaments/live?" in u for u in polls)
        time.sleep(4.5)  # final everywhere: no page polls any more
        assert len([u for u in seen if "/live" in u]) == len(polls)
    assert not refused, refused  # live.js and the HTML it inserts keep the Content-Security-Policy
    only_local(requested + seen)
