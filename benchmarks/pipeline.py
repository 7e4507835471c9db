"""Duplicate board pairs per second: in-process, and through RQ with 1 and 2 workers.

    python benchmarks/pipeline.py [--boards 400] [--chunk 20]

The same round robin (built-in ``random`` against ``rule`` on the standard deal set)
is played three ways: in this process, then through a real Redis (``REDIS_URL`` or an
embedded one) and real ``rq worker`` processes, 1 and then 2 of them. Worker start-up
is excluded: the clock starts when the tournament is enqueued and stops when its
results are stored.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
import uuid
from pathlib import Path

from redis import Redis
from rq import Worker

from server.arena import dealsets
from server.arena.duplicate import play_match
from server.arena.store import Store
from server.engine import make_ruleset
from workers.bots import make_bot
from workers.driver import cli_driver, start, watch
from workers.embedded import EmbeddedRedis
from workers.jobs import queue_for
from workers.local import LocalWorkers

BOTS = ["random", "rule"]


def in_process(deals: dealsets.DealSet, boards: int) -> float:
    rules = make_ruleset("american62")
    start_time = time.perf_counter()
    play_match(rules, [(n, deals.board(n)) for n in range(1, boards + 1)], make_bot(BOTS[0], 1), make_bot(BOTS[1], 1))
    return boards / (time.perf_counter() - start_time)


def through_rq(redis: Redis, url: str, deals: dealsets.DealSet, boards: int, chunk: int, workers: int) -> float:
    store = Store(redis, prefix=f"bench{uuid.uuid4().hex[:8]}")
    queue = queue_for(store, f"cinch-{store.prefix}")
    pool = LocalWorkers(url, queue.name, workers).start()
    try:
        while len(Worker.all(queue=queue)) < workers:
            time.sleep(0.05)
        start_time = time.perf_counter()
        tid = start(store, queue, {"bots": BOTS, "boards": boards, "chunk": chunk}, deals, cli_driver())
        watch(store, queue, tid, cli_driver(), poll=0.02)
        return boards / (time.perf_counter() - start_time)
    finally:
        pool.stop()
        keys = list(redis.scan_iter(match=f"{store.prefix}:*")) + list(redis.scan_iter(match=f"rq:*{store.prefix}*"))
        for i in range(0, len(keys), 500):
            redis.delete(*keys[i : i + 500])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--boards", type=int, default=400)
    parser.add_argument("--chunk", type=int, default=50)
    args = parser.parse_args()
    deals = dealsets.load("standard")
    embedded = None
    if os.environ.get("REDIS_URL"):
        redis, url, where = Redis.from_url(os.environ["REDIS_URL"]), os.environ["REDIS_URL"], "REDIS_URL"
    else:
        embedded = EmbeddedRedis(Path(tempfile.mkdtemp()))
        url, where = embedded.acquire(), "embedded Redis"
        redis = Redis.from_url(url)
    try:
        base = in_process(deals, args.boards)
        one = through_rq(redis, url, deals, args.boards, args.chunk, 1)
        two = through_rq(redis, url, deals, args.boards, args.chunk, 2)
    finally:
        if embedded is not None:
            embedded.release()
    print(f"{args.boards} board pairs of {BOTS[0]} vs {BOTS[1]}, chunks of {args.chunk}, Redis: {where}")
    print(f"  in-process         {base:8.1f} pairs/s")
    print(f"  RQ, 1 worker       {one:8.1f} pairs/s  ({one / base:.2f}x in-process)")
    print(f"  RQ, 2 workers      {two:8.1f} pairs/s  ({two / base:.2f}x in-process)")


if __name__ == "__main__":
    main()
