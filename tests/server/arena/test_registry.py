"""Bot registration: tokens shown once, stored only as hashes, safe on a command line."""

import pytest

from server.arena import registry


def test_tokens_are_prefixed_and_never_stored_in_clear(store):
    tokens = [registry.register(store, f"bot{i}") for i in range(40)]
    assert all(t.startswith("cinch_") for t in tokens)  # never a leading '-' for argparse
    stored = b" ".join(
        v
        for k in store.redis.scan_iter(match=f"{store.prefix}:*")
        if store.redis.type(k) == b"string"
        for v in [store.redis.get(k)]
    )
    stored += b" ".join(
        v
        for k in store.redis.scan_iter(match=f"{store.prefix}:bot:*")
        if store.redis.type(k) == b"hash"
        for v in store.redis.hvals(k)
    )
    assert not any(t.encode() in stored for t in tokens)
    assert registry.authenticate(store, tokens[0]) == "bot0"


def test_rotation_and_disabling_take_effect_at_once(store):
    old = registry.register(store, "rotor")
    new = registry.rotate(store, "rotor")
    assert registry.authenticate(store, old) is None and registry.authenticate(store, new) == "rotor"
    store.set_bot_fields("rotor", status="disabled")
    assert registry.authenticate(store, new) is None


@pytest.mark.parametrize("name", ["A", "x", "1bot", "bad name", "a" * 40])
def test_bad_names_are_refused(store, name):
    with pytest.raises(registry.RegistryError, match="name must be"):
        registry.register(store, name)
