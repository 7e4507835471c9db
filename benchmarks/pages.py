"""Page speed: how long the server takes to render the leaderboard and a big tournament page.

    python benchmarks/pages.py [--bots 10] [--boards 20] [--runs 50]

Stores a finished round robin of N remote bots (10 bots: 45 matches) with made-up board
scores, except the first match, whose boards are really played (by the built-in rule
and random bots, so its board-pair pages have real rooms), rated as real matches are, in
a real Redis (``REDIS_URL`` or an embedded one, under a prefix of its own that is deleted
afterwards). Then renders the leaderboard, the tournament list, the tournament page, the
first match's page and its first board pair, and the first bot's page through the Flask
app in this process (the server-side time: reading Redis, computing, templating; no
network) ``--runs`` times each, and prints the median and the 95th percentile.

The same pages and the API's at a league's size (1,000 tournaments, 100 bots, 100,000
board pairs, seeded by ``benchmarks/seed_store.py``): ``benchmarks/scale.py --sizes 100000``.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

from redis import Redis

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from server.arena import dealsets, registry  # noqa: E402
from server.arena.duplicate import play_pairs  # noqa: E402
from server.arena.store import Store  # noqa: E402
from server.arena.tournaments import after_match_progress, plan_matches, validate  # noqa: E402
from server.engine import make_ruleset  # noqa: E402
from server.web.app import create_app  # noqa: E402
from workers.bots import make_bot  # noqa: E402
from workers.embedded import EmbeddedRedis  # noqa: E402


def populate(store: Store, bots: int, boards: int) -> str:
    """A finished round robin of ``bots`` trusted remote bots over ``boards`` boards."""
    names = [f"bench{i:02d}" for i in range(bots)]
    for name in names:
        registry.register(store, name)
        store.set_bot_fields(name, trusted=True)
    deals = dealsets.load("standard")
    spec = validate({"bots": names, "boards": boards, "deals": deals.name, "practice": True}, registry.roster(store))
    store.put_dealset(deals)
    tid = store.create_tournament(spec, plan_matches(spec), "bench", 600_000)
    rng = random.Random(1)
    rules = make_ruleset(spec["ruleset"], spec["options"])
    for index, mid in enumerate(store.match_ids(tid)):
        match = store.match(mid)
        if index == 0:
            records = list(
                play_pairs(
                    rules, [(n, deals.board(n)) for n in range(1, boards + 1)], make_bot("rule"), make_bot("random")
                )
            )
        else:
            edge = names.index(match["y"]) - names.index(match["x"])
            records = [
                {"board": n, "score": rng.randint(-30, 30) + edge, "rooms": [{"faults": []}] * 2}
                for n in range(1, boards + 1)
            ]
        store.record_pairs(match, records)
        after_match_progress(store, store.match(mid))
    return tid


def timed(client, path: str, runs: int) -> tuple[float, float]:
    times = []
    for _ in range(runs):
        began = time.perf_counter()
        response = client.get(path)
        times.append((time.perf_counter() - began) * 1000)
        assert response.status_code == 200, (path, response.status_code)
    times.sort()
    return statistics.median(times), times[int(0.95 * (len(times) - 1))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bots", type=int, default=10)
    parser.add_argument("--boards", type=int, default=20)
    parser.add_argument("--runs", type=int, default=50)
    args = parser.parse_args()
    embedded = None
    if os.environ.get("REDIS_URL"):
        url, where = os.environ["REDIS_URL"], "REDIS_URL"
    else:
        embedded = EmbeddedRedis(Path(tempfile.mkdtemp()))
        url, where = embedded.acquire(), "embedded Redis"
    prefix = f"pagebench{uuid.uuid4().hex[:8]}"
    redis = Redis.from_url(url)
    try:
        tid = populate(Store(redis, prefix), args.bots, args.boards)
        app = create_app({"REDIS_URL": url, "CINCH_PREFIX": prefix, "TESTING": True})
        client = app.test_client()
        mids = Store(redis, prefix).match_ids(tid)
        print(f"{args.bots} bots, {len(mids)} matches of {args.boards} boards; {args.runs} renders each; {where}")
        for path in (
            "/",
            "/tournaments",
            f"/tournaments/{tid}",
            f"/matches/{mids[0]}",
            f"/matches/{mids[0]}/boards/1",
            "/bots/bench00",
        ):
            client.get(path)  # warm: templates compiled once
            median, p95 = timed(client, path, args.runs)
            print(f"  {path:22} median {median:6.1f} ms   p95 {p95:6.1f} ms")
    finally:
        keys = list(redis.scan_iter(match=f"{prefix}:*"))
        for i in range(0, len(keys), 500):
            redis.delete(*keys[i : i + 500])
        if embedded is not None:
            embedded.release()


if __name__ == "__main__":
    main()
