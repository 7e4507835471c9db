"""The board-pair page and a table's hand page from Flask's test client: each is served
exactly when the API serves the same cards (a board finished in every match of its
tournament; a table whose game is over), else an HTML page saying why; when served,
both rooms hold the same cards at the same seats, the seating, tricks and numbers are
the stored record's and the engine's."""

import re

from support.pagecheck import html

from server.arena.store import Store
from server.engine import replay
from workers.driver import start
from workers.jobs import play_chunk_with
from workers.table import play_table_with


def rooms(text):
    """Each room section of a page: (key, dealt cards by seat, trick winners, trick main cards)."""
    out = []
    for key, body in re.findall(r'<section class="room" data-room="([^"]+)".*?>(.*?)</section>', text, re.S):
        dealt = {
            seat: re.findall(r'data-card="(\w+)"', cell)
            for seat, cell in re.findall(r'<td class="dealt" data-seat="(\w)">(.*?)</td>', body, re.S)
        }
        winners = re.findall(r'<li class="trick" data-trick="\d" data-winner="(\w)"', body)
        plays = [
            re.findall(
                r'<span class="play[^"]*" data-seat="\w" data-step="t\d+c\d"><b>\w</b> <span class="card[^"]*" '
                r'data-card="(\w+)"',
                trick,
            )
            for trick in re.findall(r'<li class="trick".*?</li>', body, re.S)
        ]
        out.append((key, dealt, winners, plays))
    return out


def check_rooms_against_record(text, record, board):
    shown = rooms(text)
    assert len(shown) == 2
    (_, dealt1, *_), (_, dealt2, *_) = shown
    assert dealt1 == dealt2 and sorted(dealt1) == list("ENSW")
    cards = [c for seat in dealt1.values() for c in seat]
    assert len(cards) == 36 and set(cards) == set(board["deck"][:36])
    for (_, _, winners, plays), room in zip(shown, record["rooms"]):
        assert room["board"] == board
        expected = replay(room)["tricks"]
        assert winners == [t["winner"] for t in expected]
        assert plays == [[p["card"] for p in t["plays"]] for t in expected]


def test_a_two_room_board_is_shown_once_played_with_both_seatings_and_the_score(client, store: Store, queue):
    tid = start(store, queue, {"bots": ["random", "rule"], "boards": 2, "chunk": 2}, "test")
    (mid,) = store.match_ids(tid)
    assert "not finished in every match" in html(client.get(f"/matches/{mid}/boards/1"), 404)
    play_chunk_with(store, mid, 1, 1)
    assert client.get(f"/api/v1/matches/{mid}/boards/2").status_code == 404
    assert "not finished in every match" in html(client.get(f"/matches/{mid}/boards/2"), 404)

    api = client.get(f"/api/v1/matches/{mid}/boards/1").get_json()
    text = html(client.get(f"/matches/{mid}/boards/1"))
    check_rooms_against_record(text, api, store.board(store.match(mid)["deals"], 1).to_dict())
    assert "random at NS, rule at EW" in text and "rule at NS, random at EW" in text
    assert f'href="/tournaments/{tid}"' in text and f'href="/matches/{mid}"' in text
    assert f'id="board-score" data-score="{api["score"]}"' in text
    nets = [int(n) for n in re.findall(r'<b class="net">([+-]\d+)</b>', text)]
    assert len(nets) == 2 and sum(nets) == api["score"]
    assert '<nav class="stepper"' in text and '"key": "t6c4"' in text and "replay.js" in text and "replay.css" in text
    assert re.search(r'<nav class="stepper"[^>]* hidden>', text) and " hidden" not in "".join(
        re.findall(r'<li class="trick"[^>]*>', text)
    )  # without script: no controls, every trick
    html(client.get(f"/matches/{mid}/boards/3"), 404)
    assert "no match" in html(client.get("/matches/nope/boards/1"), 404)


