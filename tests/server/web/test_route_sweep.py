"""Every GET route, read with a bot's token mid-tournament in every format, shows nothing
of a board that is not finished everywhere (the one visibility rule, docs/fair-play.md).

The test is differential: it reads every route, then changes every stored score, luck and
room result of the boards played so far (none finished in every match) and reads every
route again. Whatever depends on those boards (a score, a total, a mean, an interval, a
won/tied/lost count, a table's result, a chart) would change; counts of boards played
may show, and are the same in both readings. Then one board is finished everywhere and
the sweep must see it change, which is what shows it can fail.
"""

from __future__ import annotations

import json
import re

import pytest

from server.arena import dealsets
from server.arena.registry import builtin_roster
from server.arena.store.packing import unpack
from server.arena.tournaments import plan_matches, planned_totals, validate
from server.web.app import create_app
from workers.bots import BUILTIN
from workers.jobs import play_chunk_with

pytestmark = pytest.mark.e2e

DEALS = dealsets.generate("route-sweep", 8)
FIELD_DEALS = dealsets.generate("route-sweep-3", 8, players=3)
PROGRESSIVE_BOTS = ["random", "rule", "search", "rule#2", "random#2", "search#2", "rule#3", "random#3"]
SKIPPED = ("/static/", "/assets/", "/docs/", "/api/v1/docs", "/api/v1/openapi.json", "/api/v1/decisions/next")

# (request, which matches play which boards before the sweep): no board is finished in
# every match, and each format has a match that has played some
FORMATS = {
    "round_robin": ({"bots": ["random", "rule", "search"], "boards": 4, "chunk": 4}, {0: 4, 1: 2}),
    "gauntlet": (
        {"format": "gauntlet", "candidates": ["search"], "references": ["random", "rule"], "boards": 4},
        {0: 4},
    ),
    "blind": ({"format": "blind", "bots": ["random", "search"], "boards": 4}, {0: 4, 1: 0}),
    "progressive": ({"format": "progressive", "bots": PROGRESSIVE_BOTS, "rounds": 2}, {0: 4}),
    "field": (
        {
            "ruleset": "seven_up",
            "options": {"players": 3},
            "bots": ["random", "rule", "search", "search-play"],
            "boards": 4,
        },
        {0: 4, 1: 2},
    ),
}


def create(store, request):
    deals = FIELD_DEALS if request.get("options", {}).get("players") == 3 else DEALS
    store.put_dealset(deals)
    spec = validate({**request, "deals": deals.name}, builtin_roster(BUILTIN))
    seed = deals.seed if spec["format"] == "progressive" else None
    return store.create_tournament(spec, plan_matches(spec, seed), "test", 60_000, planned_totals(spec))


def urls(app, store, tid):
    """Every GET route with every value its arguments take in this arena."""
    t = store.tournament(tid)
    values = {
        "tid": [tid],
        "mid": store.match_ids(tid),
        "board": list(range(t["first"], t["first"] + t["boards"])),
        "name": ["random", "search", "atta"],
        "bot": ["random", "search"],
        "ruleset": [t["ruleset"]],
        "number": [1],
    }
    out = []
    for rule in app.url_map.iter_rules():
        if "GET" not in rule.methods or rule.rule.startswith(SKIPPED):
            continue
        paths = [rule.rule]
        for arg in rule.arguments:
            paths = [re.sub(rf"<(\w+:)?{arg}>", str(v), p) for p in paths for v in values[arg]]
        out += paths
    return sorted(set(out))


SEEN = re.compile(r'<dd data-field="seen">[^<]*</dd>')  # when the sweeping bot was last seen: the sweep moves it


def sweep(api, token, paths):
    return {p: (r.status_code, SEEN.sub("", r.text)) for p in paths for r in [api.call("GET", p, token)]}


def tamper(store, tid):
    """Change every score, luck and result stored for the tournament's boards."""
    r = store.redis
    for mid in store.match_ids(tid):
        for key in ("scores", "luck"):
            for board, raw in r.hgetall(store.key("match", mid, key)).items():
                r.hset(store.key("match", mid, key), board, json.dumps(shifted(json.loads(raw))))
        for board, raw in r.hgetall(store.key("match", mid, "pairs")).items():
            r.hset(store.key("match", mid, "pairs"), board, json.dumps(shifted_record(unpack(raw))))
    par = store.key("tournament", tid, "par")
    for board, raw in r.hgetall(par).items():
        r.hset(par, board, json.dumps(shifted_record(unpack(raw))))


def shifted(value):
    if isinstance(value, list):
        return [shifted(v) for v in value]
    return value + 17 if isinstance(value, (int, float)) and not isinstance(value, bool) else value


def shifted_record(record):
    """Every number under a score, delta, points or luck key, anywhere in the record."""
    if isinstance(record, dict):
        return {
            k: shifted(v)
            if k in ("score", "entrant_scores", "luck")
            else (
                {s: shifted(d) for s, d in v.items()}
                if k in ("delta", "points") and isinstance(v, dict)
                else shifted_record(v)
            )
            for k, v in record.items()
        }
    if isinstance(record, list):
        return [shifted_record(v) for v in record]
    return record


@pytest.mark.parametrize("name", list(FORMATS))
def test_no_route_shows_a_board_not_finished_everywhere(api, store, redis_url, name):
    request, played = FORMATS[name]
    token = api.register("atta")
    tid = create(store, request)
    mids = store.match_ids(tid)
    first = store.tournament(tid)["first"]
    for index, boards in played.items():
        if boards:
            play_chunk_with(store, mids[index], first, first + boards - 1)
    app = create_app({"REDIS_URL": redis_url, "CINCH_PREFIX": store.prefix, "CINCH_QUEUE": store.queue_name})
    paths = urls(app, store, tid)
    assert any("/results" in p for p in paths) and any("/tournaments/" in p and "/api/" not in p for p in paths)
    before = sweep(api, token, paths)
    tamper(store, tid)
    after = sweep(api, token, paths)
    changed = [p for p in paths if before[p] != after[p]]
    assert not changed, f"{name}: these routes change with the scores of unfinished boards: {changed}"

    # the sweep sees a change once a board is finished everywhere
    for mid in mids:
        play_chunk_with(store, mid, first, first + 3)
    finished = sweep(api, token, paths)
    assert any(finished[p] != after[p] for p in paths if "/results" in p)
