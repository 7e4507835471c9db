"""The REST API: a Flask app factory over the store and the job queue.

Blueprints per resource, marshmallow schemas for every body, the OpenAPI document at
``/api/v1/openapi.json`` with an interactive page at ``/api/v1/docs``, and every error as
``application/problem+json``. Serve it with gunicorn (``cinch serve``).
"""

from __future__ import annotations

import os
from typing import Any

from flask import Flask, request
from redis import Redis

from server.registry import ensure_builtins
from server.store import Store
from workers.bots import BUILTIN
from workers.jobs import QUEUE, queue_for

from . import bots, decisions, health, ratings, tables, tournaments
from .context import ArenaContext
from .problems import ArenaApi, problem
from .served import ServedDecisions

LONG_POLL_MAX = 25          # seconds; the Redis socket timeout must exceed it
DRAIN_LIMIT = 1024 * 1024   # oversized bodies up to this size are read before the 413


def create_app(config: dict[str, Any] | None = None) -> Flask:
    app = Flask("cinch-arena")
    app.config.update(
        API_TITLE="Cinch arena", API_VERSION="v1", OPENAPI_VERSION="3.0.3",
        OPENAPI_URL_PREFIX="/api/v1", OPENAPI_JSON_PATH="openapi.json",
        OPENAPI_SWAGGER_UI_PATH="docs", OPENAPI_SWAGGER_UI_URL="https://cdn.jsdelivr.net/npm/swagger-ui-dist/",
        MAX_CONTENT_LENGTH=64 * 1024,
        REDIS_URL=os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"),
        CINCH_PREFIX=os.environ.get("CINCH_PREFIX", "cinch"),
        CINCH_QUEUE=os.environ.get("CINCH_QUEUE", QUEUE),
        ADMIN_TOKEN=os.environ.get("CINCH_ADMIN_TOKEN"),
    )
    app.config.update(config or {})
    app.json.sort_keys = False      # observations are large; keep the engine's key order
    redis = Redis.from_url(app.config["REDIS_URL"], socket_timeout=LONG_POLL_MAX + 10,
                           health_check_interval=30)
    store = Store(redis, app.config["CINCH_PREFIX"])
    app.extensions["cinch"] = ArenaContext(store, queue_for(store, app.config["CINCH_QUEUE"]),
                                           app.config["ADMIN_TOKEN"], ServedDecisions())
    api = ArenaApi(app, spec_kwargs={"info": {"description": "Duplicate Cinch tournaments for bots."}})
    api.spec.components.security_scheme("bearer", {"type": "http", "scheme": "bearer"})
    for module in (health, bots, decisions, tournaments, tables, ratings):
        api.register_blueprint(module.blp)
    @app.before_request
    def json_bodies_only():
        """Refuse oversized bodies, and bodies not declared JSON (they would be ignored)."""
        length = request.content_length or 0
        limit = app.config["MAX_CONTENT_LENGTH"]
        if length > limit:
            if length <= DRAIN_LIMIT:    # read it, or the client may see a reset, not the 413
                request.environ["wsgi.input"].read(length)
            return problem(413, f"the request body is {length} bytes; the limit is {limit}")
        if request.method in ("POST", "PUT", "PATCH") and length and not request.is_json:
            return problem(415, "the request body must be JSON (Content-Type: application/json)")

    with app.app_context():
        try:
            ensure_builtins(store, BUILTIN)
        except Exception:      # Redis may come up after the API; /ready reports it
            app.logger.warning("Redis not reachable at start-up; built-in bots will be registered later")
    return app
