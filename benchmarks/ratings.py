"""What a ratings refresh costs, by the number of comparisons stored in the ruleset.

    python benchmarks/ratings.py [--sizes 100 1000 5000] [--boards 100]

Comparisons of 100 boards each among 10 bots, every one on evidence of its own, ten to a
tournament. Times (best of 3, a real Redis: ``REDIS_URL`` or an embedded one) of
``server.arena.ratings.fit`` alone; and of ``Store.add_comparisons`` plus
``Store.refresh_ratings`` for all of them at once, for a comparison of the last tournament
(the usual case: one history step) and for one of the first (every tournament's history
step recomputed).
"""

from __future__ import annotations

import argparse
import os
import random
import tempfile
import time
import uuid
from collections.abc import Callable
from contextlib import nullcontext
from pathlib import Path
from typing import Any

from redis import Redis

from server.arena.ratings import fit, record
from server.arena.store import Store
from workers.embedded import EmbeddedRedis

RULESET = "american62"


def comparisons(count: int, boards: int, bots: int = 10) -> list[dict[str, Any]]:
    rng = random.Random(1)
    names = [f"bot{i}" for i in range(bots)]
    out = []
    for i in range(count):
        x, y = rng.sample(names, 2)
        out.append(
            record(
                f"t{i // 10 + 1}.m{i % 10 + 1}",
                [i // 10 + 1, 0, i % 10 + 1],
                x,
                y,
                f"d{i}|{{}}|{x}|{y}",
                {b: rng.randint(-10, 12) for b in range(1, boards + 1)},
                float(i),
            )
        )
    return out


def best_ms(run: Callable[[], float], times: int = 3) -> float:
    return min(run() for _ in range(times)) * 1000


def timed(store: Store, stored: list[dict[str, Any]], new: list[dict[str, Any]]) -> float:
    """Seconds to add ``new`` and refresh, with ``stored`` already reflected."""
    store.clear_ratings(RULESET)
    store.add_comparisons(RULESET, stored)
    store.refresh_ratings(RULESET)
    start = time.perf_counter()
    store.add_comparisons(RULESET, new)
    store.refresh_ratings(RULESET)
    return time.perf_counter() - start


def row(store: Store, made: list[dict[str, Any]]) -> list[float]:
    """The four timings of one size, in milliseconds."""

    def pure() -> float:
        start = time.perf_counter()
        fit(made)
        return time.perf_counter() - start

    return [
        best_ms(pure),
        best_ms(lambda: timed(store, [], made)),
        best_ms(lambda: timed(store, made[:-1], made[-1:])),
        best_ms(lambda: timed(store, made[1:], made[:1])),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 1000, 5000])
    parser.add_argument("--boards", type=int, default=100)
    args = parser.parse_args()
    url = os.environ.get("REDIS_URL")
    with nullcontext(url) if url else EmbeddedRedis(Path(tempfile.mkdtemp())) as url:
        store = Store(Redis.from_url(url), prefix=f"bench{uuid.uuid4().hex[:8]}")
        print("| comparisons | fit | refresh, all | refresh, last new | refresh, first new |")
        print("| --- | --- | --- | --- | --- |")
        for n in args.sizes:
            print(f"| {n:,} | " + " | ".join(f"{ms:.1f} ms" for ms in row(store, comparisons(n, args.boards))) + " |")
        store.clear_ratings(RULESET)


if __name__ == "__main__":
    main()
