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


def test_every_lua_file_is_loaded_by_an_aggregate_or_needed_by_a_script():
    loaded = " ".join(path.read_text(encoding="utf-8") for path in PACKAGE.glob("*.py"))
    needed = " ".join(
        line for path in PACKAGE.glob("*.lua") for line in path.read_text().splitlines() if "needs:" in line
    )
    for path in PACKAGE.glob("*.lua"):
        assert f'lua("{path.name}"' in loaded or path.name in needed, f"{path.name} is never used"


def test_a_closed_decision_keeps_about_a_hundred_bytes_and_still_refuses_a_late_answer(store):
    """At 10,000 decisions a second, ten minutes of closed decisions at the 1 KB they took
    (a hash emptied of its observation keeps its large encoding) would be 6 GB."""
    observation = {"seat": "N", "legal": [{"type": "bid", "value": v} for v in range(15)], "pad": "x" * 2000}
    token = registry.register(store, "late-bot")
    did, now, deadline = store.ask("late-bot", "t1.m1", observation, 50, 0)
    assert store.await_answer(did, "late-bot", deadline, now) is None  # expired at its deadline
    key = store.key("decision", did)
    assert store.redis.memory_usage(key) <= 160 and store.redis.hgetall(key) == {
        b"bot": b"late-bot",
        b"status": b"expired",
    }
    assert store.redis.ttl(key) > 500
    assert (
        store.answer_decision(registry.token_hash(token), did, "late-bot", {"type": "bid", "value": 0})[0] == "expired"
    )
