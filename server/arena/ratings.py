"""Ratings per bot and ruleset: each bot's strength in points per board against an average
field, fitted at once to every piece of board-level evidence stored (docs/statistics.md,
*Ratings*).

A rated comparison (a duplicate match, every two entrants of a field match, or a blind
entrant against its reference bots' par room) is stored as a ``record``: X, Y and X's
score minus Y's on each board. The model is ``d = s_X - s_Y + noise`` per board, fitted by
weighted least squares over all the boards of a ruleset, each weighted by the inverse of
the variance of its pair of bots' board differences (estimated from that pair's boards,
shrunk toward the pooled variance and floored). The bots are tied together through their
common opponents; the strengths of the bots connected by comparisons sum to zero, so a
rating is what a bot gains per board against the average of the field it was compared
with. The fit's covariance gives each bot a standard error and a 95% interval; a bot is
*provisional* while that interval is wide (``PROVISIONAL_HALF_WIDTH``) or it has few boards.

We replaced openskill's win/draw/loss updates: they depended on how the same boards were
split into matches and on the order they were replayed in, and rated many drawn matches
above one clear win. The fit depends on the set of evidence alone: on each pair of bots'
count, mean and variance of board differences, accumulated in a fixed order, so the same
boards give the same ratings however they were split, listed or finished. A piece of
evidence (``evidence`` and a board number: the same bots, deal set, options and board,
played the same way) counts once: in the first record in canonical order that holds it.

The solve is pure Python (a Gauss-Jordan inverse per connected group of bots): tens of
bots make a matrix of tens of rows, and numpy is not otherwise a dependency.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

Z95 = 1.959963984540054
PROVISIONAL_HALF_WIDTH = 2.0
"""A rating is provisional while its 95% interval is wider than this either side (points per board)."""
PROVISIONAL_BOARDS = 20
"""... or while fewer boards than this rate it."""
VARIANCE_FLOOR = 1.0
"""The least variance (points per board, squared) a pair's board difference is given: a pair
whose few boards happened to agree does not get a weight without bound."""
PRIOR_BOARDS = 4
"""A pair's variance is shrunk toward the pooled variance as if by this many boards of it."""


def record(
    cid: str, order: list[int], x: str, y: str, evidence: str, scores: dict[int, float], t: float
) -> dict[str, Any]:
    """A rated comparison as it is stored: everything the fit needs.

    ``order`` is its canonical position (compared as a list, then the id breaks ties; its
    first element is the tournament's number, the unit of rating history), ``evidence``
    names what it compares apart from the board number, ``scores`` is X's score minus
    Y's per board and ``t`` when it was rated (its history points' time)."""
    return {
        "id": cid,
        "order": order,
        "x": x,
        "y": y,
        "evidence": evidence,
        "t": t,
        "scores": [[b, scores[b]] for b in sorted(scores)],
    }


