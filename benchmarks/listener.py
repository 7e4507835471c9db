"""CPU of the API's wake listener per message, under gevent as gunicorn runs it.

    python benchmarks/listener.py [--messages 5000] [--size 1500]

Each API process reads every wake message (``server.web.waker``), so its cost per message
is paid per decision. This subscribes as the waker does, publishes ``--messages`` messages
of ``--size`` bytes from another process at about 2,000 a second (a busy arena), and prints
the listener's CPU per message two ways: redis-py's ``get_message(timeout=1)`` (which polls
the socket before reading) and the waker's own read (``Waker._next_message``). Uses
``REDIS_URL`` if set, else an embedded Redis.
"""

from gevent import monkey

monkey.patch_all()

import argparse  # noqa: E402
import os  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402
import uuid  # noqa: E402
from collections.abc import Callable  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from redis.client import PubSub  # noqa: E402

from server.web.app import redis_client  # noqa: E402
from server.web.waker import LISTEN_TIMEOUT, Waker  # noqa: E402
from workers.embedded import EmbeddedRedis  # noqa: E402

PUBLISH = """
import sys, time
from redis import Redis
r = Redis.from_url(sys.argv[1])
for _ in range(int(sys.argv[3])):
    r.publish(sys.argv[2], "x" * int(sys.argv[4]))
    time.sleep(0.0005)
"""


def cpu_per_message(url: str, read: Callable[[PubSub], dict[str, Any] | None], messages: int, size: int) -> float:
    channel = f"listener-bench-{uuid.uuid4().hex}"
    pubsub = redis_client(url, 4).pubsub(ignore_subscribe_messages=True)
    pubsub.subscribe(channel)
    got = 0

    def listen() -> None:
        nonlocal got
        while got < messages:
            message = read(pubsub)
            if message is not None and message["type"] == "message":
                got += 1

    thread = threading.Thread(target=listen)
    thread.start()
    time.sleep(0.2)
    publisher = subprocess.Popen([sys.executable, "-c", PUBLISH, url, channel, str(messages), str(size)])
    start = time.process_time()
    thread.join()
    publisher.wait()
    used = time.process_time() - start
    pubsub.close()
    return used / messages


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--messages", type=int, default=5000)
    parser.add_argument("--size", type=int, default=1500, help="bytes a message (a request is about 1-2 KB)")
    args = parser.parse_args()
    embedded = None
    url = os.environ.get("REDIS_URL")
    if not url:
        embedded = EmbeddedRedis(Path(tempfile.mkdtemp()))
        url = embedded.acquire()
    try:
        for _ in range(2):
            polled = cpu_per_message(url, lambda p: p.get_message(timeout=LISTEN_TIMEOUT), args.messages, args.size)
            read = cpu_per_message(url, Waker._next_message, args.messages, args.size)
            print(f"get_message(timeout=1): {polled * 1e6:.0f} µs CPU a message; the waker's read: {read * 1e6:.0f} µs")
    finally:
        if embedded is not None:
            embedded.release()


if __name__ == "__main__":
    main()
