"""Liveness (the process answers) and readiness (Redis answers too).

Readiness asks Redis on a connection pool of its own (``ArenaContext.health``): a probe
behind a thousand requests queuing for the app's pool would be slow or a 503 although
Redis and the process are well, and a load balancer would take the process out of
service in the middle of a burst it is getting through."""

from flask.views import MethodView
from flask_smorest import Blueprint

from server.web.api.schemas import HealthSchema
from server.web.context import arena

blp = Blueprint("health", __name__, url_prefix="/api/v1", description="Health and readiness")


@blp.route("/health")
class Health(MethodView):
    @blp.response(200, HealthSchema)
    @blp.doc(operationId="get_health")
    def get(self):
        return {"status": "ok"}


@blp.route("/ready")
class Ready(MethodView):
    @blp.response(200, HealthSchema)
    @blp.alt_response(503, description="Redis is not reachable (with Retry-After)")
    @blp.doc(operationId="get_ready")
    def get(self):
        arena().health.ping()  # Redis trouble is the app's 503 with Retry-After
        return {"status": "ready"}
