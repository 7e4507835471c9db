"""Ratings per bot and ruleset, with their uncertainty, from rated duplicate comparisons.

openskill's Plackett-Luce model (pinned: its results change between versions) keeps a
mean ``mu`` and an uncertainty ``sigma`` per bot and updates both from each result;
the leaderboard ranks by the conservative ``mu - 3 sigma``. A comparison (a duplicate
match, or two blind entrants on the boards they share) enters as a win only when its
95% interval excludes zero and as a draw otherwise, so a rating moves on proven
differences, not on noise. We chose openskill over a hand-written Bradley-Terry fit
because it is maintained and gives the uncertainty directly.

openskill's updates depend on their order, and workers finish comparisons in whatever
order they like, so the ratings are not updated in completion order. Each rated
comparison is stored as a record (``record``), and the ratings and every bot's history
are the result of ``replay``-ing all the records of a ruleset in the canonical order:
by ``order`` (the tournament's number, then its matches by schedule index, then a blind
movement's entrant pairs after its matches), then id. The same stored records give the
same ratings, whatever order the workers finished in. Evidence is owned the same way:
a board pair of the same two bots on the same deal set, options and board (``evidence``
and a board number) counts in the first comparison in canonical order that holds it,
and a later one is judged on its other boards alone. Replaying openskill in a fixed order
rather than fitting Bradley-Terry to all results at once keeps the model, its sigma and
the numbers every page shows, with no new dependency, and makes the ratings a function
of the stored records all the same.

A replay does not start from scratch: the ratings of each bot after each record already
reflected are kept (``known``), so only the records from the first new one in canonical
order on are recomputed. A comparison that arrives in canonical order costs one
openskill update; one that arrives k places early redoes k + 1 (``benchmarks/ratings.py``:
with 1,000 comparisons stored, a refresh takes about 12 ms when the new one is last, most
of it reading the stored heads, and about 200 ms when it is first; README, *Ratings*).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

from server.arena.stats import summarize

MODEL = PlackettLuce()


def initial() -> dict[str, Any]:
    fresh = MODEL.rating()
    return {"mu": fresh.mu, "sigma": fresh.sigma, "matches": 0, "boards": 0}


def update(
    x: dict[str, Any], y: dict[str, Any], outcome: int, boards: int = 0
) -> tuple[dict[str, Any], dict[str, Any]]:
    """New ratings of X and Y after a match X won (+1), drew (0) or lost (-1) on ``boards`` new board pairs."""
    ranks: list[float] = {1: [1.0, 2.0], 0: [1.0, 1.0], -1: [2.0, 1.0]}[outcome]
    [[rx], [ry]] = MODEL.rate(
        [[MODEL.rating(mu=x["mu"], sigma=x["sigma"])], [MODEL.rating(mu=y["mu"], sigma=y["sigma"])]], ranks=ranks
    )
    return (
        {"mu": rx.mu, "sigma": rx.sigma, "matches": x["matches"] + 1, "boards": x.get("boards", 0) + boards},
        {"mu": ry.mu, "sigma": ry.sigma, "matches": y["matches"] + 1, "boards": y.get("boards", 0) + boards},
    )


def record(
    cid: str, order: list[int], x: str, y: str, evidence: str, scores: dict[int, float], t: float
) -> dict[str, Any]:
    """A rated comparison as it is stored: everything ``replay`` needs.

    ``order`` is its canonical position (compared as a list, then the id breaks ties),
    ``evidence`` names what it compares apart from the board number, ``scores`` is X's
    score per board, ``t`` when it was rated (its history points' time) and ``outcome``
    the result on all its boards (+1 X won, 0 drew, -1 lost: the 95% interval of the
    mean excludes zero or not), the result in the usual case of owning all of them."""
    ordered = [[b, scores[b]] for b in sorted(scores)]
    return {
        "id": cid,
        "order": order,
        "x": x,
        "y": y,
        "evidence": evidence,
        "t": t,
        "outcome": summarize([s for _, s in ordered]).outcome(),
        "scores": ordered,
    }


@dataclass
class Replay:
    """What a replay changed: the records from the first one recomputed on, in canonical
    order, with their ``after`` ratings ([X's, Y's], or None for a record that owned no
    new board and so moved nothing), and every rated bot's rating at the end."""

    redone: list[dict[str, Any]]
    after: dict[str, list[dict[str, Any]] | None]
    ratings: dict[str, dict[str, Any]]


def canonical(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted(records, key=lambda r: (r["order"], r["id"]))


Scores = Callable[[list[str]], dict[str, list[list[int]]]]


def replay(
    records: list[dict[str, Any]], known: Mapping[str, list[dict[str, Any]] | None], scores_of: Scores | None = None
) -> Replay:
    """The ratings from ``records`` in canonical order, recomputing from the first record
    not in ``known`` (each reflected record's ``after`` ratings from the last replay).

    Records before that point keep their ratings (they cannot depend on later ones) and
    give each bot its starting rating (its last one: ``known`` may decode on access, and
    only those are read); those among them with the same ``evidence`` as a
    recomputed one say which boards are owned already. Only those and the recomputed
    ones need their scores: ``scores_of`` fetches them by id when the records come
    without (the store keeps scores apart, so a refresh reads only what it needs)."""
    ordered = canonical(records)
    start = next((i for i, r in enumerate(ordered) if r["id"] not in known), len(ordered))
    redo = ordered[start:]
    shared = {r["evidence"] for r in redo}
    prior = [r for r in ordered[:start] if r["evidence"] in shared]
    ids = [r["id"] for r in prior + redo]
    scores = scores_of(ids) if scores_of else {r["id"]: r["scores"] for r in prior + redo}
    owned: dict[str, set[int]] = {}
    for r in prior:
        owned.setdefault(r["evidence"], set()).update(b for b, _ in scores[r["id"]])
    current: dict[str, dict[str, Any]] = {}
    for r in reversed(ordered[:start]):  # each bot's last rating: reads few of ``known``
        if r["x"] not in current or r["y"] not in current:
            for bot, rating in zip((r["x"], r["y"]), known[r["id"]] or ()):
                current.setdefault(bot, rating)
    after: dict[str, list[dict[str, Any]] | None] = {}
    for r in redo:
        pairs, mine = scores[r["id"]], owned.setdefault(r["evidence"], set())
        fresh = [s for b, s in pairs if b not in mine] if mine else [s for _, s in pairs]
        mine.update(b for b, _ in pairs)
        if not fresh:
            after[r["id"]] = None
            continue
        outcome = r["outcome"] if len(fresh) == len(pairs) else summarize(fresh).outcome()
        x, y = update(current.get(r["x"]) or initial(), current.get(r["y"]) or initial(), outcome, len(fresh))
        current[r["x"]], current[r["y"]] = x, y
        after[r["id"]] = [x, y]
    return Replay(redo, after, current)


def shown(rating: dict[str, Any]) -> dict[str, float]:
    """A rating as every page and API answer shows it: mu, sigma and the conservative
    rating (mu - 3 sigma), rounded once here so the leaderboard and a bot's rating
    history (``Store.rating_history``) print the same numbers."""
    return {
        "mu": round(rating["mu"], 3),
        "sigma": round(rating["sigma"], 3),
        "rating": round(rating["mu"] - 3 * rating["sigma"], 3),
    }


def leaderboard(ratings: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """Bots by conservative rating (mu - 3 sigma), best first."""
    rows = [
        {"bot": bot, **shown(r), "matches": r["matches"], "boards": r.get("boards", 0)} for bot, r in ratings.items()
    ]
    return sorted(rows, key=lambda row: (-row["rating"], row["bot"]))
