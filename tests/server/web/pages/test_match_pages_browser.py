"""The match and bot pages and the leaderboard's trends in a real browser, against a real
server and real RQ workers, after a small tournament: the leaderboard's sparklines end at
the ratings shown and link each bot, the match chart has a point per visible board and
ends at the sum of the API's board scores, the bot page shows the API's ratings, and
nothing is requested from another host. One page is checked at a phone's 360 px."""

import pytest
from support.apiclient import wait_finished
from support.browser import chromium_page
from test_pages_browser import create, only_local

pytestmark = [pytest.mark.e2e, pytest.mark.browser, pytest.mark.slow]


def test_match_and_bot_pages_agree_with_the_api(api, rq_workers, tmp_path):
    tid = create(api, bots=["random", "rule", "search"], boards=4, chunk=2)
    assert wait_finished(api, tid), "tournament did not finish"
    ratings = api.call("GET", "/api/v1/ratings/american62").json()["bots"]
    matches = api.call("GET", f"/api/v1/tournaments/{tid}/matches").json()
    with chromium_page() as (page, requested):
        page.set_viewport_size({"width": 1100, "height": 800})
        page.goto(f"{api.base}/", wait_until="networkidle")
        rows = page.locator("#leaderboard tbody tr").evaluate_all(
            "rows => rows.map(r => [r.dataset.bot, r.querySelector('td.bot a').getAttribute('href'),"
            " r.querySelector('td.rating').dataset.rating, r.querySelector('svg.sparkline').dataset.last,"
            " r.querySelectorAll('svg.sparkline polyline').length])"
        )
        assert [r[0] for r in rows] == [b["bot"] for b in ratings] and len(rows) == 3
        for bot, href, rating, last, lines in rows:
            history = api.call("GET", f"/api/v1/ratings/american62/{bot}/history").json()["points"]
            assert href == f"/bots/{bot}" and lines == 1
            assert float(rating) == float(last) == history[-1]["rating"] and len(history) == 1, "one tournament"
        page.screenshot(path=tmp_path / "leaderboard.png", full_page=True)

        page.goto(f"{api.base}/tournaments/{tid}", wait_until="networkidle")
        first = matches[0]
        page.locator(f'#matches tr[data-match="{first["id"]}"] a').click()
        page.wait_for_load_state("networkidle")
        assert page.url.endswith(f"/matches/{first['id']}")
        scores = [api.call("GET", f"/api/v1/matches/{first['id']}/boards/{n}").json()["score"] for n in range(1, 5)]
        values = page.locator("svg.chart circle.pt").evaluate_all("cs => cs.map(c => Number(c.dataset.value))")
        assert len(values) == page.locator("#boards tbody tr").count() == 4
        assert values[-1] == sum(scores) == first["stats"]["total"]
        assert page.locator('#stats [data-field="mean"]').inner_text() == f"{first['stats']['mean'] + 0.0:+.2f}"
        page.screenshot(path=tmp_path / "match.png", full_page=True)
        page.set_viewport_size({"width": 360, "height": 740})
        page.reload(wait_until="networkidle")
        assert page.evaluate("document.documentElement.scrollWidth") <= 360, "no sideways scrolling on a phone"
        assert page.locator("svg.chart").bounding_box()["width"] <= 360
        page.screenshot(path=tmp_path / "match-360.png", full_page=True)

        page.set_viewport_size({"width": 1100, "height": 800})
        page.goto(f"{api.base}/", wait_until="networkidle")
        bot = ratings[0]["bot"]
        page.locator(f'#leaderboard tr[data-bot="{bot}"] td.bot a').click()
        page.wait_for_load_state("networkidle")
        served = api.call("GET", f"/api/v1/bots/{bot}").json()["ratings"]["american62"]
        row = page.locator('#ratings tr[data-ruleset="american62"]')
        rating, interval = row.locator("td.rating"), row.locator("td.interval")
        shown = [float(rating.get_attribute("data-rating"))]
        shown += [float(interval.get_attribute(f"data-{k}")) for k in ("low", "high")]
        assert shown == [served["rating"], served["low"], served["high"]]
        assert interval.inner_text() == f"[{served['low'] + 0.0:+.2f}, {served['high'] + 0.0:+.2f}]"
        assert row.locator("td.provisional").inner_text() == ("*" if served["provisional"] else "")
        assert int(row.locator("td.matches").inner_text()) == served["matches"] == 2
        assert page.locator("svg.chart circle.pt").count() == 1, "a point per tournament that moved it"
        assert page.locator("#recent tbody tr").count() == 2
        page.screenshot(path=tmp_path / "bot.png", full_page=True)
    only_local(requested)
