"""A real browser for page tests: Debian's chromium driven by Playwright (never a
downloaded browser), every request it makes recorded so a test can check that nothing
left the machine."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@contextmanager
def chromium_page() -> Iterator[tuple[object, list[str]]]:
    """A fresh page and the list of every URL it requests. Without chromium the test is
    skipped on a laptop (``apt install chromium`` to run it) and fails in CI. Whatever the
    test did, the page must not have broken the server's Content-Security-Policy (an
    inline script or style, a resource from elsewhere): the test fails if it did."""
    if not CHROMIUM.exists():
        if os.environ.get("CI"):
            pytest.fail("CI needs Debian's chromium at /usr/bin/chromium (.ci/run installs it)")
        pytest.skip("Debian's chromium is not installed (apt install chromium)")
    from playwright.sync_api import sync_playwright

    requested: list[str] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
        try:
            page = browser.new_page()
            page.on("request", lambda r: requested.append(r.url))
            refused: list[str] = []
            page.on("console", lambda m: refused.append(m.text) if "Content Security Policy" in m.text else None)
            yield page, requested
            assert not refused, f"the page broke the Content-Security-Policy: {refused[:3]}"
        finally:
            browser.close()
