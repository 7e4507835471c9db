"""Fast: the live views the pages poll while a tournament runs (``static/live.js``), from
Flask's test client. A view answers the page's region as the page itself renders it, only
its version once the page has seen that version, new HTML when a board is finished
everywhere, and ``final`` once the tournament is over."""

import re

from support.pagecheck import html

from server.arena.store import Store
from workers.driver import start
from workers.jobs import play_chunk_with

REQUEST = {"bots": ["random", "rule", "search-play"], "boards": 3, "chunk": 1}


def region(page: str, rid: str) -> str:
    """The page from its live region ``rid`` on (the region's include, then the rest)."""
    found = re.search(rf'<div id="{rid}" data-live="[^"]+" data-version="[^"]*" data-final="\w+">\n', page)
    assert found, f"no live region {rid}"
    return page[found.end() :].lstrip()


def live(client, path, seen=None):
    r = client.get(path, query_string={"seen": seen} if seen is not None else None)
    assert r.status_code == 200 and r.mimetype == "application/json", r.get_data(as_text=True)[:300]
    return r.get_json()


def play_board(store, tid, board):
    for mid in store.match_ids(tid):
        play_chunk_with(store, mid, board, board)


def standings_boards(fragment: str) -> dict[str, int]:
    """Each standings row's boards column."""
    rows = re.findall(
        r'<tr data-bot="([^"]+)">(.*?)</tr>', fragment.split('id="standings"')[1].split("</table>")[0], re.S
    )
    return {bot: int(re.findall(r'<td class="boards">([^<]*)</td>', cells)[0]) for bot, cells in rows}


def test_a_tournaments_live_view_follows_its_boards_and_ends_final(client, store: Store, queue):
    tid = start(store, queue, REQUEST, "test")
    play_board(store, tid, 1)
    page = html(client.get(f"/tournaments/{tid}"))
    v = live(client, f"/tournaments/{tid}/live")
    assert v["final"] is False and v["status"] in ("queued", "running")
    assert v["pairs_done"] == 3 and v["pairs_total"] == 9
    assert region(page, "tables").startswith(v["html"].strip())  # the same templates as the page
    assert f'data-version="{v["version"]}"' in page and 'data-final="false"' in page
    assert standings_boards(v["html"]) == {"random": 2, "rule": 2, "search-play": 2}

    unchanged = live(client, f"/tournaments/{tid}/live", seen=v["version"])
    assert unchanged["html"] is None and unchanged["version"] == v["version"]

    play_board(store, tid, 2)
    moved = live(client, f"/tournaments/{tid}/live", seen=v["version"])
    assert moved["version"] != v["version"] and moved["pairs_done"] == 6
    assert standings_boards(moved["html"]) == {"random": 4, "rule": 4, "search-play": 4}

    play_board(store, tid, 3)
    done = live(client, f"/tournaments/{tid}/live", seen=moved["version"])
    assert done["final"] is True and done["status"] == "finished" and done["html"]
    assert 'data-final="true"' in html(client.get(f"/tournaments/{tid}"))


def test_a_matchs_live_view_shows_a_board_once_it_is_finished_everywhere(client, store: Store, queue):
    tid = start(store, queue, REQUEST, "test")
    first, *others = store.match_ids(tid)
    play_chunk_with(store, first, 1, 1)  # played in one match only: hidden
    path = f"/matches/{first}/live"
    v = live(client, path)
    assert v["final"] is False and 'data-hidden="1"' in v["html"] and f"/matches/{first}/boards/1" not in v["html"]
    assert region(html(client.get(f"/matches/{first}")), "match-live").startswith(v["html"].strip())
    for mid in others:
        play_chunk_with(store, mid, 1, 1)
    shown = live(client, path, seen=v["version"])
    assert shown["version"] != v["version"] and f"/matches/{first}/boards/1" in shown["html"]
    assert live(client, path, seen=shown["version"])["html"] is None


def test_the_lists_live_view_is_final_only_when_no_tournament_runs(client, store: Store, queue):
    assert live(client, "/tournaments/live")["final"] is True  # nothing listed: nothing to wait for
    tid = start(store, queue, {**REQUEST, "boards": 1}, "test")
    v = live(client, "/tournaments/live")
    assert v["final"] is False and f'data-id="{tid}"' in v["html"] and "0/3" in v["html"]
    play_board(store, tid, 1)
    done = live(client, "/tournaments/live", seen=v["version"])
    assert done["final"] is True and "3/3" in done["html"] and "finished" in done["html"]