def canonical(records: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted(records, key=lambda r: (r["order"], r["id"]))


@dataclass
class Pair:
    """What the fit reads of a pair of bots (``low`` < ``high``): its boards' count, and the
    sum and sum of squares of ``low``'s score minus ``high``'s."""

    n: int = 0
    total: float = 0.0
    squares: float = 0.0

    @property
    def mean(self) -> float:
        return self.total / self.n

    @property
    def spread(self) -> float:
        """Sum of squared deviations from the pair's mean."""
        return max(self.squares - self.total * self.total / self.n, 0.0)


@dataclass
class Fit:
    """The ratings of every bot compared, and how many boards each record owns."""

    ratings: dict[str, dict[str, Any]]
    owned: dict[str, int]


class Evidence:
    """Every pair's board differences, each piece of evidence once: records are added in
    canonical order and the first one holding a piece owns it. A pair's sums are oriented
    by name, so they do not depend on how the records were made or which bot was X."""

    def __init__(self) -> None:
        self.pairs: dict[tuple[str, str], Pair] = {}
        self.owned: dict[str, int] = {}
        self.matches: dict[str, int] = {}
        self.seen: set[tuple[str, int]] = set()

    def add(self, r: dict[str, Any]) -> None:
        flip = r["x"] > r["y"]
        key = (r["y"], r["x"]) if flip else (r["x"], r["y"])
        mine = 0
        for board, score in r["scores"]:
            if (r["evidence"], board) in self.seen:
                continue
            self.seen.add((r["evidence"], board))
            d = -score if flip else score
            pair = self.pairs.setdefault(key, Pair())
            pair.n, pair.total, pair.squares = pair.n + 1, pair.total + d, pair.squares + d * d
            mine += 1
        self.owned[r["id"]] = mine
        if mine:
            for bot in key:
                self.matches[bot] = self.matches.get(bot, 0) + 1

    def ratings(self) -> dict[str, dict[str, Any]]:
        """Each bot's rating as stored: its estimate (``rating``), standard error, 95%
        interval, whether it is provisional, and the comparisons and boards that rate it."""
        boards: dict[str, int] = {}
        for key, p in self.pairs.items():
            for bot in key:
                boards[bot] = boards.get(bot, 0) + p.n
        out = {}
        for bot, (estimate, se) in solve(self.pairs).items():
            half = Z95 * se
            out[bot] = {
                "rating": estimate,
                "se": se,
                "low": estimate - half,
                "high": estimate + half,
                "provisional": half > PROVISIONAL_HALF_WIDTH or boards[bot] < PROVISIONAL_BOARDS,
                "matches": self.matches[bot],
                "boards": boards[bot],
            }
        return out


def variances(pairs: dict[tuple[str, str], Pair]) -> dict[tuple[str, str], float]:
    """Each pair's variance of a board difference: its own boards' variance shrunk toward the
    pooled one by ``PRIOR_BOARDS``, never below ``VARIANCE_FLOOR``."""
    freedom = sum(p.n - 1 for p in pairs.values())
    if freedom > 0:
        pooled = sum(p.spread for p in pairs.values()) / freedom
    else:  # one board per pair: the mean square is all there is
        pooled = sum(p.squares for p in pairs.values()) / max(sum(p.n for p in pairs.values()), 1)
    pooled = max(pooled, VARIANCE_FLOOR)
    return {
        key: max((p.spread + PRIOR_BOARDS * pooled) / (p.n - 1 + PRIOR_BOARDS), VARIANCE_FLOOR)
        for key, p in pairs.items()
    }


def _inverse(m: list[list[float]]) -> list[list[float]]:
    """Gauss-Jordan with partial pivoting, for the small symmetric positive definite
    matrices of the fit."""
    n = len(m)
    a = [row[:] + [1.0 if i == j else 0.0 for j in range(n)] for i, row in enumerate(m)]
    for c in range(n):
        pivot = max(range(c, n), key=lambda i: abs(a[i][c]))
        a[c], a[pivot] = a[pivot], a[c]
        p = a[c][c]
        a[c] = [v / p for v in a[c]]
        for i in range(n):
            if i != c and a[i][c] != 0.0:
                f = a[i][c]
                a[i] = [v - f * w for v, w in zip(a[i], a[c])]
    return [row[n:] for row in a]


def _groups(bots: list[str], pairs: Iterable[tuple[str, str]]) -> list[list[str]]:
    """The bots in groups connected by comparisons, each sorted by name."""
    parent = {b: b for b in bots}

    def root(b: str) -> str:
        while parent[b] != b:
            b = parent[b]
        return b

    for x, y in pairs:
        parent[root(x)] = root(y)
    groups: dict[str, list[str]] = {}
    for b in bots:
        groups.setdefault(root(b), []).append(b)
    return sorted(groups.values())


def solve(pairs: dict[tuple[str, str], Pair]) -> dict[str, tuple[float, float]]:
    """Each bot's strength and standard error: the weighted least squares fit of every
    board difference on ``s_low - s_high``, the strengths of each connected group summing
    to zero.

    With weights the inverse variances, the normal equations' matrix is the weighted
    Laplacian ``L`` of the comparison graph and the fit's covariance its pseudo-inverse,
    ``(L + J/n)^-1 - J/n`` on a connected group of ``n`` bots (``J`` all ones): the
    estimate is that times the weighted sums of the differences."""
    weight = {key: p.n / v for (key, p), v in zip(pairs.items(), variances(pairs).values())}
    bots = sorted({b for key in pairs for b in key})
    out: dict[str, tuple[float, float]] = {}
    for group in _groups(bots, pairs):
        n, at = len(group), {b: i for i, b in enumerate(group)}
        m = [[1.0 / n] * n for _ in range(n)]
        rhs = [0.0] * n
        for (low, high), p in sorted(pairs.items()):
            if low not in at:
                continue
            i, j, w = at[low], at[high], weight[(low, high)]
            m[i][i] += w
            m[j][j] += w
            m[i][j] -= w
            m[j][i] -= w
            rhs[i] += w * p.mean
            rhs[j] -= w * p.mean
        inverse = _inverse(m)
        for i, bot in enumerate(group):
            estimate = sum(inverse[i][k] * rhs[k] for k in range(n))
            out[bot] = (estimate, math.sqrt(max(inverse[i][i] - 1.0 / n, 0.0)))
    return out


def fit(records: Iterable[dict[str, Any]]) -> Fit:
    """The ratings from a set of records (with their scores)."""
    evidence = Evidence()
    for r in canonical(records):
        evidence.add(r)
    return Fit(evidence.ratings(), evidence.owned)


def steps(records: list[dict[str, Any]], since: int) -> tuple[list[tuple[int, float, dict[str, dict[str, Any]]]], Fit]:
    """The ratings as each tournament numbered ``since`` or later left them: (its number, the
    latest time among its records, the ratings fitted to every record up to it), a rating
    history point each; and the fit of every record. One pass over the evidence: each step
    solves from the pairs' sums so far."""
    ordered = canonical(records)
    times: dict[int, float] = {}
    for r in ordered:
        times[r["order"][0]] = max(times.get(r["order"][0], r["t"]), r["t"])
    evidence, out = Evidence(), []
    for i, r in enumerate(ordered):
        evidence.add(r)
        n = r["order"][0]
        if n >= since and (i + 1 == len(ordered) or ordered[i + 1]["order"][0] != n):
            out.append((n, times[n], evidence.ratings()))
    return out, Fit(out[-1][2] if out else evidence.ratings(), evidence.owned)


def shown(rating: dict[str, Any]) -> dict[str, Any]:
    """A rating as every page and API answer shows it, rounded once here so the leaderboard
    and a bot's rating history (``Store.rating_history``) print the same numbers."""
    return {
        "rating": round(rating["rating"], 3),
        "se": round(rating["se"], 3),
        "low": round(rating["low"], 3),
        "high": round(rating["high"], 3),
        "provisional": rating["provisional"],
    }


def leaderboard(ratings: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """Bots by estimated points per board against an average field, best first."""
    rows = [{"bot": bot, **shown(r), "matches": r["matches"], "boards": r["boards"]} for bot, r in ratings.items()]
    return sorted(rows, key=lambda row: (-row["rating"], row["bot"]))
