"""Figures at a league's size: Redis memory, the ratings refresh, and the API's and pages' speed
as the store grows.

    nice -n 10 python benchmarks/scale.py [--sizes 10000 100000 1000000] [--bots 100]
        [--tournaments 1000] [--runs 30] [--keep FILE | --reuse FILE]

For each size (board pairs stored), a fresh store is seeded by ``seed_store.seed`` with
``--bots`` bots and ``--tournaments`` finished tournaments of the usual formats, in a
Redis of its own (an embedded one on a Unix socket, RDB snapshots off; or ``REDIS_URL``,
whose other clients then blur the memory figures), and measured:

* Redis bytes per stored board pair: ``INFO used_memory`` after seeding less before,
  over the pairs (everything a tournament stores, its ratings evidence included), and
  ``MEMORY USAGE`` of the board records' hashes alone, summed over every match;
* Redis bytes per decision in flight: 1,000 open decisions asked with a real
  observation (``Store.ask``), the ``used_memory`` delta over 1,000;
* the ratings refresh when one more tournament finishes (``add_comparisons`` then
  ``refresh_ratings``, the work ``rate_tournament_end`` does), and the whole refit from
  scratch the seed did (one step of history per tournament);
* the median and p95 server time of the API's list and results routes and of the pages,
  through the Flask app in this process (as ``benchmarks/pages.py``: Redis, computing,
  templating; no network), ``--runs`` times each, and the size of each answer.

With ``REDIS_URL``, ``--keep FILE`` leaves the seeded store in place and writes its
prefix and seeding figures to ``FILE``; ``--reuse FILE`` then measures that store again
without seeding (the memory, refresh and refit figures are the kept run's), so a change
to a page can be measured in seconds rather than a seeding's minutes.

Prints a table per size and one line per figure across the sizes, with the load average.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
import uuid
from dataclasses import asdict
from pathlib import Path
from typing import Any

from redis import Redis

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from seed_store import PAIR_DEALS, Seeded, dropped, redis_for_bench, seed  # noqa: E402

from server.arena.duplicate import play_room  # noqa: E402
from server.arena.store import Store  # noqa: E402
from server.engine import make_ruleset  # noqa: E402
from server.web.app import create_app  # noqa: E402
from workers.bots import make_bot  # noqa: E402

IN_FLIGHT = 1000


def used(redis: Redis) -> int:
    return int(redis.info("memory")["used_memory"])


def record_bytes(store: Store, tids: list[str]) -> int:
    """``MEMORY USAGE`` of every match's board-record hash (exact: ``SAMPLES 0``)."""
    total = 0
    pipe = store.redis.pipeline(transaction=False)
    for tid in tids:
        for mid in store.match_ids(tid):
            pipe.memory_usage(store.key("match", mid, "pairs"), samples=0)
    for value in pipe.execute():
        total += int(value or 0)
    return total


def observations() -> list[dict[str, Any]]:
    """Every observation the rule bot was asked about in one really played room."""
    seen: list[dict[str, Any]] = []

    class Watching:
        def __init__(self) -> None:
            self.bot = make_bot("rule")

        def decide(self, observation: dict[str, Any]) -> dict[str, Any]:
            seen.append(observation)
            return self.bot.decide(observation)

    rules = make_ruleset("american62", {})
    play_room(rules, PAIR_DEALS.board(1), [Watching() for _ in range(rules.players)])
    return seen


def in_flight_bytes(store: Store, bots: list[str]) -> float:
    """Bytes of Redis memory per open decision: ``IN_FLIGHT`` asked, measured, then closed."""
    seen = observations()
    before = used(store.redis)
    for i in range(IN_FLIGHT):
        store.ask(bots[i % len(bots)], f"inflight.m{i % 50}", seen[i % len(seen)], 60_000, 60_000)
    per = (used(store.redis) - before) / IN_FLIGHT
    for pattern in ("decision:*", "bot:*:pending", "match:inflight.*"):
        keys = list(store.redis.scan_iter(match=store.key(pattern), count=1000))
        for i in range(0, len(keys), 1000):
            store.redis.delete(*keys[i : i + 1000])
    return per


def timed(client: Any, path: str, runs: int) -> tuple[float, float, int]:
    client.get(path)  # warm: templates compiled once
    times, size = [], 0
    for _ in range(runs):
        began = time.perf_counter()
        response = client.get(path)
        times.append((time.perf_counter() - began) * 1000)
        assert response.status_code == 200, (path, response.status_code)
        size = len(response.data)
    times.sort()
    return statistics.median(times), times[int(0.95 * (len(times) - 1))], size


def routes(store: Store, done: Seeded) -> list[tuple[str, str]]:
    """(what, path): the API's list and results routes and every kind of page."""
    newest = done.tournaments[-1]
    rr = next(t for t in reversed(done.tournaments) if store.tournament(t)["format"] == "round_robin")
    mid = store.match_ids(rr)[0]
    bot = store.match(mid)["x"]
    playing = set(store.tournament(rr)["bots"])
    quiet = next(b for b in done.bots if b not in playing)
    return [
        ("api tournaments list", "/api/v1/tournaments"),
        ("api tournament", f"/api/v1/tournaments/{rr}"),
        ("api results", f"/api/v1/tournaments/{rr}/results"),
        ("api results (oldest)", f"/api/v1/tournaments/{done.tournaments[0]}/results"),
        ("api matches", f"/api/v1/tournaments/{rr}/matches"),
        ("api board pair", f"/api/v1/matches/{mid}/boards/1"),
        ("api ratings", "/api/v1/ratings/american62"),
        ("api bots", "/api/v1/bots"),
        ("api bot", f"/api/v1/bots/{bot}"),
        ("page leaderboard", "/"),
        ("page tournaments", "/tournaments"),
        ("page tournament", f"/tournaments/{rr}"),
        ("page tournament (newest)", f"/tournaments/{newest}"),
        ("page match", f"/matches/{mid}"),
        ("page board pair", f"/matches/{mid}/boards/1"),
        ("page bot", f"/bots/{bot}"),
        ("page bot (other)", f"/bots/{quiet}"),
    ]


