"""Every page a person can reach answers: a crawl from ``/`` through Flask's test client over
a store seeded by really playing small tournaments of every format (round robin, gauntlet,
blind, progressive) in several rulesets and table sizes (snoozer at five, widow_cinch,
auction_cinch, american62), one tournament left half played, and finished tables
(``support.seeded``). Every
same-host link of every page must answer 200 (no 404, no 500), and every board page of
every match must show each room's cards at every seat of its table.

In-process (no server, no browser, no process started): the unit lane. It plays 27 visible
boards and crawls 83 paths in 2.5 s (``--durations``, 2026-12-03), under the 5 s of ``slow``.
"""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit

from support.pagecheck import html as page_html
from support.seeded import seed

from server.arena.store import Store
from server.engine import make_ruleset, seats_for
from server.web.app import create_app
from server.web.pages.matches import visible_boards

ADMIN = "crawl-admin"
DOCS = "/docs/"  # the mkdocs site: its own blueprint and test (tests/test_docs_site.py), a 404 page until built


class Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name in ("href", "src", "data-live") and value:  # data-live: a live view the page polls
                self.found.append(value)


def links_of(base: str, text: str) -> set[str]:
    """Every same-host link or resource of a page, as a path with its query."""
    parser = Links()
    parser.feed(text)
    out = set()
    for link in parser.found:
        if link.startswith(("data:", "mailto:", "#")):
            continue
        parts = urlsplit(urljoin("http://localhost" + base, link))
        if parts.hostname != "localhost":
            continue
        out.add(parts.path + (f"?{parts.query}" if parts.query else ""))
    return out


def crawl(client, start_at: str = "/") -> dict[str, tuple[int, str]]:
    """Every page reachable from ``start_at`` by same-host links: its status and text. JSON,
    scripts, styles and the docs site are fetched but not followed."""
    seen: dict[str, tuple[int, str]] = {}
    todo = [start_at]
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        r = client.get(path, follow_redirects=True)  # a redirect (/api/v1/docs to its folder) is followed
        text = r.get_data(as_text=True)
        seen[path] = (r.status_code, text)
        if r.mimetype == "text/html" and not path.startswith((DOCS, "/api/")):
            todo += sorted(links_of(path, text) - set(seen))
    return seen


def check_board_page(store: Store, path: str, text: str, mid: str, board: int) -> None:
    """Every room of the stored board is replayed, each seat of the table dealt cards."""
    match = store.match(mid)
    record = store.pair(mid, board)
    seats = seats_for(make_ruleset(match["ruleset"], match["options"]).players)
    rooms = text.split('<section class="room')[1:]
    assert len(rooms) == len(record["rooms"]), f"{path}: {len(rooms)} rooms shown of {len(record['rooms'])}"
    for number, room in enumerate(rooms, 1):
        assert 'class="trick"' in room, f"{path}: room {number} shows no trick"
        for seat in seats:
            dealt = re.search(rf'<td class="dealt" data-seat="{seat}">(.*?)</td>', room, re.S)
            assert dealt and "data-card=" in dealt.group(1), f"{path}: room {number} shows no cards at {seat}"
            assert re.search(rf'<div class="at pos\d[^"]*" data-seat="{seat}">', room), (
                f"{path}: no {seat} on the compass"
            )
        assert "data-frames='[[" in room and 'data-step="score"' in room, f"{path}: room {number} cannot be stepped"


def test_every_link_from_the_home_page_answers_and_every_board_shows_its_rooms(redis_url, store: Store, queue):
    app = create_app(
        {"REDIS_URL": redis_url, "CINCH_PREFIX": store.prefix, "CINCH_QUEUE": store.queue_name, "ADMIN_TOKEN": ADMIN}
    )
    client = app.test_client()

    def create_table(ruleset, options, seats):
        r = client.post(
            "/api/v1/tables",
            json={"ruleset": ruleset, "options": options, "seats": seats},
            headers={"Authorization": f"Bearer {ADMIN}"},
        )
        assert r.status_code == 201, r.get_data(as_text=True)
        return r.get_json()["id"]

    arena = seed(store, queue, create_table)
    tids, half, first_match, tables = arena.tournaments, arena.half, arena.hidden_match, arena.tables

    pages = crawl(client)

    broken = {p: status for p, (status, _) in pages.items() if status != 200 and not p.startswith(DOCS)}
    assert not broken, f"links that do not answer 200: {broken}"
    assert "docs site has not been built" in pages[DOCS][1] or pages[DOCS][0] == 200
    assert not any("%23" in p for p in pages), [p for p in pages if "%23" in p]

    # the crawl reached every tournament, match, bot, table and hand, and the live views the pages poll
    assert (
        "/tournaments/live" in pages
        and f"/tournaments/{half}/live" in pages
        and f"/matches/{first_match}/live" in pages
    )
    for tid in [*tids.values(), half]:
        assert f"/tournaments/{tid}" in pages, tid
        for mid in store.match_ids(tid):
            assert f"/matches/{mid}" in pages, mid
    for bot in ("random", "rule", "search", "search-play"):
        assert f"/bots/{bot}" in pages, bot
    for tid in tables:
        count = len(store.table_hands(tid))
        assert count and all(f"/tables/{tid}/hands/{n}" in pages for n in range(1, count + 1)), tid

    # every visible board of every match is linked, and its page replays each room at every seat
    boards = 0
    for tid in [*tids.values(), half]:
        for mid in store.match_ids(tid):
            shown = visible_boards(store, tid, store.stored_boards(mid))
            linked = sorted(int(p.rsplit("/", 1)[1]) for p in pages if re.fullmatch(rf"/matches/{mid}/boards/\d+", p))
            assert linked == shown, (mid, linked, shown)
            for board in shown:
                path = f"/matches/{mid}/boards/{board}"
                check_board_page(store, path, page_html(client.get(path)), mid, board)
                boards += 1
    assert boards >= 20, boards
    # the half-played tournament hides what is not finished everywhere: no board of it is linked
    assert not any(p.startswith(f"/matches/{first_match}/boards/") for p in pages)
    assert "hidden until" in html.unescape(pages[f"/matches/{first_match}"][1])
