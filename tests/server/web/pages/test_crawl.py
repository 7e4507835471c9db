"""Every page a person can reach answers: a crawl from ``/`` through Flask's test client over
a store seeded by really playing small tournaments of every format (round robin, gauntlet,
blind, progressive) in several rulesets and table sizes (snoozer at five, widow_cinch,
auction_cinch, american62), one tournament left half played, and finished tables. Every
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

from server.arena.store import Store
from server.engine import make_ruleset, seats_for
from server.web.app import create_app
from server.web.pages.matches import visible_boards
from workers.driver import start
from workers.jobs import play_chunk_with
from workers.table import play_table_with

ADMIN = "crawl-admin"
DOCS = "/docs/"  # the mkdocs site: its own blueprint and test (tests/test_docs_site.py), a 404 page until built

TOURNAMENTS = {
    "round robin american62": {"ruleset": "american62", "bots": ["random", "rule", "search"], "boards": 2, "chunk": 2},
    "round robin snoozer at four": {
        "ruleset": "snoozer",
        "options": {"players": 4},
        "bots": ["random", "rule", "search", "search-play"],
        "boards": 1,
    },
    "gauntlet widow_cinch": {
        "format": "gauntlet",
        "ruleset": "widow_cinch",
        "candidates": ["random"],
        "references": ["rule", "search"],
        "boards": 1,
    },
    "blind snoozer at five": {
        "format": "blind",
        "ruleset": "snoozer",
        "options": {"players": 5},
        "bots": ["random", "search"],
        "boards": 1,
    },
    "blind auction_cinch at five": {
        "format": "blind",
        "ruleset": "auction_cinch",
        "options": {"players": 5},
        "bots": ["random"],
        "boards": 1,
    },
    # five entrants: a table of four and a table filled with house bots (rule#h1 ...)
    "progressive": {"format": "progressive", "bots": ["random", "rule", "search", "random#2", "rule#2"], "rounds": 2},
}
HALF_PLAYED = {"bots": ["random", "rule", "search-play"], "boards": 2, "chunk": 1}
TABLES = [
    ("snoozer", {"players": 5}, {"P1": "rule", "P2": "random", "P3": "rule", "P4": "random", "P5": "search"}),
    ("american62", {}, {"N": "rule", "E": "random", "S": "rule", "W": "random"}),
]


def play_out(store: Store, queue, tid: str) -> None:
    """Play every match of ``tid`` to the end in this process, Progressive's later rounds as
    they are seated (``play_chunk_with`` seats a round's successors when it completes it)."""
    for _ in range(20):
        if store.tournament(tid)["status"] == "finished":
            return
        for mid in store.match_ids(tid):
            match = store.match(mid)
            play_chunk_with(store, mid, match["first"], match["last"], queue=queue)
    raise AssertionError(f"tournament {tid} did not finish: {store.tournament(tid)['status']}")


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


def test_every_link_from_the_home_page_answers_and_every_board_shows_its_rooms(redis_url, store: Store, queue):
    app = create_app(
        {"REDIS_URL": redis_url, "CINCH_PREFIX": store.prefix, "CINCH_QUEUE": store.queue_name, "ADMIN_TOKEN": ADMIN}
    )
    client = app.test_client()
    tids = {name: start(store, queue, request, "test") for name, request in TOURNAMENTS.items()}
    for tid in tids.values():
        play_out(store, queue, tid)
    half = start(store, queue, HALF_PLAYED, "test")
    first_match = store.match_ids(half)[0]
    play_chunk_with(store, first_match, 1, 2)  # board 1 and 2 played in one match only: hidden
    play_chunk_with(store, store.match_ids(half)[1], 1, 1)
    tables = []
    for ruleset, options, seats in TABLES:
        r = client.post(
            "/api/v1/tables",
            json={"ruleset": ruleset, "options": options, "seats": seats},
            headers={"Authorization": f"Bearer {ADMIN}"},
        )
        assert r.status_code == 201, r.get_data(as_text=True)
        tables.append(r.get_json()["id"])
        play_table_with(store, tables[-1])
        assert store.table(tables[-1])["status"] == "finished"

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
