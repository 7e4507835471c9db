"""The leaderboard per ruleset, with each rating's uncertainty, and a bot's rating history."""

from flask.views import MethodView
from flask_smorest import Blueprint, abort

from server.arena.ratings import leaderboard
from server.engine import GAMES
from server.web.api.schemas import LeaderboardSchema, RatingHistorySchema
from server.web.context import arena

blp = Blueprint("ratings", __name__, url_prefix="/api/v1/ratings", description="Leaderboards")


@blp.route("/<ruleset>")
class Ratings(MethodView):
    @blp.response(200, LeaderboardSchema)
    @blp.doc(operationId="get_ratings")
    def get(self, ruleset):
        """Bots by estimated points per board against an average field, best first, with a
        95% interval each."""
        known_ruleset(ruleset)
        return {"ruleset": ruleset, "bots": leaderboard(arena().store.ratings(ruleset))}


def known_ruleset(ruleset: str) -> None:
    """404 unless ``ruleset`` is a registered game: every ruleset has its leaderboard."""
    if ruleset not in GAMES:
        abort(404, message=f"unknown ruleset {ruleset!r} (known: {', '.join(GAMES)})")


@blp.route("/<ruleset>/<bot>/history")
class History(MethodView):
    @blp.response(200, RatingHistorySchema)
    @blp.alt_response(404, description="no such ruleset or bot")
    @blp.doc(operationId="get_rating_history")
    def get(self, ruleset, bot):
        """A bot's rating after each change, oldest first: the last 1,000 changes (a finished
        tournament each). Empty for a bot not rated in the ruleset."""
        known_ruleset(ruleset)
        store = arena().store
        store.bot(bot)  # StoreError: a 404 naming the bot
        return {"ruleset": ruleset, "bot": bot, "points": store.rating_history(ruleset, [bot])[bot]}
