"""Long-polls arriving at once, as when every bot reconnects after an API restart, with
``/ready`` probed throughout: shared by the capacity test and ``benchmarks/burst.py``, so
the figure in the docs is the one the test holds.

Every connection is opened first, then every request is written in one pass of the event
loop, so they reach the server within milliseconds of each other (a ramp would hide
what a burst does to the server's connection pool). ``/ready`` is asked on a fresh
connection every ``PROBE_EVERY`` seconds, each probe on its own, so a slow answer delays
no later probe and is seen for as long as it takes.
"""

from __future__ import annotations

import asyncio
import json
import resource
import time
from collections import Counter
from dataclasses import dataclass, field

PROBE_EVERY = 0.1  # seconds between /ready probes
FD_MARGIN = 200  # descriptors beyond the connections: the interpreter's own, Redis, logs


def allow_connections(connections: int) -> int:
    """Raise this process's soft limit on open files to hold ``connections`` sockets
    (within the hard limit); children started afterwards, the server too, inherit it.
    Returns the soft limit now in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = connections + FD_MARGIN
    if soft != resource.RLIM_INFINITY and soft < wanted:
        soft = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    return soft


@dataclass
class Burst:
    statuses: Counter[str] = field(default_factory=Counter)  # "held", "503", other status or error
    retry_after: set[str | None] = field(default_factory=set)  # the 503s' Retry-After values
    refusals: Counter[str] = field(default_factory=Counter)  # the 503s' details
    refused_at: list[float] = field(default_factory=list)  # seconds after the burst was sent
    sent_within: float = 0.0  # seconds from the first request written to the last
    ready: list[tuple[float, float]] = field(default_factory=list)  # /ready: (sent at, latency), seconds
    ready_failures: Counter[str] = field(default_factory=Counter)  # probes not answered 200

    @property
    def held(self) -> int:
        return self.statuses["held"]

    @property
    def refused(self) -> int:
        return self.statuses["503"]

    @property
    def other(self) -> int:
        return sum(self.statuses.values()) - self.held - self.refused

    def ready_max(self) -> float:
        return max((latency for _, latency in self.ready), default=0.0)

    def ready_p99(self) -> float:
        ordered = sorted(latency for _, latency in self.ready)
        return ordered[max(0, int(len(ordered) * 0.99) - 1)] if ordered else 0.0

    def summary(self) -> str:
        others = {k: v for k, v in self.statuses.items() if k not in ("held", "503")}
        return (
            f"held {self.held}, 503 {self.refused}, other {self.other} {dict(others) or ''}".rstrip()
            + f" (sent within {self.sent_within * 1000:.0f} ms); /ready max {self.ready_max() * 1000:.0f} ms,"
            f" p99 {self.ready_p99() * 1000:.0f} ms over {len(self.ready)} probes,"
            f" {sum(self.ready_failures.values())} not 200 {dict(self.ready_failures) or ''}".rstrip()
        )


async def _response(reader: asyncio.StreamReader) -> tuple[int, dict[str, str], bytes]:
    """Status, headers and body of one HTTP/1.1 response."""
    head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in head[1:] if line)}
    body = await reader.readexactly(int(headers.get("content-length", "0")))
    return int(head[0].split()[1]), headers, body


def _request(path: str, token: str | None = None) -> bytes:
    auth = f"Authorization: Bearer {token}\r\n" if token else ""
    return f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{auth}Connection: close\r\n\r\n".encode()


async def _long_poll(
    connection: tuple[asyncio.StreamReader, asyncio.StreamWriter], wait: float, sent: float, result: Burst
) -> None:
    reader, writer = connection
    try:
        status, headers, body = await asyncio.wait_for(_response(reader), wait + 30)
        if status == 204 and time.monotonic() - sent >= wait * 0.9:
            result.statuses["held"] += 1
        elif status == 503:
            result.statuses["503"] += 1
            result.retry_after.add(headers.get("retry-after"))
            result.refusals[json.loads(body).get("detail", "")] += 1
            result.refused_at.append(time.monotonic() - sent)
        else:
            result.statuses[str(status)] += 1
    except (TimeoutError, OSError, asyncio.IncompleteReadError) as exc:
        result.statuses[type(exc).__name__] += 1
    finally:
        writer.close()


async def _probe(port: int, since: float, result: Burst) -> None:
    started = time.monotonic()
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(_request("/api/v1/ready"))
        status, _, _ = await asyncio.wait_for(_response(reader), 30)
        writer.close()
        if status != 200:
            result.ready_failures[str(status)] += 1
    except (TimeoutError, OSError, asyncio.IncompleteReadError) as exc:
        result.ready_failures[type(exc).__name__] += 1
    result.ready.append((started - since, time.monotonic() - started))


async def _burst(port: int, tokens: list[str], polls: int, wait: float) -> Burst:
    result = Burst()
    connections = await asyncio.gather(*(asyncio.open_connection("127.0.0.1", port) for _ in range(polls)))
    started = time.monotonic()
    for i, (_, writer) in enumerate(connections):
        writer.write(_request(f"/api/v1/decisions/next?wait={wait:g}", tokens[i % len(tokens)]))
    await asyncio.gather(*(writer.drain() for _, writer in connections))
    result.sent_within = time.monotonic() - started
    polling = [asyncio.create_task(_long_poll(c, wait, started, result)) for c in connections]
    probes = []
    while not all(task.done() for task in polling):  # the arrival, the whole wait and the departure
        probes.append(asyncio.create_task(_probe(port, started, result)))
        await asyncio.sleep(PROBE_EVERY)
    await asyncio.gather(*polling, *probes)
    return result


def burst(port: int, tokens: list[str], polls: int, wait: float) -> Burst:
    """``polls`` long-polls of ``wait`` seconds (tokens taken in turn) sent at once to the
    server on ``port`` of 127.0.0.1, with ``/ready`` probed until the last is answered.
    A long-poll is *held* when it is answered 204 after (nearly) its whole wait."""
    allow_connections(polls + int(wait / PROBE_EVERY) + 100)
    return asyncio.run(_burst(port, tokens, polls, wait))
