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

TREND_POINTS = 50  # a sparkline shows the last this many rating changes

_trends: dict[tuple[str, str], tuple[str, dict[str, Markup]]] = {}
"""(prefix, ruleset) -> the ratings' version and the sparklines drawn at it, by bot: a
history changes only with the version (``Store.versioned_ratings``), so a leaderboard
redraws its hundred sparklines once per refresh, not once per view. One entry per
ruleset and store, replaced when the version moves."""


def trends_of(store: Store, ruleset: str, version: str, bots: list[str]) -> dict[str, Markup]:
    """Each bot's sparkline of its last ``TREND_POINTS`` ratings, drawn once per version."""
    key = (store.prefix, ruleset)
    kept_version, kept = _trends.get(key, ("", {}))
    drawn = kept if kept_version == version else {}
    missing = [bot for bot in bots if bot not in drawn]
    if missing:
        history = store.rating_history(ruleset, missing, last=TREND_POINTS)
        drawn = {
            **drawn,
            **{
                bot: sparkline([p["rating"] for p in points], f"{bot}'s rating over its last {len(points)} changes")
                for bot, points in history.items()
            },
        }
        _trends[key] = (version, drawn)
    return {bot: drawn[bot] for bot in bots}


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
