"""A bot's page over matches of k entrants and progressive tables (Flask's test client): its
recent matches read from the bot's own entrant (its mean, the others as opponents, a house
copy ``random#2`` linked to ``random``), and its replaced decisions found at the seats its
entrant held in each room."""

import json
import re

from support.pagecheck import html

from server.arena.store import Store
from workers.driver import start
from workers.jobs import play_chunk_with


def played(store, queue, request, boards):
    tid = start(store, queue, request, "test")
    (mid,) = store.match_ids(tid)
    play_chunk_with(store, mid, 1, boards)
    return tid, mid


def plant_fault(store, mid, board, room, seat):
    """A replaced decision at ``seat`` in ``room`` of a stored board, as the driver records one."""
    record = store.pair(mid, board)
    record["rooms"][room].setdefault("faults", []).append({"seat": seat, "index": 3, "error": f"planted at {seat}"})
    store.redis.hset(store.key("match", mid, "pairs"), str(board), json.dumps(record))


def row(text, mid):
    match = re.search(rf'<tr data-match="{re.escape(mid)}">(.*?)</tr>', text, re.S)
    assert match, f"no row for {mid}"
    return match.group(1)


def test_a_bots_page_reads_a_field_match_and_a_progressive_table_from_its_own_seats(client, store: Store, queue):
    field_request = {"ruleset": "pitch", "options": {"players": 3}, "bots": ["rule", "search", "random"]}
    field_tid, field = played(store, queue, {**field_request, "boards": 2, "chunk": 2}, 2)
    entrants = ["rule", "random", "search", "random#2"]
    table_tid, table = played(store, queue, {"format": "progressive", "bots": entrants, "rounds": 1}, 4)
    units = store.pair(field, 1)["rooms"][1]["units"]  # room 2: the seat each entrant held
    plant_fault(store, field, 1, 1, units[1])  # search's seat
    plant_fault(store, field, 1, 1, units[0])  # rule's seat: not search's fault
    seated = store.match(table)["entrants"]  # N, E, S, W
    plant_fault(store, table, 2, 0, "NESW"[seated.index("random#2")])

    text = html(client.get("/bots/search"))  # a progressive table among its newest matches
    stats = {m["id"]: m for m in client.get(f"/api/v1/tournaments/{field_tid}/matches").get_json()}
    own = next(s for s in stats[field]["entrant_stats"] if s["bot"] == "search")
    assert float(re.search(r'data-mean="([^"]+)"', row(text, field)).group(1)) == own["mean"]
    assert re.findall(r'href="/bots/(\w+)"', row(text, field)) == ["rule", "random"]
    assert f"planted at {units[1]}" in text and f"planted at {units[0]}" not in text
    assert re.search(r'data-replaced="1"', text)

    text = html(client.get("/bots/random"))
    linked = re.findall(r'href="/bots/([^"]+)"', row(text, table))
    assert "%23" not in text and sorted(linked) == sorted(b for b in ("rule", "search", "random") if b in seated)
    assert f"planted at {'NESW'[seated.index('random#2')]}" in text, "a house copy's fault is its bot's"
    for link in set(re.findall(r'href="(/bots/[^"]+)"', text)):
        html(client.get(link))
    assert table_tid != field_tid
