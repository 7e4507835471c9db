"""Rate limits against abuse, with flask-limiter counting in the arena's own Redis.

Three limits, each a setting (``server.config``) and generous enough that a
well-behaved bot never meets them; past one the answer is a ``429`` problem saying
which limit was hit, with ``Retry-After`` (the SDK waits it out):

* failed authentications per client address (``CINCH_LIMIT_FAILED_AUTH``): a 401 past
  the limit becomes a 429. Only the refusals count, so a bot with a good token is never
  locked out by a neighbour behind the same address sending a wrong one.
* registrations per client address (``CINCH_LIMIT_REGISTRATIONS``): every
  ``POST /bots`` counts, refused ones too, so a flood is cut short whatever it sends;
  the admin's own are exempt, so a flood from its address never locks the admin out.
* empty long-polls per token (``CINCH_LIMIT_EMPTY_POLLS``): a ``/decisions/next`` that
  finds nothing (204) counts; one that brings a decision does not, so a bot in fast
  play is never slowed, while a client polling in a busy loop (``wait=0``) is.

Counters live in the app's Redis through the app's own connection pool (bounded, with
its timeouts), under ``{prefix}:ratelimit:``, so arenas (and tests) with different
prefixes never share them. Storage errors are swallowed: the limiter never turns a
request into a 500 while Redis is away; the request goes on and meets Redis in its view,
which answers the usual 503 with ``Retry-After``.

flask-limiter keeps one storage per ``Limiter``: a process serves one app, so the
module's limiter is initialised once per app (``init_limiter``).
"""

from __future__ import annotations

import math
import time

from flask import Flask, Response, request
from flask_limiter import Limiter, RateLimitExceeded
from flask_limiter.util import get_remote_address
from flask_smorest import abort
from limits import RateLimitItem, parse
from redis import ConnectionPool

from server import logs
from server.config import Config
from server.metrics import RATE_LIMITED
from server.web.api.problems import problem
from server.web.context import arena

log = logs.logger("api.ratelimit")

LIMIT_OF_BLUEPRINT = {"decisions": "empty_polls", "bots": "registrations"}
"""Which decorator limit a 429 from a blueprint's view is (the failed-authentication limit is counted apart)."""

limiter = Limiter(key_func=get_remote_address, strategy="fixed-window", swallow_errors=True)


def storage_uri(redis_url: str) -> str:
    """The limits library's name for the app's Redis: it spells a socket ``redis+unix://``."""
    return "redis+unix://" + redis_url.removeprefix("unix://") if redis_url.startswith("unix://") else redis_url


def init_limiter(app: Flask, config: Config, pool: ConnectionPool) -> None:
    """Count in the app's Redis, on its pool, under its prefix; 429s as problems."""
    app.config.update(
        RATELIMIT_STORAGE_URI=storage_uri(config.service_redis_url),
        RATELIMIT_STORAGE_OPTIONS={"connection_pool": pool, "key_prefix": f"{config.prefix}:ratelimit"},
    )
    limiter.init_app(app)
    if not _has_limits_of_its_own(limiter):
        # the decorated views check their limits in their own wrappers; the middleware
        # would find nothing to check (about 0.1 ms of every request's CPU, the decisions' too)
        app.before_request_funcs[None].remove(limiter._check_request_limit)
    app.register_error_handler(RateLimitExceeded, _too_many)


def _has_limits_of_its_own(limiter: Limiter) -> bool:
    """Whether the limiter holds limits that only its ``before_request`` hook checks:
    default, application, meta or blueprint limits (the arena sets none; the decorated
    views check theirs in their own wrappers). What this flask-limiter version does not
    expose counts as limits, so the hook then stays."""
    manager = limiter.limit_manager
    try:
        blueprint_limits = manager._blueprint_limits  # no public accessor
        return bool(manager.default_limits or manager.application_limits or limiter._meta_limits or blueprint_limits)
    except AttributeError:
        return True


def configured(name: str) -> str:
    """A limit as configured for the app (a string such as ``"20/minute"``)."""
    return getattr(arena().config, name)


def _retry_after(item: RateLimitItem, reset_at: float) -> str:
    """Seconds until the window resets (Redis rounds its expiry: at most the window)."""
    return str(min(max(1, math.ceil(reset_at - time.time())), item.get_expiry()))


def refused(limit: str, rate: str) -> None:
    """Count and log a 429 (the client's address is not logged: the request id ties the line to the request)."""
    RATE_LIMITED.labels(limit).inc()
    route = request.url_rule.rule if request.url_rule is not None else "unmatched"
    log.warning("rate limit %s (%s) refused %s %s", limit, rate, request.method, route)


def _too_many(error: RateLimitExceeded) -> Response:
    """flask-limiter's refusal as a problem, with the seconds until its window resets."""
    breached = limiter.current_limit
    refused(LIMIT_OF_BLUEPRINT.get(request.blueprint or "", "other"), str(breached.limit) if breached else "?")
    if breached is None:
        return problem(429, error.description, headers={"Retry-After": "1"})
    seconds = _retry_after(breached.limit, breached.reset_at)
    return problem(
        429, f"{error.description} ({breached.limit}); retry after {seconds} s", headers={"Retry-After": seconds}
    )


def registrations() -> str:
    return configured("limit_registrations")


def empty_polls() -> str:
    return configured("limit_empty_polls")


def count_failed_authentication() -> None:
    """Count a refused token from this address; past the limit, the 429 instead of the 401.
    (Called on the 401 path only, so it is not a decorator: nothing else counts.)"""
    item = parse(configured("limit_failed_auth"))
    address = get_remote_address()
    if not limiter.limiter.hit(item, "failed-authentication", address):
        reset_at = limiter.limiter.get_window_stats(item, "failed-authentication", address).reset_time
        seconds = _retry_after(item, reset_at)
        refused("failed_auth", str(item))
        abort(
            429,
            message=f"too many failed authentications from this address ({item}); "
            f"retry after {seconds} s with a valid token",
            headers={"Retry-After": seconds},
        )