def test_a_blind_board_waits_for_every_entrant_and_labels_the_par_room(client, store: Store, queue):
    tid = start(
        store, queue, {"format": "blind", "bots": ["random", "rule"], "references": ["rule"], "boards": 2}, "test"
    )
    first, second = store.match_ids(tid)
    play_chunk_with(store, first, 1, 2)
    assert store.pair(first, 1) is not None
    assert "not finished in every match" in html(client.get(f"/matches/{first}/boards/1"), 404)
    assert client.get(f"/api/v1/matches/{first}/boards/1").status_code == 404
    play_chunk_with(store, second, 1, 2)

    record = store.pair(first, 1)
    text = html(client.get(f"/matches/{first}/boards/1"))
    check_rooms_against_record(text, record, store.board(store.match(first)["deals"], 1).to_dict())
    assert [key for key, *_ in rooms(text)] == ["entrant", "par"]
    other = "EW" if record["side"] == "NS" else "NS"
    assert f"random at {record['side']}, reference rule at {other}" in text
    assert "reference rule at all four seats" in text and "Par room" in text
    nets = [int(n) for n in re.findall(r'<b class="net">([+-]\d+)</b>', text)]
    assert nets[0] - nets[1] == record["score"]


def test_a_table_hand_is_shown_once_the_game_is_over(client, store: Store):
    seats = {"N": "rule", "E": "random", "S": "rule", "W": "random"}
    spec = {"ruleset": "foster51", "options": {}, "limits": {}, "seed": 1, "deal_seed": "ab" * 16}
    tid = store.create_table(spec, {"N": "rule", "E": "random", "S": "rule"}, "", [], 50, 3)
    assert "once the game is over" in html(client.get(f"/tables/{tid}/hands/1"), 409)
    store.claim_seat(tid, "W", "random", 3)
    assert store.start_table(tid)
    assert "is running" in html(client.get(f"/tables/{tid}/hands/1"), 409)
    assert client.get(f"/api/v1/tables/{tid}/record").status_code == 409
    play_table_with(store, tid)

    hands = client.get(f"/api/v1/tables/{tid}/record").get_json()["hands"]
    assert len(hands) >= 2
    last = len(hands)
    text = html(client.get(f"/tables/{tid}/hands/{last}"))
    ((key, dealt, winners, plays),) = rooms(text)
    record = hands[-1]
    expected = replay(record)
    assert key == "table" and winners == [t["winner"] for t in expected["tricks"]]
    assert plays == [[p["card"] for p in t["plays"]] for t in expected["tricks"]]
    assert sorted(c for seat in dealt.values() for c in seat) == sorted(record["board"]["deck"][:36])
    before = record["scores"]
    assert before == {s: hands[-2]["scores"][s] + hands[-2]["result"]["delta"][s] for s in ("NS", "EW")}
    after = {side: before[side] + record["result"]["delta"][side] for side in before}
    assert (
        f"NS {before['NS']} &middot; EW {before['EW']} &rarr; <b>NS {after['NS']} &middot; EW {after['EW']}</b>" in text
    )
    luck = record["luck"]
    assert f'data-deal="{luck["deal"]}" data-draw="{luck["draw"]}"' in text and "what the players made" in text
    assert all(f'<td class="who">{bot}</td>' in text for bot in set(seats.values()))
    assert f'href="/tables/{tid}"' in text and f'href="/tables/{tid}/hands/{last - 1}"' in text
    assert f"/tables/{tid}/hands/{last + 1}" not in text
    assert "has no hand" in html(client.get(f"/tables/{tid}/hands/{last + 1}"), 404)
    assert "has no hand" in html(client.get(f"/tables/{tid}/hands/0"), 404)
    assert "no table" in html(client.get("/tables/nope/hands/1"), 404)


def test_every_two_unit_ruleset_has_its_board_pages(client, store: Store, queue):
    """A board of each family ruleset played by two units is served as a page: the rooms,
    the seats of the table and the score (the hand pages of any game come from its replay)."""
    for ruleset, options in (
        ("seven_up", {"players": 2}),
        ("pitch", {}),
        ("all_fives", {"players": 2}),
        ("blind_cinch", {}),
        ("sixty_three", {}),
    ):
        tid = start(
            store,
            queue,
            {"bots": ["random", "rule"], "boards": 1, "chunk": 1, "ruleset": ruleset, "options": options},
            "test",
        )
        (mid,) = store.match_ids(tid)
        play_chunk_with(store, mid, 1, 1)
        text = html(client.get(f"/matches/{mid}/boards/1"))
        record = client.get(f"/api/v1/matches/{mid}/boards/1").get_json()
        assert f"{record['score']:+d}" in text or str(record["score"]) in text, ruleset


