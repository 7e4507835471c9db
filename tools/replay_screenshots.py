"""Screenshots of every game's board replay for docs/ (replay-<game>.png), taken from today's pages.

    .venv/bin/python tools/replay_screenshots.py [--out docs] [--only pedro snoozer ...]

One small tournament per ruleset of the registry (two board pairs of the built-in bots
``rule`` and ``random``; each game at its default table size: a two-room round robin where
the table has two sides, the blind movement of ``random`` among ``rule`` where it has more)
and one Progressive Cinch tournament, played in this process on an embedded Redis of its
own, then served by a real API server; Debian's chromium (never a downloaded browser) opens
the first visible board of each at ``#t3c2`` in a 1280 x 900 window and takes a viewport
screenshot. The machinery is the page tests' own (``tests/support``: the embedded Redis,
``start_api``, ``chromium_page``, the seeding's ``play_out``), so the pictures are what the
tests see. Not a test: CI never runs it. Exit 1 if a page failed: an HTTP error, a script
error, no cards, a page wider than the window, or a request that left the server.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
# The page tests' support package, after the project itself: tests/ holds test packages
# named like the project's (tests/server), which must not shadow it.
sys.path[:0] = [str(ROOT)]
sys.path.append(str(ROOT / "tests"))

from support.apiserver import start_api, stop_api  # noqa: E402
from support.backend import fresh_store  # noqa: E402
from support.browser import chromium_page  # noqa: E402
from support.seeded import DRIVER, play_out  # noqa: E402

from server.engine.games import GAMES  # noqa: E402
from server.engine.rulesets import make_ruleset  # noqa: E402
from server.web.pages.matches import visible_boards  # noqa: E402
from workers.driver import start  # noqa: E402
from workers.embedded import EmbeddedRedis  # noqa: E402
from workers.jobs import queue_for  # noqa: E402

BOARDS = 2
PROGRESSIVE = {"format": "progressive", "bots": ["rule", "random", "rule#2", "random#2"], "rounds": 1}
PLACE = "#t3c2"  # trick 3, card 2: hands half played, two cards on the table
CARDS = "document.querySelectorAll('.replay .room [data-card]').length"
WIDER = "document.documentElement.scrollWidth > innerWidth"  # the page scrolls sideways


def request_for(game: str) -> dict[str, Any]:
    """The tournament that shows ``game``'s board page: ``progressive``, or a ruleset's name."""
    if game == "progressive":
        return PROGRESSIVE
    units = len(GAMES[game].sides(make_ruleset(game).players)[0])
    if units == 2:
        return {"ruleset": game, "bots": ["rule", "random"], "boards": BOARDS}
    return {"format": "blind", "ruleset": game, "bots": ["random"], "references": ["rule"], "boards": BOARDS}


def main(argv: list[str] | None = None) -> int:
    games = [*GAMES, "progressive"]
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs", help="where the PNGs go (default docs/)")
    parser.add_argument("--only", nargs="+", choices=games, metavar="GAME", help="these games only (default: all)")
    args = parser.parse_args(argv)
    began = time.monotonic()
    failed: list[str] = []
    with tempfile.TemporaryDirectory() as home, EmbeddedRedis(Path(home)) as redis_url, fresh_store(redis_url) as store:
        queue = queue_for(store, store.queue_name)
        boards = {}
        for game in args.only or games:
            tid = start(store, queue, request_for(game), DRIVER)
            play_out(store, queue, tid)
            mid = store.match_ids(tid)[0]
            boards[game] = f"/matches/{mid}/boards/{visible_boards(store, tid, store.stored_boards(mid))[0]}"
        print(f"played {len(boards)} tournaments in {time.monotonic() - began:.0f} s")
        api = start_api(redis_url, store)
        try:
            with chromium_page() as (page, requested):
                errors: list[str] = []
                page.on("pageerror", lambda exc: errors.append(str(exc)))
                page.set_viewport_size({"width": 1280, "height": 900})
                for game, path in boards.items():
                    errors.clear()
                    response = page.goto(api.base + path + PLACE, wait_until="load")
                    status = response.status if response else "no response"
                    cards, wider = page.evaluate(CARDS), page.evaluate(WIDER)
                    out = args.out / f"replay-{game}.png"
                    page.screenshot(path=str(out), full_page=False)
                    ok = status == 200 and cards and not errors and not wider
                    problem = "" if ok else f"  FAILED: HTTP {status}, errors {errors}, wider than the window: {wider}"
                    print(f"{out} ({out.stat().st_size // 1024} KB): {path}{PLACE}, {cards} cards{problem}")
                    if problem:
                        failed.append(game)
                elsewhere = [url for url in requested if not url.startswith(api.base)]
        finally:
            stop_api(api)
    for url in elsewhere:
        print(f"a request left the server: {url}", file=sys.stderr)
    print(f"{len(boards)} screenshots in {time.monotonic() - began:.0f} s; failed: {', '.join(failed) or 'none'}")
    return 1 if failed or elsewhere else 0


if __name__ == "__main__":
    raise SystemExit(main())
