"""The web app: a Flask factory over the store and the job queue, serving the API and the pages.

Blueprints per resource, marshmallow schemas for every body, the OpenAPI document at
``/api/v1/openapi.json`` with an interactive page at ``/api/v1/docs``, and every error as
``application/problem+json``; the built docs site at ``/docs/`` (``server.web.docsite``). Serve it
with gunicorn (``cinch serve``).
"""

from __future__ import annotations

import http
from collections.abc import Mapping
from typing import Any

from apispec_oneofschema import MarshmallowPlugin as OneOfMarshmallowPlugin
from flask import Flask, Response, g, request
from flask_swagger_ui import get_swaggerui_blueprint
from redis import BlockingConnectionPool, Redis
from redis.backoff import ExponentialBackoff
from redis.exceptions import ConnectionError as RedisDown
from redis.retry import Retry

from server import logs
from server.arena.registry import ensure_builtins
from server.arena.store import Store
from server.config import Config
from server.metrics import HTTP_RESPONSES, status_class
from server.web import docsite, metrics, ops
from server.web.api import bots, decisions, health, ratings, tables, tournaments
from server.web.api.contract import ContractPlugin
from server.web.api.problems import ArenaApi, problem, register_error_handlers
from server.web.api.ratelimit import init_limiter
from server.web.context import ArenaContext
from server.web.envelope import DOCS_PATH, METHODS, out_of_bounds, request_id_of, security_headers_of
from server.web.fastpath import DecisionFastPath
from server.web.limits import ArenaJSONProvider, check_request
from server.web.pages import init_pages
from server.web.served import ServedDecisions
from server.web.waker import Waker
from workers.bots import BUILTIN
from workers.jobs import queue_for

DRAIN_LIMIT = 1024 * 1024  # oversized bodies up to this size are read before the 413


log = logs.logger("api")

POOL_WAIT = 5.0  # seconds a command waits for a free pooled connection: as long as a command may take
HEALTH_CONNECTIONS = 4  # /ready's own pool: probes are few, and answered in one round trip


def redis_client(url: str, max_connections: int) -> Redis:
    """The API's Redis client, tuned so that no request hangs on Redis.

    The API makes no blocking call (long-polls wait on the waker's events), so every
    command should answer in milliseconds: 2 s to connect and 5 s to answer bound a
    request when Redis is away or stuck, and the 503 handler answers. A connection that
    died with a Redis restart is retried once at once on a fresh one, so the app is back
    as soon as Redis is, without a restart; redis-py's default (10 retries with backoff)
    would hold a request for seconds while Redis is down.

    The pool is bounded, and a command waits up to ``POOL_WAIT`` for a free connection
    (then 503). Under gevent a connection is busy from its command until its greenlet is
    scheduled again, so when a thousand long-polls arrive at once (every bot reconnecting
    after a restart) a hundred connections serve them in turns, each request queuing once
    per command; with a 1 s wait the last in the queue failed (hundreds of 503s on two
    cores, ``benchmarks/burst.py``) although Redis was idle. A momentary shortage now
    waits, and a Redis that is stuck still ends a request within 10 s. Connections do
    not announce themselves (``CLIENT SETINFO``): for every new connection redis-py reads
    its own version from the package metadata on disk (2.5 ms of CPU, measured with
    py-spy) and makes two round trips more, all in the first second after a restart.
    """
    pool = BlockingConnectionPool.from_url(
        url,
        max_connections=max_connections,
        timeout=POOL_WAIT,
        socket_connect_timeout=2.0,
        socket_timeout=5.0,
        health_check_interval=30,
        retry=Retry(ExponentialBackoff(cap=0.1, base=0.01), 1),
        retry_on_error=[RedisDown],
        driver_info=None,
    )
    return Redis(connection_pool=pool)


class ArenaFlask(Flask):
    json_provider_class = ArenaJSONProvider  # request bodies within bounds, or a 400

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._sync: dict[Any, Any] = {}

    def ensure_sync(self, func: Any) -> Any:
        """Flask's, remembered per function: it inspects each hook and view on every
        request (a dozen ``iscoroutinefunction`` calls each), and the answer never changes."""
        try:
            return self._sync[func]
        except KeyError:
            return self._sync.setdefault(func, super().ensure_sync(func))
        except TypeError:  # unhashable
            return super().ensure_sync(func)


def request_id() -> str:
    return request_id_of(request.headers.get("X-Request-Id", ""))


def observe_requests(app: Flask) -> None:
    """Every request gets an id, bound to each line it logs and returned as ``X-Request-Id``;
    every response is counted by route template, method and status class; a refusal (4xx)
    is logged with its problem title, never its body (an illegal action's detail would name
    a card), and a 5xx by its handler, with the traceback (``problems``). 429s are logged
    where the limit is known (``ratelimit``)."""

    @app.before_request
    def bind_request_id() -> None:
        g.request_id = request_id()
        g.log_token = logs.bind(request_id=g.request_id)

    @app.after_request
    def count_response(response: Response) -> Response:
        route = request.url_rule.rule if request.url_rule is not None else "unmatched"
        method = request.method if request.method in METHODS else "other"
        HTTP_RESPONSES.labels(route, method, status_class(response.status_code)).inc()
        if 400 <= response.status_code < 500 and response.status_code != 429:
            log.info("refused %s %s: %d %s", method, route, response.status_code, _title(response.status_code))
        if "request_id" in g:
            response.headers["X-Request-Id"] = g.request_id
        return response

    @app.teardown_request
    def unbind_request_id(_error: BaseException | None) -> None:
        token = g.pop("log_token", None)
        if token is not None:
            try:
                logs.unbind(token)
            except ValueError:  # bound in another context (cannot happen under Flask's dispatch)
                pass