def seeded(store: Store, size: int, args: argparse.Namespace) -> tuple[Seeded, dict[str, Any]]:
    """Seed ``store`` with ``size`` board pairs and time one more tournament's ratings
    refresh: the summary, and the figures only seeding gives (memory, refresh, refit)."""
    redis = store.redis
    before = used(redis)
    done = seed(store, args.bots, args.tournaments, size, hold_last=True)
    after = used(redis)
    records = record_bytes(store, done.tournaments)
    refresh = {}
    for ruleset, pending in done.pending.items():
        began = time.perf_counter()
        store.add_comparisons(ruleset, pending)
        store.refresh_ratings(ruleset)
        refresh[ruleset] = time.perf_counter() - began
    figures = {
        "size": size,
        "pairs": done.pairs,
        "seed_s": done.seconds,
        "refit_s": done.refit_seconds,
        "bytes_per_pair": (after - before) / done.pairs,
        "record_bytes_per_pair": records / done.pairs,
        "used_mb": after / 1e6,
        "refresh": refresh,
    }
    return done, figures


def measure(url: str, where: str, size: int, args: argparse.Namespace) -> dict[str, Any]:
    redis = Redis.from_url(url)
    if args.reuse:
        kept = json.loads(args.reuse.read_text())
        prefix, figures = kept["prefix"], kept["figures"]
        done = Seeded(**{**kept["seeded"], "pending": {}})
    else:
        prefix = f"scale{uuid.uuid4().hex[:8]}"
    store = Store(redis, prefix)
    try:
        if not args.reuse:
            done, figures = seeded(store, size, args)
        if args.keep:
            seeded_fields = {k: v for k, v in asdict(done).items() if k != "pending"}
            args.keep.write_text(json.dumps({"prefix": prefix, "figures": figures, "seeded": seeded_fields}))
        flight = in_flight_bytes(store, done.bots)
        app = create_app({"REDIS_URL": url, "CINCH_PREFIX": prefix, "TESTING": True})
        client = app.test_client()
        timings = {what: (path, *timed(client, path, args.runs)) for what, path in routes(store, done)}
        return {**figures, "in_flight": flight, "timings": timings, "load": os.getloadavg(), "where": where}
    finally:
        if not (args.keep or args.reuse):
            dropped(redis, prefix)


def report(r: dict[str, Any]) -> None:
    print(f"\n== {r['pairs']:,} board pairs ({r['where']}; load average {' '.join(f'{x:.2f}' for x in r['load'])}) ==")
    print(f"  seeded in {r['seed_s']:.0f} s (of which the ratings' refit from scratch {r['refit_s']:.0f} s)")
    print(
        f"  Redis: {r['used_mb']:.0f} MB used, {r['bytes_per_pair']:.0f} bytes per board pair in all "
        f"({r['record_bytes_per_pair']:.0f} of them the board record), {r['in_flight']:.0f} bytes per decision in flight"
    )
    for ruleset, seconds in sorted(r["refresh"].items()):
        print(f"  ratings refresh after one more tournament ({ruleset}): {seconds * 1000:.0f} ms")
    for what, (path, median, p95, size) in r["timings"].items():
        print(f"  {what:26} median {median:6.1f} ms  p95 {p95:6.1f} ms  {size / 1000:7.1f} kB  {path}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000, 1_000_000])
    parser.add_argument("--bots", type=int, default=100)
    parser.add_argument("--tournaments", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument(
        "--keep",
        type=Path,
        help="leave the seeded store (in REDIS_URL's Redis) and write to this file what --reuse reads",
    )
    parser.add_argument("--reuse", type=Path, help="measure the store a --keep run left instead of seeding one")
    args = parser.parse_args()
    if (args.keep or args.reuse) and not os.environ.get("REDIS_URL"):
        parser.error("--keep and --reuse need REDIS_URL: an embedded Redis ends with this run")
    if (args.keep or args.reuse) and len(args.sizes) != 1:
        parser.error("--keep and --reuse measure one size")
    rows = []
    with redis_for_bench() as (url, where):
        if where != "REDIS_URL":
            Redis.from_url(url).config_set("save", "")  # our own server: no snapshot while seeding
        for size in args.sizes:
            rows.append(measure(url, where, size, args))
            report(rows[-1])
    if len(rows) > 1:
        print("\n== across the sizes (board pairs: " + ", ".join(f"{r['pairs']:,}" for r in rows) + ") ==")
        print("  bytes per pair  " + "  ".join(f"{r['bytes_per_pair']:8.0f}" for r in rows))
        rulesets = sorted({k for r in rows for k in r["refresh"]})
        for ruleset in rulesets:
            print(f"  refresh {ruleset:12}" + "  ".join(f"{r['refresh'].get(ruleset, 0) * 1000:6.0f}ms" for r in rows))
        for what in rows[0]["timings"]:
            print(f"  p95 {what:26}" + "  ".join(f"{r['timings'][what][2]:6.1f}ms" for r in rows))


if __name__ == "__main__":
    main()
