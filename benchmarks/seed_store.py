"""Fill a store fast with a league's worth of finished tournaments, for the scale benchmarks.

    python benchmarks/seed_store.py [--bots 100] [--tournaments 1000] [--pairs 100000]

Writes through the store's own functions, so the data is what real play stores: the bots
are registered (``registry.register``), each tournament is checked and planned by its
format (``validate``, ``plan_matches``) and created by ``Store.create_tournament``, its
board records are stored by ``Store.record_packed`` (the Lua script real jobs call,
through ``record_pairs``, given the packed bytes: the same bytes, assembled from a
template record's JSON), a blind movement's par rooms by ``Store.put_par_room``, its
rated comparisons by ``Store.add_comparisons`` and its results by
``Store.finish_tournament``, from ``results`` as a finished tournament's are. What is not real is the play: a few boards of
each match kind are really played first (built-in bots, ``workers.jobs.play_chunk_with``,
in a scratch prefix deleted afterwards), and every seeded record is one of those records
under another board number with a made-up score (each bot has a hidden strength, so the
ratings separate them). The ratings are refreshed once at the end, not after every
tournament: a refresh reads every stored comparison, and one per tournament would make
seeding quadratic.

The mix of formats, cycling by tournament: round robins of 5 bots (pair matches),
gauntlets of one candidate against 4 references, blind movements of 5 untrusted
entrants against the ``rule`` reference (par rooms), and 3-player Seven-Up fields of 4
bots (k-entrant matches). The boards per match are chosen so that the board pairs stored
total ``--pairs`` (to within rounding). No Progressive tournament (its rounds are seated
as play goes on).

Importable: ``seed(store, bots, tournaments, pairs)`` returns a ``Seeded`` summary;
``redis_for_bench()`` gives a Redis (``REDIS_URL``, else an embedded one on a Unix
socket) and ``dropped(redis, prefix)`` deletes a prefix's keys.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
import uuid
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from redis import Redis

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from server.arena import dealsets, registry  # noqa: E402
from server.arena.ratings import record as rating_record  # noqa: E402
from server.arena.store import Store  # noqa: E402
from server.arena.tournaments import (  # noqa: E402
    canonical_order,
    cards_of,
    evidence_of,
    plan_matches,
    planned_totals,
    rated_comparisons,
    results,
    validate,
)
from workers.bots import BUILTIN  # noqa: E402
from workers.embedded import EmbeddedRedis  # noqa: E402
from workers.jobs import play_chunk_with  # noqa: E402

TEMPLATE_BOARDS = 6
FIELD_DEALS = dealsets.generate("seed-field-3", 400, name="seed-field-3", players=3)
PAIR_DEALS = dealsets.generate("seed-pairs", 400, name="seed-pairs")

# (request without its bots, how many of the 100 it takes, the template request): one a kind
FORMATS: list[tuple[str, dict[str, Any], int, dict[str, Any]]] = [
    ("round_robin", {}, 5, {"bots": ["random", "rule"]}),
    ("gauntlet", {"format": "gauntlet"}, 5, {"bots": ["random", "rule"]}),
    ("blind", {"format": "blind", "references": ["rule"]}, 5, {"format": "blind", "bots": ["random"]}),
    (
        "field",
        {"ruleset": "seven_up", "options": {"players": 3}},
        4,
        {"ruleset": "seven_up", "options": {"players": 3}, "bots": ["random", "rule", "search-play"]},
    ),
]
CYCLE = ["round_robin"] * 5 + ["gauntlet"] * 2 + ["blind", "field", "round_robin"]


@dataclass
class Template:
    """Really played records of one match kind (and the blind movement's par rooms), and
    each record's values as JSON: a seeded record is one of them with another board and
    score, so its JSON is assembled from these (``made``) rather than encoded afresh
    (the rooms are nearly all of a record's 3.6 kB, and encoding them was most of seeding
    10^6 board pairs)."""

    records: list[dict[str, Any]]
    par: dict[int, dict[str, Any]] = field(default_factory=dict)
    encoded: list[dict[str, str]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.encoded = [{k: _json(v) for k, v in r.items()} for r in self.records]

    def made(self, n: int, changed: dict[str, Any]) -> tuple[dict[str, Any], bytes]:
        """The record for board ``n`` (the template record of that board, with the values of
        ``changed`` in place of its own) and its ``packing.pack``, the same bytes."""
        i = n % len(self.records)
        record = {**self.records[i], **changed}
        encoded = self.encoded[i]
        text = ",".join(f"{_json(k)}:{_json(changed[k]) if k in changed else encoded[k]}" for k in record)
        return record, zlib.compress(("{" + text + "}").encode("utf-8"))


def _json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


@dataclass
class Seeded:
    bots: list[str]
    tournaments: list[str]
    pairs: int
    seconds: float
    rulesets: list[str]
    refit_seconds: float
    pending: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    """With ``hold_last``: the last tournament's rated comparisons, by ruleset, not stored yet."""


def dropped(redis: Redis, prefix: str) -> None:
    keys = list(redis.scan_iter(match=f"{prefix}:*", count=1000))
    for i in range(0, len(keys), 1000):
        redis.delete(*keys[i : i + 1000])


@contextmanager
def redis_for_bench() -> Iterator[tuple[str, str]]:
    """(url, what it is): ``REDIS_URL`` when set, else an embedded Redis on a Unix socket."""
    if os.environ.get("REDIS_URL"):
        yield os.environ["REDIS_URL"], "REDIS_URL"
        return
    embedded = EmbeddedRedis(Path(tempfile.mkdtemp()))
    try:
        yield embedded.acquire(), "embedded Redis"
    finally:
        embedded.release()


def deals_for(request: dict[str, Any]):
    return FIELD_DEALS if request.get("options", {}).get("players") == 3 else PAIR_DEALS


def templates(redis: Redis) -> dict[str, Template]:
    """Really played records, by format of the ``FORMATS`` list, in a scratch prefix."""
    prefix = f"seedtmpl{uuid.uuid4().hex[:8]}"
    store = Store(redis, prefix)
    registry.ensure_builtins(store, BUILTIN)
    out = {}
    try:
        for name, _, _, request in FORMATS:
            deals = deals_for(request)
            store.put_dealset(deals)
            spec = validate({**request, "deals": deals.name, "boards": TEMPLATE_BOARDS}, registry.roster(store))
            tid = store.create_tournament(spec, plan_matches(spec), "seed", 600_000, planned_totals(spec))
            mid = store.match_ids(tid)[0]
            play_chunk_with(store, mid, spec["first"], spec["first"] + TEMPLATE_BOARDS - 1)
            dump = store.match_dump(mid)
            par = store.tournament_dump(tid)["par"]
            out[name] = Template([dump["pairs"][n] for n in sorted(dump["pairs"])], par)
    finally:
        dropped(redis, prefix)
    return out


def made_up(
    kind: str, template: Template, match: dict[str, Any], n: int, strength: dict[str, float], rng: random.Random
) -> tuple[dict[str, Any], bytes]:
    """A record for board ``n`` of ``match``, a template record with a made-up score, and
    its ``pack`` (``Store.record_packed``)."""
    base = template.records[n % len(template.records)]
    changed: dict[str, Any] = {"board": n}
    if kind == "field":
        entrants = match["entrants"]
        raw = [rng.gauss(strength.get(b, 0.0), 8) for b in entrants]
        mean = sum(raw) / len(raw)
        ints = [round(r - mean) for r in raw[:-1]]
        changed["entrant_scores"] = [*ints, -sum(ints)]
    else:
        edge = strength.get(match["x"], 0.0) - strength.get(match["y"], 0.0)
        changed["score"] = round(rng.gauss(edge, 12))
        if "luck" in base:
            changed["luck"] = round(rng.gauss(0, 3), 3)
    return template.made(n, changed)


def seed(
    store: Store, bots: int = 100, tournaments: int = 1000, pairs: int = 100_000, hold_last: bool = False
) -> Seeded:
    """Store ``bots`` remote bots and ``tournaments`` finished tournaments holding about
    ``pairs`` board records in all (see the module's docstring), then refresh the ratings.
    With ``hold_last``, the last tournament's comparisons are left for the caller to rate
    (``Seeded.pending``), so that it can time the refresh a finished tournament makes."""
    began = time.perf_counter()
    rng = random.Random(1)
    tmpl = templates(store.redis)
    registry.ensure_builtins(store, BUILTIN)
    names = [f"league{i:03d}" for i in range(bots)]
    for name in names:
        registry.register(store, name)
        store.set_bot_fields(name, trusted=True)
    strength = {name: rng.gauss(0, 4) for name in names}
    for deals in (PAIR_DEALS, FIELD_DEALS):
        store.put_dealset(deals)
    roster = registry.roster(store)
    by_name = {f[0]: f for f in FORMATS}
    # board pairs one tournament of each format stores per board of its matches (its matches)
    per_board = {"round_robin": 10, "gauntlet": 4, "blind": 5, "field": 4}
    stored, tids, rulesets = 0, [], set()
    comparisons: dict[str, list[dict[str, Any]]] = {}
    pending: dict[str, list[dict[str, Any]]] = {}
    for i in range(tournaments):
        fmt = CYCLE[i % len(CYCLE)]
        _, request, size, _ = by_name[fmt]
        chosen = rng.sample(names, size)
        if fmt == "gauntlet":
            request = {**request, "candidates": chosen[:1], "references": chosen[1:]}
        else:
            request = {**request, "bots": chosen}
        deals = deals_for(request)
        # each tournament's boards so that the pairs stored so far follow the target
        wanted = round(pairs * (i + 1) / tournaments) - stored
        boards = max(1, min(len(deals.boards), round(wanted / per_board[fmt])))
        spec = validate({**request, "deals": deals.name, "boards": boards, "practice": True}, roster)
        matches = plan_matches(spec)
        tid = store.create_tournament(spec, matches, "seed", 600_000, planned_totals(spec))
        tids.append(tid)  # ``matches`` now carry their ids, as stored: no need to read them back
        parred: set[int] = set()
        for match in matches:
            numbers = range(match["first"], match["last"] + 1)
            if fmt == "blind":  # one par room a board, whichever entrant's match reaches it
                for n in set(numbers) - parred:
                    store.put_par_room(tid, n, tmpl[fmt].par[min(tmpl[fmt].par) + n % len(tmpl[fmt].par)])
                parred.update(numbers)
            added, _ = store.record_packed(match, [made_up(fmt, tmpl[fmt], match, n, strength, rng) for n in numbers])
            stored += added
        when = time.time()  # as ``rate`` stamps a finished tournament's comparisons
        rated = pending if hold_last and i == tournaments - 1 else comparisons
        for c, scores in rated_comparisons(store, [m["id"] for m in matches]):
            if c["x"] != c["y"]:
                rated.setdefault(c["ruleset"], []).append(
                    rating_record(
                        c["id"], canonical_order(c), c["x"], c["y"], evidence_of(c), scores, when, cards_of(c)
                    )
                )
        store.finish_tournament(tid, results(store, tid))
        rulesets.add(spec["ruleset"])
    refit = time.perf_counter()
    for ruleset, records in comparisons.items():
        for j in range(0, len(records), 2000):
            store.add_comparisons(ruleset, records[j : j + 2000])
        store.refresh_ratings(ruleset)
    now = time.perf_counter()
    return Seeded(names, tids, stored, now - began, sorted(rulesets), now - refit, pending)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bots", type=int, default=100)
    parser.add_argument("--tournaments", type=int, default=1000)
    parser.add_argument("--pairs", type=int, default=100_000)
    parser.add_argument("--keep", action="store_true", help="leave the seeded keys (prints the prefix)")
    args = parser.parse_args()
    with redis_for_bench() as (url, where):
        redis = Redis.from_url(url)
        prefix = f"seed{uuid.uuid4().hex[:8]}"
        try:
            done = seed(Store(redis, prefix), args.bots, args.tournaments, args.pairs)
            print(
                f"{len(done.bots)} bots, {len(done.tournaments)} tournaments, {done.pairs} board pairs "
                f"in {done.seconds:.1f} s ({where}, prefix {prefix})"
            )
        finally:
            if not args.keep:
                dropped(redis, prefix)


if __name__ == "__main__":
    main()
