"""Every kind of page in Debian's chromium against a real server over the seeded store
(``support.seeded``): dark by the reader's ``prefers-color-scheme`` (the body's background
dark and its text light, the other way round otherwise), and no serious or critical
accessibility violation found by axe-core (``axe-playwright-python`` bundles it; nothing is
fetched) in either colour scheme. The third-party API docs page is not ours and not checked."""

from __future__ import annotations

import pytest
from support.apiclient import ADMIN
from support.browser import chromium_page
from support.seeded import seed
from test_phone_pages_browser import page_paths

pytestmark = [pytest.mark.e2e, pytest.mark.browser, pytest.mark.slow]

LUMINANCE = """() => {
  const lum = c => { const [r, g, b] = c.match(/\\d+(\\.\\d+)?/g).slice(0, 3).map(Number).map(v => v / 255)
      .map(v => v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const s = getComputedStyle(document.body);
  return {background: lum(s.backgroundColor), text: lum(s.color)};
}"""


EVERY_RULE = {"resultTypes": ["violations"]}


def only(*rules: str) -> dict:
    return {"runOnly": {"type": "rule", "values": list(rules)}, "resultTypes": ["violations"]}


RENDERINGS = (
    ("light", 1100, EVERY_RULE),
    # the same pages again in the rules that depend on the rendering: colours in the dark
    # scheme, and a phone's width, where wide tables scroll in boxes of their own (every
    # rule in every rendering took three times as long and finds nothing more)
    ("dark", 1100, only("color-contrast", "link-in-text-block")),
    ("light", 360, only("scrollable-region-focusable", "color-contrast")),
)


def test_dark_mode_follows_the_readers_colour_scheme(api, store):
    with chromium_page() as (page, _):
        seen = {}
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            page.goto(f"{api.base}/tournaments", wait_until="load")
            seen[scheme] = page.evaluate(LUMINANCE)
    assert seen["light"]["background"] > 0.9 and seen["light"]["text"] < 0.05, seen
    assert seen["dark"]["background"] < 0.02 and seen["dark"]["text"] > 0.6, seen


def test_no_page_has_a_serious_or_critical_accessibility_violation(api, store, queue):
    from axe_playwright_python.sync_playwright import Axe

    def create_table(ruleset, options, seats):
        r = api.call("POST", "/api/v1/tables", ADMIN, json={"ruleset": ruleset, "options": options, "seats": seats})
        assert r.status_code == 201, r.text
        return r.json()["id"]

    arena = seed(store, queue, create_table)
    paths = {k: p for k, p in page_paths(store, arena).items() if k != "missing"}
    kinds = {k.split(" ")[0] for k in paths}
    assert kinds >= {"leaderboard", "tournaments", "tournament", "match", "board", "bot", "tables", "table", "hand"}
    axe = Axe()
    found: dict[str, list[tuple[str, str, int, str]]] = {}
    every: set[tuple[str, str]] = set()  # (rule, impact) of every violation, for the report
    with chromium_page() as (page, _):
        for scheme, width, rules in RENDERINGS:
            page.set_viewport_size({"width": width, "height": 800})
            page.emulate_media(color_scheme=scheme)
            for kind, path in paths.items():
                page.goto(api.base + path, wait_until="load")
                results = axe.run(page, options=rules)
                ran = {
                    r["id"]
                    for kind in ("passes", "violations", "incomplete", "inapplicable")
                    for r in results.response[kind]
                }
                assert rules is EVERY_RULE or ran == set(rules["runOnly"]["values"]), ran
                every |= {(v["id"], v["impact"]) for v in results.response["violations"]}
                bad = [
                    (v["id"], v["impact"], len(v["nodes"]), v["nodes"][0]["target"][0] if v["nodes"] else "")
                    for v in results.response["violations"]
                    if v["impact"] in ("serious", "critical")
                ]
                if bad:
                    found[f"{kind} ({scheme}, {width} px)"] = bad
    assert not found, f"serious or critical axe-core violations: {found}"
    print(f"axe-core over {len(paths)} pages: violations of a lesser impact {sorted(every)}")
