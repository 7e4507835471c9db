"""Ratings per bot and ruleset, with their uncertainty, from completed duplicate matches.

openskill's Plackett-Luce model (pinned: its results change between versions) keeps a
mean ``mu`` and an uncertainty ``sigma`` per bot and updates both from each result;
the leaderboard ranks by the conservative ``mu - 3 sigma``. A duplicate match enters
as a win only when its 95% interval excludes zero and as a draw otherwise, so a rating
moves on proven differences, not on noise. We chose openskill over a hand-written
Bradley-Terry fit because it is maintained, gives the uncertainty directly, and updates
incrementally as each match completes.
"""

from __future__ import annotations

from typing import Any

from openskill.models import PlackettLuce

MODEL = PlackettLuce()


def initial() -> dict[str, Any]:
    fresh = MODEL.rating()
    return {"mu": fresh.mu, "sigma": fresh.sigma, "matches": 0, "boards": 0}


def update(x: dict[str, Any], y: dict[str, Any], outcome: int,
           boards: int = 0) -> tuple[dict[str, Any], dict[str, Any]]:
    """New ratings of X and Y after a match X won (+1), drew (0) or lost (-1) on ``boards`` new board pairs."""
    ranks = {1: [1, 2], 0: [1, 1], -1: [2, 1]}[outcome]
    [[rx], [ry]] = MODEL.rate([[MODEL.rating(mu=x["mu"], sigma=x["sigma"])],
                               [MODEL.rating(mu=y["mu"], sigma=y["sigma"])]], ranks=ranks)
    return ({"mu": rx.mu, "sigma": rx.sigma, "matches": x["matches"] + 1, "boards": x.get("boards", 0) + boards},
            {"mu": ry.mu, "sigma": ry.sigma, "matches": y["matches"] + 1, "boards": y.get("boards", 0) + boards})


def shown(rating: dict[str, Any]) -> dict[str, float]:
    """A rating as every page and API answer shows it: mu, sigma and the conservative
    rating (mu - 3 sigma), rounded once here so the leaderboard and a bot's rating
    history (``Store.rating_history``) print the same numbers."""
    return {"mu": round(rating["mu"], 3), "sigma": round(rating["sigma"], 3),
            "rating": round(rating["mu"] - 3 * rating["sigma"], 3)}


def leaderboard(ratings: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """Bots by conservative rating (mu - 3 sigma), best first."""
    rows = [{"bot": bot, **shown(r), "matches": r["matches"], "boards": r.get("boards", 0)}
            for bot, r in ratings.items()]
    return sorted(rows, key=lambda row: (-row["rating"], row["bot"]))
