"""Liveness (the process answers) and readiness (Redis answers too)."""

from flask.views import MethodView
from flask_smorest import Blueprint, abort
from redis.exceptions import RedisError

from .context import arena
from .schemas import HealthSchema

blp = Blueprint("health", __name__, url_prefix="/api/v1", description="Health and readiness")


@blp.route("/health")
class Health(MethodView):
    @blp.response(200, HealthSchema)
    def get(self):
        return {"status": "ok"}


@blp.route("/ready")
class Ready(MethodView):
    @blp.response(200, HealthSchema)
    @blp.alt_response(503, description="Redis is not reachable")
    def get(self):
        try:
            arena().store.redis.ping()
        except RedisError:
            abort(503, message="Redis is not reachable")
        return {"status": "ready"}
