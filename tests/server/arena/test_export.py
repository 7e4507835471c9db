"""``server.arena.export`` on the test store: a tournament dealt from a secret set exported
with its revealed seed and rebuilt (checked against its commitment), a remote entrant
exported by name and kind only, what is refused before anything is written, and an own
entrant's source never leaving the machine."""

import json

import pytest
from support.backend import fresh_store

from server.arena import dealsets, registry
from server.arena.export import ArchiveError, export_lines, read_archive, restore
from server.arena.registry import builtin_roster
from server.arena.tournaments import finish_if_complete, plan_matches, validate
from server.errors import Conflict
from workers.bots import BUILTIN
from workers.jobs import play_chunk_with


@pytest.fixture
def other(redis_url):
    with fresh_store(redis_url) as store:
        yield store


def _secret_round_robin(store, boards=2):
    deals, commitment = dealsets.secret(boards)
    store.put_dealset(deals)
    spec = validate({"bots": ["random", "rule"], "boards": boards, "deals": deals.name}, builtin_roster(BUILTIN))
    spec["commitment"] = commitment
    tid = store.create_tournament(spec, plan_matches(spec), "test", 60_000)
    for mid in store.match_ids(tid):
        play_chunk_with(store, mid, 1, boards)
    assert finish_if_complete(store, tid)
    return tid, deals


def _reads(store, tid):
    t = store.tournament(tid)
    return {
        "tournament": t,
        "seed": store.dealset_meta(t["deals"])["seed"],
        "results": store.results(tid),
        "pairs": {mid: [store.pair(mid, n) for n in range(1, 3)] for mid in store.match_ids(tid)},
        "ratings": store.ratings("american62"),
        "history": store.rating_history("american62", ["random", "rule"]),
    }


def test_a_secret_set_is_exported_by_its_revealed_seed_and_rebuilt(store, other):
    tid, deals = _secret_round_robin(store)
    lines = export_lines(store, [tid])
    [line] = [json.loads(x) for x in lines if '"type":"deals"' in x]
    assert line == {"type": "deals", "name": deals.name, "source": "secret", "seed": deals.seed}
    assert restore(other, read_archive(lines)) == [tid]
    assert _reads(other, tid) == _reads(store, tid)
    assert other.stored_dealset(deals.name) == deals


def test_a_seed_that_is_not_the_committed_one_is_refused(store, other):
    tid, deals = _secret_round_robin(store)
    lines = [x.replace(deals.seed, "0" * len(deals.seed)) for x in export_lines(store, [tid])]
    with pytest.raises(ArchiveError, match="the seed does not match the commitment"):
        restore(other, read_archive(lines))
    assert not list(other.redis.scan_iter(match=f"{other.prefix}:*"))


def test_an_id_already_stored_refuses_the_lot_and_writes_nothing(store, other):
    tid, _ = _secret_round_robin(store)
    lines = export_lines(store, [tid])
    restore(other, read_archive(lines))
    before = {k: other.redis.type(k) for k in other.redis.scan_iter(match=f"{other.prefix}:*")}
    with pytest.raises(Conflict, match=f"tournament {tid} is already stored here"):
        restore(other, read_archive(lines))
    assert {k: other.redis.type(k) for k in other.redis.scan_iter(match=f"{other.prefix}:*")} == before
    assert restore(other, read_archive(lines), skip_existing=True) == []


def test_an_unfinished_tournament_is_refused_whole(store):
    done, _ = _secret_round_robin(store)
    deals, commitment = dealsets.secret(4)
    store.put_dealset(deals)
    spec = validate({"bots": ["random", "rule"], "boards": 4, "deals": deals.name}, builtin_roster(BUILTIN))
    spec["commitment"] = commitment
    running = store.create_tournament(spec, plan_matches(spec), "test", 60_000)
    play_chunk_with(store, store.match_ids(running)[0], 1, 1)
    with pytest.raises(ArchiveError, match=f"tournament {running} is running: only finished tournaments"):
        export_lines(store, [done, running])


def test_a_remote_entrant_is_exported_by_name_and_kind_never_its_token(store, other):
    registry.ensure_builtins(store, ["rule"])
    token = registry.register(store, "remo", "a remote bot")
    deals = dealsets.generate("remote-export", 2)
    store.put_dealset(deals)
    roster = registry.roster(store)
    spec = validate(
        {
            "format": "blind",
            "bots": ["remo"],
            "references": ["rule"],
            "boards": 2,
            "deals": deals.name,
            "practice": True,
        },
        roster,
    )
    tid = store.create_tournament(spec, plan_matches(spec), "test", 60_000)
    [mid] = store.match_ids(tid)
    store.record_pairs(store.match(mid), [{"board": n, "score": n, "rooms": []} for n in (1, 2)])
    store.finish_tournament(tid, {"standings": []})
    text = "\n".join(export_lines(store, [tid]))
    assert token not in text and registry.token_hash(token) not in text and "token" not in text
    bots = [json.loads(x)["bot"] for x in text.splitlines() if '"type":"bot"' in x]
    assert {b["name"]: b["kind"] for b in bots} == {"remo": "remote", "rule": "builtin"}
    restore(other, read_archive(text.splitlines()))
    assert other.bot("remo") == store.bot("remo")
    assert registry.authenticate(other, token) is None, "an imported bot needs a new token"
    assert other.pair(mid, 2) == store.pair(mid, 2) and other.results(tid) == {"standings": []}


def test_an_own_entrants_source_stays_on_its_machine(store):
    tid, _ = _secret_round_robin(store)
    key = store.key("tournament", tid)
    spec = json.loads(store.redis.hget(key, "spec"))
    spec["local"] = {"rule": {"kind": "cmd", "command": "./secret-bot --key hunter2"}}
    store.redis.hset(key, "spec", json.dumps(spec))
    lines = export_lines(store, [tid])
    assert "hunter2" not in "".join(lines)
    [t] = [json.loads(x) for x in lines if '"type":"tournament"' in x]
    assert t["spec"]["local"] == {"rule": {"kind": "cmd"}}