def _title(status: int) -> str:
    try:
        return http.HTTPStatus(status).phrase
    except ValueError:
        return "?"


def settings_of(config: Config | Mapping[str, Any] | None) -> tuple[Config, dict[str, Any]]:
    """The arena's configuration and any other Flask settings. A mapping (as the tests pass)
    overrides the environment's settings by variable name (``CINCH_PREFIX``) or by field
    name in capitals (``ADMIN_TOKEN``); its other keys are Flask's (``TESTING``)."""
    if isinstance(config, Config):
        return config, {}
    given = dict(config or {})
    ours = {key: given.pop(key) for key in list(given) if Config.variable(key)}
    return Config.from_env(overrides=ours), given


def create_app(config: Config | Mapping[str, Any] | None = None) -> Flask:
    settings, flask_settings = settings_of(config)
    app = ArenaFlask("cinch-arena")
    app.config.update(
        API_TITLE="Cinch arena",
        API_VERSION="v1",
        OPENAPI_VERSION="3.0.3",
        OPENAPI_URL_PREFIX="/api/v1",
        OPENAPI_JSON_PATH="openapi.json",
        MAX_CONTENT_LENGTH=64 * 1024,
        **flask_settings,
    )
    # observations are large; keep the engine's key order. app.json is typed as the base
    # JSONProvider, which has no sort_keys; Flask's DefaultJSONProvider, the one in use, does.
    app.json.sort_keys = False  # type: ignore[attr-defined]
    observe_requests(app)  # first: every later hook's refusal (a 429 included) is logged with the request's id
    redis = redis_client(settings.service_redis_url, settings.redis_connections)
    init_limiter(app, settings, redis.connection_pool)
    store = Store(redis, settings.prefix)
    app.extensions["cinch"] = ArenaContext(
        store,
        queue_for(store, settings.queue),
        settings,
        ServedDecisions(),
        Waker(redis, store.wake_channel, settings.long_polls),
        redis_client(settings.service_redis_url, HEALTH_CONNECTIONS),
    )
    register_error_handlers(app)
    app.url_map.converters["decision_id"] = decisions.DecisionIdConverter
    api = ArenaApi(
        app,
        spec_kwargs={
            "info": {"description": "Duplicate Cinch tournaments for bots."},
            "marshmallow_plugin": OneOfMarshmallowPlugin(),  # oneOf + discriminator
            "extra_plugins": [ContractPlugin()],
        },
    )
    api.ma_plugin.converter.add_attribute_function(ContractPlugin.enum_reference)
    api.spec.components.security_scheme("bearer", {"type": "http", "scheme": "bearer"})
    api.register_converter(decisions.DecisionIdConverter, decisions.decision_id_schema)
    for module in (health, bots, decisions, tournaments, tables, ratings):
        api.register_blueprint(module.blp)
        # after the blueprint's own hooks: no token, no parsing (the 401 comes first)
        app.before_request_funcs.setdefault(module.blp.name, []).append(check_request)
    app.register_blueprint(
        get_swaggerui_blueprint(
            DOCS_PATH, "/api/v1/openapi.json", {"app_name": "Cinch arena API", "validatorUrl": None}
        )
    )
    app.register_blueprint(metrics.bp)  # GET /metrics, for the admin token only
    app.register_blueprint(docsite.bp)  # the built docs site at /docs/ (not the API's /api/v1/docs)
    app.register_blueprint(ops.bp)  # the operator's page at /ops, for the admin token (a login form)
    init_pages(app)  # after every problem handler: pages get them as HTML, /api/ as problems

    @app.before_request
    def request_line_and_headers_within_bounds():
        """Over-long URIs and headers, answered by the app (gunicorn's own limits are lifted
        in ``cinch serve``, or it would answer them with an HTML page, not problem+json)."""
        headers = list(request.headers.items())  # the environ is walked once, not three times
        beyond = out_of_bounds(request.environ.get("RAW_URI") or request.full_path, headers)
        return None if beyond is None else problem(*beyond)

    @app.after_request
    def security_headers(response: Response) -> Response:
        """``security_headers_of`` on every response, unless a view set its own."""
        for name, value in security_headers_of(request.path):
            response.headers.setdefault(name, value)
        return response

    @app.before_request
    def json_bodies_only():
        """Refuse oversized bodies, and bodies not declared JSON (they would be ignored),
        but the operator page's forms (``server.web.ops``)."""
        length = request.content_length or 0
        limit = app.config["MAX_CONTENT_LENGTH"]
        if length > limit:
            if length <= DRAIN_LIMIT:  # read it, or the client may see a reset, not the 413
                request.environ["wsgi.input"].read(length)
            return problem(413, f"the request body is {length} bytes; the limit is {limit}")
        form = request.path.startswith(ops.FORMS) and request.mimetype == "application/x-www-form-urlencoded"
        if request.method in ("POST", "PUT", "PATCH") and length and not request.is_json and not form:
            return problem(415, "the request body must be JSON (Content-Type: application/json)")

    # outermost: an accepted answer to a decision this process served skips Flask (its docstring)
    app.wsgi_app = DecisionFastPath(app, app.wsgi_app)  # type: ignore[method-assign]
    with app.app_context():
        try:
            ensure_builtins(store, BUILTIN)
        except Exception:  # Redis may come up after the API; /ready reports it
            log.warning("Redis not reachable at start-up; built-in bots will be registered later")
    return app
