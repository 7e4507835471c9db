"""The home page: the leaderboard of one ruleset, from the same ratings the API serves,
with each bot's rating trend (its history, ``Store.rating_history``, drawn once per
version of the ratings: ``trends_of``) and when a remote bot last talked to the arena."""

from __future__ import annotations

from flask import abort, render_template, request
from markupsafe import Markup

from server.arena.ratings import leaderboard
from server.arena.store import Store
from server.engine import BASE_RULESETS, DEFAULT_RULESET, GAMES
from server.web.context import arena
from server.web.pages.blueprint import bp
from server.web.pages.charts import sparkline
from server.web.pages.drawn import drawn

TREND_POINTS = 50  # a sparkline shows the last this many rating changes


def trends_of(store: Store, ruleset: str, version: str, bots: list[str]) -> dict[str, Markup]:
    """Each bot's sparkline of its last ``TREND_POINTS`` ratings, drawn once per version
    of the ratings (``drawn``); the histories of those not drawn yet read in one round trip."""

    def draw(missing: list[int]) -> list[Markup]:
        names = [bots[i] for i in missing]
        history = store.rating_history(ruleset, names, last=TREND_POINTS)
        return [
            sparkline([p["rating"] for p in history[b]], f"{b}'s rating over its last {len(history[b])} changes")
            for b in names
        ]

    lines = drawn([((store.prefix, ruleset, "trend", bot), version) for bot in bots], draw)
    return dict(zip(bots, lines))


@bp.route("/")
@bp.route("/leaderboard")
def leaderboard_page():
    ruleset = request.args.get("ruleset", DEFAULT_RULESET)
    if ruleset not in GAMES:
        abort(404, description=f"unknown ruleset {ruleset!r} (known: {', '.join(GAMES)})")
    store = arena().store
    rated = set(store.rating_rulesets())
    # a tab for each Cinch ruleset, and for each other game of the family once it has ratings
    tabs = [r for r in GAMES if r in BASE_RULESETS or r in rated or r == ruleset]
    version, ratings = store.versioned_ratings(ruleset)
    rows = leaderboard(ratings)
    bots = [r["bot"] for r in rows]
    kinds = store.bot_kinds(bots)
    trends = trends_of(store, ruleset, version, bots)
    seen = store.last_seen_of(bot for bot in bots if kinds.get(bot) == "remote")
    return render_template(
        "leaderboard.html", ruleset=ruleset, rulesets=tabs, rows=rows, kinds=kinds, trends=trends, seen=seen
    )