def replays(text):
    """Each room's replay on a page: (seats whose cards are shown, trick winners, cards played)."""
    out = []
    for body in re.findall(r'<section class="room[^"]*" data-room="[^"]+".*?>(.*?)</section>', text, re.S):
        shown = re.findall(r'<td class="dealt" data-seat="(\w+)">\s*<span class="cards"><span class="card', body)
        winners = re.findall(r'<li class="trick" data-trick="\d+" data-winner="(\w+)"', body)
        plays = re.findall(
            r'<span class="play[^"]*" data-seat="\w+" data-step="t\d+c\d+"><b>\w+</b> <span class="card[^"]*" '
            r'data-card="(\w+)"',
            body,
        )
        out.append((shown, winners, plays))
    return out


def played_board(store, queue, request):
    """The first board of a tournament's first match, played (every match shares it only in
    one-match tournaments, which these are)."""
    tid = start(store, queue, {"boards": 1, "chunk": 1, **request}, "test")
    mid = store.match_ids(tid)[0]
    first = store.match(mid)["first"]
    play_chunk_with(store, mid, first, first)
    return mid, first


def test_every_room_of_a_field_board_and_a_progressive_table_is_replayed(client, store: Store, queue):
    """A board of k entrants (pitch's three single seats, widow_cinch's three sides of two),
    of another game of two units, and a progressive table's board show, below the table of
    nets, each room's hand as the table pages do: every seat's cards, the engine's tricks,
    who sat where."""
    for request in (
        {"ruleset": "pitch", "options": {"players": 3}, "bots": ["random", "rule", "search"]},
        {"ruleset": "widow_cinch", "bots": ["random", "rule", "search"]},
        {"ruleset": "seven_up", "options": {"players": 2}, "bots": ["random", "rule"]},
        {"format": "blind", "ruleset": "all_fives", "options": {"players": 2}, "bots": ["random"]},
    ):
        mid, board = played_board(store, queue, request)
        record = client.get(f"/api/v1/matches/{mid}/boards/{board}").get_json()
        text = html(client.get(f"/matches/{mid}/boards/{board}"))
        shown = replays(text)
        assert len(shown) == len(record["rooms"]) >= 2, request
        for (seats, winners, plays), room in zip(shown, record["rooms"]):
            expected = replay(room)
            assert seats == expected["seats"], request
            assert winners == [t["winner"] for t in expected["tricks"]], request
            assert plays == [p["card"] for t in expected["tricks"] for p in t["plays"]], request
        assert all(f'<td class="who">{bot}</td>' in text for bot in request["bots"]), request


def test_a_progressive_tables_board_replays_its_one_room_with_each_entrant_at_its_seat(client, store: Store, queue):
    tid = start(
        store, queue, {"format": "progressive", "bots": ["random", "rule", "random#2", "rule#2"], "rounds": 1}, "test"
    )
    (mid,) = store.match_ids(tid)
    play_chunk_with(store, mid, 1, 4)
    match = store.match(mid)
    text = html(client.get(f"/matches/{mid}/boards/2"))
    ((seats, winners, plays),) = replays(text)
    assert seats == list("NESW") and len(winners) == 6 and len(plays) >= 24
    who = re.findall(r'<tr data-seat="(\w)"><th scope="row">\w</th><td class="who">([^<]+)</td>', text)
    assert who[:4] == list(zip("NESW", match["entrants"]))
    assert '"key": "t6c4"' in text and '"key": "t7c1"' not in text and "replay.js" in text


def test_a_blind_board_of_single_seats_gives_the_references_every_other_seat(client, store: Store, queue):
    """At pitch's three single seats the entrant holds one and the reference the other two:
    the reference's cell names both, with their score changes and nets summed (the entrant's
    net, negated), so the board score is the difference of the rooms' nets at the entrant's seat."""
    mid, board = played_board(
        store, queue, {"format": "blind", "ruleset": "pitch", "options": {"players": 3}, "bots": ["random"]}
    )
    record = client.get(f"/api/v1/matches/{mid}/boards/{board}").get_json()
    text = html(client.get(f"/matches/{mid}/boards/{board}"))
    side = record["side"]
    for room in record["rooms"]:
        delta = room["result"]["delta"]
        others = [u for u in delta if u != side]
        assert len(others) == 2
        held = ", ".join(others)
        summed = sum(delta[u] for u in others)
        cell = f'data-bot="rule" data-unit="{held}">{held}, {summed:+d}, <b class="net">'
        assert cell in text, held
    nets = [float(n) for n in re.findall(r'<b class="net">([+-][\d.]+)</b>', text)]
    assert len(nets) == 4 and nets[0] == -nets[1] and nets[2] == -nets[3]
    assert round(nets[0] - nets[2], 2) == round(record["score"], 2)
