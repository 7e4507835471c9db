"""The home page: the leaderboard of one ruleset, from the same ratings the API serves,
with each bot's rating trend (its history, ``Store.rating_history``) and when a remote
bot last talked to the arena."""

from __future__ import annotations

from flask import abort, render_template, request

from server.arena.ratings import leaderboard
from server.engine import BASE_RULESETS, DEFAULT_RULESET, GAMES
from server.web.context import arena
from server.web.pages.blueprint import bp
from server.web.pages.charts import sparkline

TREND_POINTS = 50  # a sparkline shows the last this many rating changes


def bot_kinds() -> dict[str, str]:
    """Each registered bot's kind (built-in or remote), for labels and links."""
    return {b["name"]: b["kind"] for b in arena().store.bots()}


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
    rows = leaderboard(store.ratings(ruleset))
    kinds = bot_kinds()
    history = store.rating_history(ruleset, [r["bot"] for r in rows], last=TREND_POINTS)
    trends = {
        bot: sparkline([p["rating"] for p in points], f"{bot}'s rating over its last {len(points)} changes")
        for bot, points in history.items()
    }
    seen = store.last_seen_of(r["bot"] for r in rows if kinds.get(r["bot"]) == "remote")
    return render_template(
        "leaderboard.html", ruleset=ruleset, rulesets=tabs, rows=rows, kinds=kinds, trends=trends, seen=seen
    )
