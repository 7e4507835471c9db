"""A tournament page's time controls, its deal-set commitment and seed, and its downloads:
the results as the API's JSON, the standings as CSV, and the hand records of the boards
finished in every match as JSON Lines (each line a ``cinch replay`` input). In-process,
tournaments really played."""

from __future__ import annotations

import csv
import io
import json
import re
from html import unescape

from support.pagecheck import html
from support.seeded import play_out

from server.arena.store import Store
from server.engine.replay import audit
from server.web.pages.downloads import STANDINGS_COLUMNS
from server.web.pages.matches import visible_boards
from workers.driver import start
from workers.jobs import play_chunk_with


def text_of(page: str) -> str:
    return unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", page)))


def lines_of(client, tid: str) -> list[dict]:
    r = client.get(f"/tournaments/{tid}/hands.jsonl")
    assert r.status_code == 200 and r.mimetype == "application/jsonl"
    assert f'filename="tournament-{tid}-hands.jsonl"' in r.headers["Content-Disposition"]
    body = r.get_data(as_text=True)
    assert body == "" or body.endswith("\n")
    return [json.loads(line) for line in body.splitlines()]


def test_the_settings_show_the_time_controls_and_the_commitment_then_the_seed(client, store: Store, queue):
    tid = start(
        store,
        queue,
        {
            "bots": ["random", "rule"],
            "boards": 2,
            "chunk": 2,
            "deals": "secret",
            "limits": {"decision_ms": 250, "max_timeouts": 5},
        },
        "test",
    )
    t = client.get(f"/api/v1/tournaments/{tid}").get_json()
    page = html(client.get(f"/tournaments/{tid}"))
    controls = dict(re.findall(r'<li data-limit="(\w+)" data-value="(\d+)">', page))
    assert controls == {"decision_ms": "250", "bank_ms": "60000", "max_timeouts": "5"}
    shown = text_of(page[page.index('id="time-controls"') : page.index("</dd>", page.index('id="time-controls"'))])
    assert "per decision: 0.25 s " in shown and "timeouts before faulty: 5 " in shown
    assert "time bank, per bot and match: 1 min (arena default)" in shown, "not set: the default, said so"
    c = t["commitment"]
    assert c and t["deals_seed"] is None
    assert (
        f'data-field="seed_sha256">{c["seed_sha256"]}<' in page
        and f'data-field="deals_sha256">{c["deals_sha256"]}<' in page
    )
    assert "revealed here once the tournament is finished" in page and 'id="deals-seed"' not in page

    play_out(store, queue, tid)
    seed = client.get(f"/api/v1/tournaments/{tid}").get_json()["deals_seed"]
    page = html(client.get(f"/tournaments/{tid}"))
    assert seed and f'<dd id="deals-seed"><code>{seed}</code>' in page
    assert f"cinch deals verify --seed {seed} --commitment {c['seed_sha256']} --boards {c['boards']}" in page
    assert "revealed here once" not in page


def test_the_page_links_its_results_as_json_and_csv_and_its_hands_as_json_lines(client, store: Store, queue):
    tid = start(store, queue, {"bots": ["random", "rule", "search"], "boards": 2, "chunk": 2}, "test")
    play_out(store, queue, tid)
    page = html(client.get(f"/tournaments/{tid}"))
    links = re.findall(r'<ul id="downloads".*?</ul>', page, re.S)[0]
    assert re.findall(r'href="([^"]+)"', links) == [
        f"/api/v1/tournaments/{tid}/results",
        f"/tournaments/{tid}/results.csv",
        f"/tournaments/{tid}/hands.jsonl",
    ]
    results = client.get(f"/api/v1/tournaments/{tid}/results").get_json()

    r = client.get(f"/tournaments/{tid}/results.csv")
    assert r.status_code == 200 and r.mimetype == "text/csv"
    rows = list(csv.DictReader(io.StringIO(r.get_data(as_text=True))))
    assert list(rows[0]) == list(STANDINGS_COLUMNS) and len(rows) == len(results["standings"]) == 3
    for rank, (row, served) in enumerate(zip(rows, results["standings"], strict=True), 1):
        assert int(row["rank"]) == rank and row["bot"] == served["bot"]
        assert float(row["mean"]) == served["mean"] and float(row["ci_low"]) == served["ci_low"]
        assert float(row["ci_high"]) == served["ci_high"] and int(row["boards"]) == served["boards"] == 4
        assert row["last_table"] == "", "not a progressive tournament"

    lines = lines_of(client, tid)
    expected = []
    for mid in store.match_ids(tid):
        for board in sorted(store.stored_boards(mid)):
            expected += [(mid, board, n, room) for n, room in enumerate(store.pair(mid, board)["rooms"], 1)]
    assert len(lines) == len(expected) == 3 * 2 * 2, "three matches, two boards, two rooms"
    for line, (mid, board, n, room) in zip(lines, expected, strict=True):
        assert (line["match"], line["board_number"], line["room"]) == (mid, board, n)
        assert {k: line[k] for k in room} == room, "the stored room's record, as it is"
        audit(line)  # cinch replay's auditor: every action legal, the stored result reached
    assert "no tournament" in html(client.get("/tournaments/nope/results.csv"), 404)
    assert "no tournament" in html(client.get("/tournaments/nope/hands.jsonl"), 404)


def test_the_hand_records_hold_only_boards_finished_in_every_match(client, store: Store, queue):
    tid = start(store, queue, {"bots": ["random", "rule", "search-play"], "boards": 2, "chunk": 1}, "test")
    first, second, third = store.match_ids(tid)
    play_chunk_with(store, first, 1, 2)
    play_chunk_with(store, second, 1, 1)
    assert lines_of(client, tid) == [], "no board is finished in the third match"
    rows = list(csv.DictReader(io.StringIO(client.get(f"/tournaments/{tid}/results.csv").get_data(as_text=True))))
    assert [(r["boards"], r["ci_low"], r["ci_high"]) for r in rows] == [("0", "", "")] * 3, (
        "no board counts before it is finished everywhere: no interval either"
    )
    play_chunk_with(store, third, 1, 1)
    assert visible_boards(store, tid, [1, 2]) == [1]
    lines = lines_of(client, tid)
    assert {(line["match"], line["board_number"]) for line in lines} == {(m, 1) for m in (first, second, third)}
    assert len(lines) == 6 and all(line["board_number"] == 1 for line in lines), "board 2 of the first stays hidden"
