"""The interactive API docs work offline: Swagger UI comes from the pinned package's
files, served by the arena itself, and nothing is loaded from another host."""

import re
from urllib.parse import urlparse

import pytest
from support.browser import chromium_page

pytestmark = [pytest.mark.e2e, pytest.mark.browser]


def test_the_docs_page_names_only_its_own_assets(api):
    page = api.call("GET", "/api/v1/docs/")
    assert page.status_code == 200 and "text/html" in page.headers["Content-Type"]
    assets = re.findall(r'(?:src|href)="([^"]+)"', page.text)
    assert assets and all(a.startswith("/api/v1/docs/") for a in assets), assets
    for asset in assets:
        assert api.call("GET", asset).status_code == 200, asset
    assert "validator.swagger.io" not in page.text and '"validatorUrl": null' in page.text


def test_the_docs_render_in_a_real_browser_without_leaving_the_machine(api):
    with chromium_page() as (page, requested):
        page.goto(f"{api.base}/api/v1/docs", wait_until="networkidle")
        page.wait_for_selector(".opblock-summary-path", timeout=30_000)
        paths = page.locator(".opblock-summary-path").all_inner_texts()
        assert "/api/v1/decisions/next" in paths and "/api/v1/tournaments" in paths
        assert page.title() == "Cinch arena API"
    hosts = {urlparse(u).hostname for u in requested if not u.startswith("data:")}
    assert hosts == {"127.0.0.1"}, requested
