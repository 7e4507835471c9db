"""The operator's page in Debian's chromium, against a real API (gunicorn), a real worker
and the supervisor: sign in with the admin token through the form, read the queues, the
worker, a job that really failed (its error's type and line, no traceback), the
supervisors' lead and a live tournament whose remote entrant has a decision waiting
(its count and age, none of its cards), re-queue the failed job with the button; with
the cookie HttpOnly and SameSite=Strict, nothing loaded from elsewhere, no CSP breach,
no sideways scroll at 360 px and no serious axe-core violation in either colour scheme.
One server for the module."""

from __future__ import annotations

import re

import pytest
from axe_playwright_python.sync_playwright import Axe
from support.apiclient import ADMIN
from support.apiserver import start_api, stop_api
from support.backend import back_end, fresh_store
from support.browser import chromium_page
from support.waiting import wait_for

from workers.jobs import play_chunk, queue_for

pytestmark = [pytest.mark.e2e, pytest.mark.browser, pytest.mark.slow]

WIDE = "() => document.documentElement.scrollWidth"


@pytest.fixture(scope="module")
def arena(redis_url):
    with fresh_store(redis_url) as store, back_end(redis_url, store, workers=1):
        api = start_api(redis_url, store)
        try:
            yield api, store
        finally:
            stop_api(api)


def test_an_operator_signs_in_sees_the_arena_and_requeues_a_failed_job(arena, tmp_path):
    api, store = arena
    queue = queue_for(store, store.queue_name)
    broken = queue.enqueue(play_chunk, store.prefix, "t404.m1", 1, 1, meta={"tournament": "t404"}, failure_ttl=600)
    token = api.register("faraway")
    created = api.call(
        "POST",
        "/api/v1/tournaments",
        ADMIN,
        json={"bots": ["faraway", "random"], "boards": 2, "limits": {"decision_ms": 60000}},
    )
    assert created.status_code == 201, created.text
    tid = created.json()["id"]
    wait_for(lambda: broken.get_status(refresh=True) == "failed", "the broken job to fail")
    wait_for(lambda: store.open_count("faraway") > 0, "the remote entrant's first decision")
    hand = api.call("GET", "/api/v1/decisions", token).json()[0]["observation"].get("hand", [])
    assert hand
    axe = Axe()
    with chromium_page() as (page, requested):
        page.goto(f"{api.base}/ops", wait_until="load")
        assert page.locator("#queues").count() == 0  # the login form, nothing else
        bad = [v["id"] for v in axe.run(page).response["violations"] if v["impact"] in ("serious", "critical")]
        assert not bad, f"login form: {bad}"
        page.fill("#token", ADMIN)
        page.click("button[type=submit]")
        page.wait_for_selector("#queues")
        cookie = next(c for c in page.context.cookies() if c["name"] == "cinch_ops")
        assert cookie["httpOnly"] and cookie["sameSite"] == "Strict" and cookie["path"] == "/ops"
        assert ADMIN not in cookie["value"]

        row = page.locator(f'#queues tr[data-queue="{store.queue_name}"]')
        assert row.locator('[data-count="failed"]').inner_text() == "1"
        assert page.locator("#workers tbody tr[data-worker]").count() == 1
        assert page.locator("#workers tbody tr td:nth-child(2)").inner_text() in ("idle", "busy")
        failed = page.locator(f'#failed tr[data-job="{broken.id}"]')
        assert "t404.m1" in failed.inner_text() and "Traceback" not in page.content()
        assert page.locator("#lead dd code").inner_text().startswith("supervisor:")
        assert int(page.locator('#memory [data-count="keys"]').inner_text()) > 0
        live = page.locator(f'section[data-tournament="{tid}"] tr[data-bot="faraway"]')
        assert int(live.locator('[data-count="open"]').inner_text()) >= 1
        assert re.fullmatch(r"\d+\.\d s", live.locator('[data-age="oldest"]').inner_text())
        text = page.inner_text("main")
        assert not [card for card in hand if re.search(rf"\b{card}\b", text)], "a waiting decision's card is shown"
        assert token not in page.content() and ADMIN not in page.content()

        page.screenshot(path=str(tmp_path / "operator-page.png"), full_page=True)  # docs/operator-page.png
        for scheme, width in (("dark", 1100), ("light", 360)):  # the pages' colours are tested everywhere else
            page.set_viewport_size({"width": width, "height": 800})
            page.emulate_media(color_scheme=scheme)
            bad = [v["id"] for v in axe.run(page).response["violations"] if v["impact"] in ("serious", "critical")]
            assert not bad, f"operator page ({scheme}, {width} px): {bad}"
        wide = page.evaluate(
            "() => [...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > 361"
            " && !(e.closest('.scroll') && e.closest('.scroll') !== e)).map(e => e.tagName + '.' + e.className).slice(0, 8)"
        )
        assert page.evaluate(WIDE) <= 360, wide  # no sideways scroll on a phone

        failed.locator("button").click()
        page.wait_for_selector(".notice")
        assert "re-queued" in page.inner_text(".notice")
        assert all(url.startswith(api.base) or url.startswith("data:") for url in requested), requested
