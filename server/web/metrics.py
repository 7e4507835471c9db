"""``GET /metrics``: the arena's metrics (``server.metrics``) in the Prometheus text format, for the admin.

Only the admin's bearer token reads it (401 without a token, 403 with a bot's): counts
by route and the latencies of decisions are no bot's business, and a bot reading them
during a tournament would learn how the others play. Prometheus sends the token with
``authorization: {type: Bearer, credentials_file: ...}`` in its scrape config
(docs/operations.md#metrics-and-logs). Not part of the OpenAPI document: it is the
operator's, not a client's.

With ``PROMETHEUS_MULTIPROC_DIR`` set (``cinch serve`` sets it), the answer adds up the
files every process of the arena on this machine wrote there: gunicorn's processes, the
supervisor and the local RQ workers. Redis's used memory and key count are read at
scrape time, on the health probe's own pool; if Redis does not answer, ``cinch_redis_up``
is 0 and the rest is served.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from flask import Blueprint, Response
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector
from redis import Redis
from redis.exceptions import RedisError

from server.metrics import scraped
from server.web.api.auth import require_admin
from server.web.context import arena

bp = Blueprint("metrics", __name__)


class RedisCollector(Collector):
    """Redis's used memory and key count, read when scraped."""

    def __init__(self, redis: Redis):
        self.redis = redis

    def collect(self) -> Iterator[Metric]:
        up = GaugeMetricFamily("cinch_redis_up", "1 if Redis answered this scrape, else 0.")
        try:
            memory = self.redis.info("memory")["used_memory"]
            keys = self.redis.dbsize()
        except RedisError:
            up.add_metric([], 0)
            yield up
            return
        up.add_metric([], 1)
        yield up
        yield GaugeMetricFamily("cinch_redis_used_memory_bytes", "Redis's used_memory (INFO memory).", value=memory)
        yield GaugeMetricFamily(
            "cinch_redis_keys", "Keys in the arena's Redis database (DBSIZE; every prefix on it).", value=keys
        )


def registry(redis: Redis, multiprocess_dir: Path | None) -> CollectorRegistry:
    """What one scrape reads: every process's files (or this process's memory), and Redis."""
    reg = scraped(multiprocess_dir)
    reg.register(RedisCollector(redis))
    return reg


@bp.get("/metrics")
def metrics() -> Response:
    require_admin()
    return Response(generate_latest(registry(arena().health, arena().config.metrics_dir)), mimetype=CONTENT_TYPE_LATEST)
