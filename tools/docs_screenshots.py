"""Screenshots of the docs site as ``cinch serve`` serves it, for docs/ (docs-site-*.png).

    cinch docs build && cinch serve --bind 127.0.0.1:8000 &
    python tools/docs_screenshots.py --url http://127.0.0.1:8000

Debian's chromium driven by Playwright (never a downloaded browser), as the page tests do;
every request the pages make is recorded, and the script fails (exit 1) if one went to
another host: the screenshots then also prove the site works offline.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from urllib.parse import urlsplit

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
SHOTS = {"docs-site-start.png": "/docs/", "docs-site-rules.png": "/docs/rules/american62.html"}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", required=True, help="the server, e.g. http://127.0.0.1:8000")
    parser.add_argument("--out", type=Path, default=ROOT / "docs", help="where the PNGs go (default docs/)")
    args = parser.parse_args(argv)
    host = urlsplit(args.url).netloc
    requested: list[str] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", headless=True, args=FLAGS)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            page.on("request", lambda r: requested.append(r.url))
            for name, path in SHOTS.items():
                response = page.goto(args.url.rstrip("/") + path, wait_until="networkidle")
                if response is None or response.status != 200:
                    print(f"{path}: {response.status if response else 'no response'}", file=sys.stderr)
                    return 1
                page.screenshot(path=str(args.out / name))
                print(f"{args.out / name}: {path}")
        finally:
            browser.close()
    elsewhere = [url for url in requested if urlsplit(url).netloc != host and not url.startswith("data:")]
    print(f"{len(requested)} requests, {len(elsewhere)} to another host")
    for url in elsewhere:
        print(f"  {url}", file=sys.stderr)
    return 1 if elsewhere else 0


if __name__ == "__main__":
    raise SystemExit(main())
