"""The arena's metrics, in the Prometheus text format, defined once for every process.

``prometheus-client`` (the Prometheus project's own client) in its multiprocess mode:
when ``PROMETHEUS_MULTIPROC_DIR`` names a directory (``cinch serve`` makes a fresh
private one per run, removes it afterwards, and gives it to gunicorn's processes, the
supervisor and its local RQ workers), each process writes its values to files there and
``GET /metrics`` (``server.web.metrics``) adds up every process's files at scrape time.
Without it each process counts in memory (the CLI's own runs, the tests' in-process apps).
The variable must be in the environment before ``prometheus_client`` is imported: the
library picks its storage at import.

Labels are bounded and public-safe by construction: a route *template*, a status class,
a method, a limit's name, a reason from a fixed set. Never a token, a bot's name, a match
or tournament id, a raw path or a card.

This module imports nothing of the project, so every layer may count.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from prometheus_client import REGISTRY, CollectorRegistry, Counter, Gauge, Histogram
from prometheus_client.core import Metric
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.registry import Collector

# ---------------------------------------------------------------------- remote decisions (RQ workers)
DECISIONS_SERVED = Counter(
    "cinch_decisions_served",
    "Decisions opened for a remote bot (published to its long-polls), by the worker playing its seat.",
)
DECISIONS_ANSWERED = Counter(
    "cinch_decisions_answered", "Decisions a remote bot answered in time (a legal action, accepted by the API)."
)
DECISION_SECONDS = Histogram(
    "cinch_decision_seconds",
    "Round trip of a remote decision: from the worker opening it to the worker holding the accepted answer.",
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0),
)
DECISION_TIMEOUTS = Counter(
    "cinch_decision_timeouts", "Remote decisions not answered by their deadline (limit and time bank)."
)
DEFAULT_ACTIONS = Counter(
    "cinch_default_actions",
    "Actions the arena played for a seat whose agent failed: reason timeout (no answer in time, or a "
    "faulty bot no longer waited for) or error (the agent raised).",
    ["reason"],
)

# ---------------------------------------------------------------------- jobs (RQ workers) and the supervisor
JOBS_STARTED = Counter("cinch_jobs_started", "Board jobs (chunks of a match) a worker started.")
JOBS_FINISHED = Counter(
    "cinch_jobs_finished", "Board jobs that returned (every claimed board played, or stopped early)."
)
JOBS_FAILED = Counter("cinch_jobs_failed", "Board jobs that raised (RQ records them failed; the supervisor re-queues).")
JOBS_REQUEUED = Counter(
    "cinch_jobs_requeued", "Jobs the supervisor enqueued again for boards nobody was playing (a lost job's)."
)
BOARDS_STORED = Counter("cinch_boards_stored", "Board records stored (every room of one board of one match).")
RATINGS_SECONDS = Histogram(
    "cinch_ratings_refresh_seconds",
    "Time to add a batch of comparisons and refit one ruleset's ratings.",
    buckets=(0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
)

# ---------------------------------------------------------------------- the API (gunicorn's processes)
HTTP_RESPONSES = Counter(
    "cinch_http_responses",
    "API and page responses by route template (unmatched for a path no route has), method and status class.",
    ["route", "method", "status"],
)
RATE_LIMITED = Counter(
    "cinch_rate_limited",
    "Requests refused with 429 by a rate limit: failed_auth, registrations or empty_polls.",
    ["limit"],
)
LONG_POLLS = Gauge(
    "cinch_long_polls_open",
    "Long-polls waiting for a decision now, over every API process.",
    multiprocess_mode="livesum",
)


def status_class(status: int) -> str:
    """``2xx``, ``4xx``...: the label of a status code."""
    return f"{status // 100}xx"


@contextmanager
def timed(histogram: Histogram) -> Iterator[None]:
    """Observe the block's duration in seconds (``Histogram.time`` without its decorator typing)."""
    start = time.perf_counter()
    try:
        yield
    finally:
        histogram.observe(time.perf_counter() - start)


class _ThisProcess(Collector):
    """The default registry's metrics: this process's alone (no multiprocess directory)."""

    def collect(self) -> Iterable[Metric]:
        return REGISTRY.collect()


def scraped(multiprocess_dir: Path | None) -> CollectorRegistry:
    """What a scrape of this machine reads: every process's files in ``multiprocess_dir``
    (``PROMETHEUS_MULTIPROC_DIR``), or without one this process's own counts. The API's
    ``/metrics`` adds Redis to it; a worker's or the supervisor's endpoint serves it as it
    is (``workers.monitor``)."""
    reg = CollectorRegistry(auto_describe=False)
    if multiprocess_dir is not None:
        MultiProcessCollector(reg, path=str(multiprocess_dir))
    else:
        reg.register(_ThisProcess())
    return reg
