"""The store's Lua scripts: files beside their aggregates, each shared function prefixed once."""

from pathlib import Path

import server.arena.store
from server.arena.store.base import lua

PACKAGE = Path(server.arena.store.__file__).parent


def test_a_script_gets_the_functions_it_needs_once_each_before_its_own_text():
    source = lua("answer.lua", CLOSED_TTL=60)
    for function in ("clock", "open_list", "set_of", "token_bot", "seen"):
        assert source.count(f"local function {function}(") == 1
    assert source.index("local function clock(") < source.index("local function open_list(")
    assert "CLOSED_TTL" not in source and "EXPIRE', KEYS[1], 60)" in source


def test_every_lua_file_is_loaded_by_an_aggregate_or_needed_by_a_script():
    loaded = " ".join(path.read_text(encoding="utf-8") for path in PACKAGE.glob("*.py"))
    needed = " ".join(
        line for path in PACKAGE.glob("*.lua") for line in path.read_text().splitlines() if "needs:" in line
    )
    for path in PACKAGE.glob("*.lua"):
        assert f'lua("{path.name}"' in loaded or path.name in needed, f"{path.name} is never used"
