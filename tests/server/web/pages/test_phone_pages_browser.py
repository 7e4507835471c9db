"""Every kind of page on a phone, in Debian's chromium against a real server: at 360 and 390
CSS pixels wide no page is wider than the viewport (``scrollWidth <= innerWidth``: nothing
scrolls sideways but a wide table inside its own box), every box that does scroll is
focusable and named for a keyboard and a screen reader (``tabindex="0" role="region"
aria-label``), and a board page shows its board score without scrolling. Screenshots at
360 px go to the test's tmp_path."""

from __future__ import annotations

import re

import pytest
from support.apiclient import ADMIN
from support.browser import chromium_page
from support.seeded import seed

from server.web.pages.matches import visible_boards

pytestmark = [pytest.mark.e2e, pytest.mark.browser, pytest.mark.slow]

WIDTHS = (360, 390)

MEASURE = """() => ({
  page: document.documentElement.scrollWidth,
  viewport: window.innerWidth,
  boxes: [...document.querySelectorAll('.scroll')].filter(b => b.scrollWidth > b.clientWidth).map(b => ({
    label: b.getAttribute('aria-label') || '', role: b.getAttribute('role'), tabindex: b.getAttribute('tabindex'),
  })),
  wide: [...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > window.innerWidth + 0.5
      && !e.closest('.scroll')).slice(0, 3).map(e => e.tagName + (e.id ? '#' + e.id : '') + '.' + e.className),
})"""

SCORE_SHOWN = """() => [...document.querySelectorAll('#board-score, .board-score')].map(e => {
  const r = e.getBoundingClientRect();
  return r.width > 0 && r.left >= 0 && r.right <= window.innerWidth;
})"""


def page_paths(store, arena) -> dict[str, str]:
    """One path of every kind of page, named by kind (every format's tournament, match and board)."""
    paths = {"leaderboard": "/", "tournaments": "/tournaments", "tables": "/tables", "missing": "/tournaments/nope"}
    paths["tournaments filtered"] = "/tournaments?status=finished&limit=2"  # the filters, the pager
    for name, tid in {**arena.tournaments, "half played": arena.half}.items():
        paths[f"tournament {name}"] = f"/tournaments/{tid}"
        mid = store.match_ids(tid)[0]
        paths[f"match {name}"] = f"/matches/{mid}"
        shown = visible_boards(store, tid, store.stored_boards(mid))
        if shown:
            paths[f"board {name}"] = f"/matches/{mid}/boards/{shown[0]}"
    for bot in ("random", "search"):
        paths[f"bot {bot}"] = f"/bots/{bot}"
    for tid in arena.tables:
        paths[f"table {tid}"] = f"/tables/{tid}"
        paths[f"hand 1 of table {tid}"] = f"/tables/{tid}/hands/1"
    return paths


def test_no_page_is_wider_than_a_phone(api, store, queue, tmp_path):
    def create_table(ruleset, options, seats):
        r = api.call("POST", "/api/v1/tables", ADMIN, json={"ruleset": ruleset, "options": options, "seats": seats})
        assert r.status_code == 201, r.text
        return r.json()["id"]

    arena = seed(store, queue, create_table)
    paths = page_paths(store, arena)
    assert sum(kind.startswith("board ") for kind in paths) >= 6
    too_wide, unnamed, hidden_score = {}, {}, {}
    with chromium_page() as (page, _):
        for width in WIDTHS:
            page.set_viewport_size({"width": width, "height": 800})
            for kind, path in paths.items():
                page.goto(api.base + path, wait_until="load")
                m = page.evaluate(MEASURE)
                assert m["viewport"] == width
                if m["page"] > m["viewport"]:
                    too_wide[f"{kind} at {width}"] = (m["page"], m["wide"])
                bad = [b for b in m["boxes"] if not (b["label"] and b["role"] == "region" and b["tabindex"] == "0")]
                if bad:
                    unnamed[f"{kind} at {width}"] = bad
                if kind.startswith("board "):
                    shown = page.evaluate(SCORE_SHOWN)
                    if not shown or not all(shown):
                        hidden_score[f"{kind} at {width}"] = shown
                if width == WIDTHS[0]:
                    page.screenshot(path=tmp_path / f"{re.sub(r'[^a-z0-9]+', '-', kind)}-{width}.png", full_page=True)
    assert not too_wide, f"pages wider than the viewport: {too_wide}"
    assert not unnamed, f"scroll boxes a keyboard cannot reach or a screen reader cannot name: {unnamed}"
    assert not hidden_score, f"board pages whose board score is off screen: {hidden_score}"
