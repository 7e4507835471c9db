"""The leaderboard per ruleset, with each rating's uncertainty."""

from flask.views import MethodView
from flask_smorest import Blueprint, abort

from server.engine import BASE_RULESETS
from server.ratings import leaderboard

from .context import arena
from .schemas import LeaderboardSchema

blp = Blueprint("ratings", __name__, url_prefix="/api/v1/ratings", description="Leaderboards")


@blp.route("/<ruleset>")
class Ratings(MethodView):
    @blp.response(200, LeaderboardSchema)
    @blp.doc(operationId="get_ratings")
    def get(self, ruleset):
        """Bots by conservative rating (mu - 3 sigma), best first."""
        if ruleset not in BASE_RULESETS:
            abort(404, message=f"unknown ruleset {ruleset!r} (known: {', '.join(BASE_RULESETS)})")
        return {"ruleset": ruleset, "bots": leaderboard(arena().store.ratings(ruleset))}
