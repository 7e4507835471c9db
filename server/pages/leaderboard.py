"""The home page: the leaderboard of one ruleset, from the same ratings the API serves."""

from __future__ import annotations

from flask import abort, render_template, request

from server.engine import BASE_RULESETS, DEFAULT_RULESET
from server.ratings import leaderboard

from ..api.context import arena
from .blueprint import bp


def bot_kinds() -> dict[str, str]:
    """Each registered bot's kind (built-in or remote), for labels and links."""
    return {b["name"]: b["kind"] for b in arena().store.bots()}


@bp.route("/")
@bp.route("/leaderboard")
def leaderboard_page():
    ruleset = request.args.get("ruleset", DEFAULT_RULESET)
    if ruleset not in BASE_RULESETS:
        abort(404, description=f"unknown ruleset {ruleset!r} (known: {', '.join(BASE_RULESETS)})")
    rows = leaderboard(arena().store.ratings(ruleset))
    return render_template("leaderboard.html", ruleset=ruleset, rulesets=list(BASE_RULESETS), rows=rows,
                           kinds=bot_kinds())
