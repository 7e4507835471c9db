"""The store's Lua scripts: files beside their aggregates, each shared function prefixed once."""

from pathlib import Path

import server.arena.store
from server.arena import registry
from server.arena.store.base import lua

PACKAGE = Path(server.arena.store.__file__).parent


def test_a_script_gets_the_functions_it_needs_once_each_before_its_own_text():
    source = lua("answer.lua", CLOSED_TTL=60)
    for function in ("clock", "open_list", "set_of", "token_bot", "seen", "close"):
        assert source.count(f"local function {function}(") == 1
    assert source.index("local function clock(") < source.index("local function open_list(")
    assert "CLOSED_TTL" not in source and "'answered', 60)" in source
    assert source.count("local function clock(") == 1  # needed by open_list and close alike


def test_every_lua_file_is_loaded_by_an_aggregate_or_needed_by_a_script():
    loaded = " ".join(path.read_text(encoding="utf-8") for path in PACKAGE.glob("*.py"))
    needed = " ".join(
        line for path in PACKAGE.glob("*.lua") for line in path.read_text().splitlines() if "needs:" in line
    )
    for path in PACKAGE.glob("*.lua"):
        assert f'lua("{path.name}"' in loaded or path.name in needed, f"{path.name} is never used"


def test_a_closed_decision_keeps_about_a_hundred_bytes_and_still_refuses_a_late_answer(store):
    """At 10,000 decisions a second, ten minutes of closed decisions at the 1 KB they took
    (a hash emptied of its observation keeps its large encoding) would be 6 GB; at the
    180 bytes of a key of their own, 1 GB. Measured as Redis's own count of its memory
    over 3,000 of a busy bot's closed decisions, every per-key cost included."""
    observation = {"seat": "N", "legal": [{"type": "bid", "value": v} for v in range(15)], "pad": "x" * 2000}
    token = registry.register(store, "late-bot")
    did, now, deadline = store.ask("late-bot", "t1.m1", observation, 50, 0)
    assert store.await_answer(did, "late-bot", deadline, now) is None  # expired at its deadline
    assert not store.redis.exists(store.key("decision", did))
    (bucket,) = store.redis.keys(store.key("bot", "late-bot", "closed", "*"))
    assert store.redis.hvals(bucket) == [b"e"] and store.redis.ttl(bucket) >= 600
    late = store.answer_decision(registry.token_hash(token), did, "late-bot", {"type": "bid", "value": 0})
    assert late[0] == "expired"
    assert store.answer_context(registry.token_hash(token), did)[1] == {
        "bot": "late-bot",
        "status": "expired",
        "legal": [],
        "seat": "",
    }

    before = store.redis.info("memory")["used_memory"]
    dids = []
    for _ in range(3000):
        did, _, _ = store.ask("late-bot", "t1.m1", {"seat": "N", "legal": []}, 60000, 0)
        dids.append(did)
        assert (
            store.answer_decision(registry.token_hash(token), did, "late-bot", {"type": "bid", "value": 0})[0] == "ok"
        )
    store.redis.delete(*(store.key("decision", d, "answer") for d in dids))  # the worker's to take
    per_decision = (store.redis.info("memory")["used_memory"] - before) / len(dids)
    print(f"{per_decision:.0f} bytes per closed decision")
    assert per_decision <= 125, per_decision  # 108 measured alone; Redis's count moves a little with what else it holds


def test_a_closed_decision_is_found_only_among_its_own_bots(store):
    """Another bot holding the id learns nothing of it: 404 as for an id never made."""
    mine, theirs = registry.register(store, "owner"), registry.register(store, "other")
    did, _, _ = store.ask("owner", "m1", {"seat": "N", "legal": []}, 60000, 0)
    assert store.answer_decision(registry.token_hash(mine), did, "owner", {"type": "bid", "value": 0})[0] == "ok"
    assert store.answer_decision(registry.token_hash(theirs), did, "other", {"type": "bid", "value": 0})[0] == "missing"
    assert store.answer_context(registry.token_hash(theirs), did) == ("other", None)
    assert store.answer_decision(registry.token_hash(mine), did, "owner", {"type": "bid", "value": 0})[0] == "answered"
