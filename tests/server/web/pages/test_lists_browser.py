"""Lists that scale, in Debian's chromium against a real server: ``/tournaments`` filtered by
its form and walked by its pager, the winner column, keyboard focus kept while the list
updates in place (and polling stopped once every listed tournament is over), and a bot's
head-to-head table equal to its boards' own statistics, linked to the tournaments."""

from __future__ import annotations

import time

import pytest
from support.browser import chromium_page

from server.arena.stats import summarize
from workers.driver import start
from workers.jobs import play_chunk_with

pytestmark = [pytest.mark.e2e, pytest.mark.browser]


def played(store, queue, name, boards=2):
    tid = start(store, queue, {"bots": ["rule", "random"], "boards": boards, "chunk": boards, "name": name}, "test")
    (mid,) = store.match_ids(tid)
    play_chunk_with(store, mid, 1, boards)
    assert store.tournament(tid)["status"] == "finished"
    return tid, mid


def test_the_list_filters_pages_and_keeps_focus_and_the_head_to_head_table(api, store, queue):
    done = [played(store, queue, f"Cup {i}") for i in range(3)]
    with chromium_page() as (page, _):
        page.goto(f"{api.base}/tournaments?limit=2", wait_until="load")
        rows = page.locator("#tournaments tbody tr")
        assert [rows.nth(i).get_attribute("data-id") for i in range(2)] == [done[2][0], done[1][0]]
        assert page.locator("#tournaments .leader").first.get_attribute("data-final") == "true"
        page.click("#older")
        page.wait_for_url("**before=*")
        assert [r.get_attribute("data-id") for r in rows.all()] == [done[0][0]]
        page.click("#newer")
        page.wait_for_url("**after=*")
        assert rows.count() == 2
        page.fill("input[name=q]", "cup 1")
        page.click("#filters button")
        page.wait_for_url("**q=cup*")
        assert [r.get_attribute("data-id") for r in rows.all()] == [done[1][0]]
        assert "Cup 1" in page.inner_text("#tournaments")
        page.select_option("select[name=status]", "running")
        page.click("#filters button")
        page.wait_for_url("**status=running*")
        assert page.locator("#tournaments").count() == 0 and "No tournament matches" in page.inner_text("#list")

        # a queued tournament keeps the list polling; focus stays put when it updates
        tid = start(store, queue, {"bots": ["rule", "random"], "boards": 1, "name": "Live one"}, "test")  # no worker
        page.goto(f"{api.base}/tournaments", wait_until="load")
        assert page.get_attribute("#list", "data-final") == "false"
        page.focus(f'#tournaments tr[data-id="{done[2][0]}"] a')
        before = page.get_attribute("#list", "data-version")
        store.stop_tournament(tid, "cancelled")
        deadline = time.monotonic() + 30
        while page.get_attribute("#list", "data-version") == before and time.monotonic() < deadline:
            page.wait_for_timeout(200)
        focused = page.evaluate("() => (document.activeElement.closest('tr') || {dataset: {}}).dataset.id")
        assert focused == done[2][0]
        assert page.get_attribute("#list", "data-final") == "true"  # every listed one over: polling stops

        page.goto(f"{api.base}/bots/rule", wait_until="load")
        row = page.locator('#head-to-head tr[data-opponent="random"]')
        scores = [s for _, mid in done for _, s in sorted(store.scores(mid).items())]
        expected = summarize(scores)
        assert int(row.get_attribute("data-boards")) == expected.boards == 6
        assert float(row.get_attribute("data-mean")) == pytest.approx(expected.mean)
        assert float(row.locator(".ci").get_attribute("data-low")) == pytest.approx(expected.ci_low)
        row.locator("a.h2h-matches").click()
        page.wait_for_load_state("load")
        assert {r.get_attribute("data-id") for r in page.locator("#tournaments tbody tr").all()} == {t for t, _ in done}
