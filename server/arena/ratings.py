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
with. Each bot's standard error is the larger of two: the fit's own covariance (right
when every board difference is independent of the others) and a cluster-robust one, which
treats the board differences made on the same cards (one board of one deal set and
ruleset options: ``cluster``) as one draw. The second matters where one board yields
several differences: a field of k entrants gives k(k-1)/2 from k scores, a round robin
plays every pair on the same boards, blind entrants share a par room; there the model
alone claims up to k/2 times the information the boards hold. A 95% interval follows; a
bot is *provisional* while that interval is wide (``PROVISIONAL_HALF_WIDTH``) or it has
few boards.

We replaced openskill's win/draw/loss updates: they depended on how the same boards were
split into matches and on the order they were replayed in, and rated many drawn matches
above one clear win. The fit depends on the set of evidence alone: on each pair of bots'
count, mean and variance of board differences, accumulated in a fixed order, so the same
boards give the same ratings however they were split, listed or finished. A piece of
evidence (``evidence`` and a board number: the same bots, deal set, options and board,
played the same way) counts once: in the first record in canonical order that holds it.

The solve works on arrays (numpy): every pair's sums, and every board's cells where several
pairs played it, are read at once, so that a refit from scratch, which solves once per
tournament of the history, takes seconds rather than minutes at a league's size.
"""

from __future__ import annotations

import math
import os
from array import array
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, NamedTuple

# One BLAS thread, set before numpy loads OpenBLAS: a refit solves a 100 x 100 system per
# tournament of the history, too small to share, and OpenBLAS's threads spinning for a
# core on a busy machine made each inverse 6 to 200 times slower (0.3 ms alone, 1.8 to
# 69 ms at load 7 on 2 cores). A process that loads numpy first keeps its own setting.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402

from server.arena.stats import t95

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
    cid: str,
    order: list[int],
    x: str,
    y: str,
    evidence: str,
    scores: dict[int, float],
    t: float,
    cluster: str | None = None,
) -> dict[str, Any]:
    """A rated comparison as it is stored: everything the fit needs.

    ``cid`` is the comparison's id: its match's id, then ``:`` and more where a match makes
    several (``match_of``). ``order`` is its canonical position (compared as a list, then the
    id breaks ties; its first element is the tournament's number, the unit of rating
    history), ``evidence`` names what it compares apart from the board number, ``scores``
    is X's score minus Y's per board and ``t`` when it was rated (its history points'
    time). ``cluster`` names the cards apart from the board number (deal set and options):
    differences on the same cards are not independent of each other (``robust_variances``).
    A record without one (stored before clusters were) is a cluster of its own evidence."""
    return {
        "id": cid,
        "order": order,
        "x": x,
        "y": y,
        "evidence": evidence,
        "cluster": cluster if cluster is not None else evidence,
        "t": t,
        "scores": [[b, scores[b]] for b in sorted(scores)],
    }


def match_of(r: dict[str, Any]) -> str:
    """The match a record comes from (a field match makes one record per two entrants)."""
    return str(r["id"]).split(":", 1)[0]


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


class Clusters:
    """Every cluster's cells (a pair's count and sum of differences on one board of some
    cards), in flat arrays that a solve reads at once (``robust_variances``): a refit from
    scratch solves once per tournament of its history, and a Python loop over the cells at
    each solve made it quadratic in the boards stored (371 s of seeding 100,000 board
    pairs). The clusters holding one pair (every board of a plain two-bot match) are read
    through each pair's running sums instead, in constant time a pair: sums over such
    clusters of D^2, k D and k^2 for a cell of k differences summing to D."""

    def __init__(self) -> None:
        self.ids: dict[tuple[str, int], int] = {}
        """Each cluster's number, in the order they came."""
        self.bots: dict[str, int] = {}
        """Each bot's number, as the cells name it."""
        self.shared_index = array("q")
        """Per cluster: its number among the clusters holding more than one pair, else -1."""
        self.shared = 0
        """How many clusters hold more than one pair."""
        self.cluster, self.low, self.high = array("q"), array("q"), array("q")
        self.k, self.total = array("d"), array("d")
        """Per cell: its cluster, its pair's bots (numbers), its count and sum of differences."""
        self.single: dict[tuple[str, str], list[float]] = {}
        """Per pair, over the clusters holding it alone: [clusters, sum D^2, sum k D, sum k^2]."""
        self._cells: dict[tuple[int, tuple[str, str]], int] = {}
        self._alone: dict[int, tuple[int, tuple[str, str]]] = {}
        """The clusters holding one pair so far: their only cell, and its pair."""

    def add(self, cluster: tuple[str, int], pair: tuple[str, str], d: float) -> None:
        number = self.ids.setdefault(cluster, len(self.ids))
        if number == len(self.shared_index):
            self.shared_index.append(-1)
        cell = self._cells.get((number, pair))
        alone = self._alone.get(number)
        if cell is None:
            cell = self._cell(number, pair)
            if alone is None and self.shared_index[number] < 0:
                alone = self._alone[number] = (cell, pair)
            elif alone is not None:  # a second pair: take the first one's cell out of its sums
                self._single(alone[1], self.k[alone[0]], self.total[alone[0]], -1)
                del self._alone[number]
                alone = None
                self.shared_index[number] = self.shared
                self.shared += 1
        elif alone is not None:  # its one pair again: its sums change
            self._single(pair, self.k[cell], self.total[cell], -1)
        self.k[cell] += 1
        self.total[cell] += d
        if alone is not None:
            self._single(pair, self.k[cell], self.total[cell], 1)

    def _cell(self, number: int, pair: tuple[str, str]) -> int:
        cell = self._cells[(number, pair)] = len(self.k)
        self.cluster.append(number)
        self.low.append(self.bots.setdefault(pair[0], len(self.bots)))
        self.high.append(self.bots.setdefault(pair[1], len(self.bots)))
        self.k.append(0.0)
        self.total.append(0.0)
        return cell

    def _single(self, pair: tuple[str, str], k: float, total: float, sign: int) -> None:
        sums = self.single.setdefault(pair, [0, 0.0, 0.0, 0.0])
        sums[0] += sign
        sums[1] += sign * total * total
        sums[2] += sign * k * total
        sums[3] += sign * k * k

    def shared_cells(self) -> tuple[np.ndarray, ...]:
        """The cells of the clusters holding more than one pair: (their cluster's number
        among those, low bot, high bot, count, sum), as arrays of their own (the views on
        the growing arrays end here)."""
        index = np.frombuffer(self.shared_index, dtype=np.int64)[np.frombuffer(self.cluster, dtype=np.int64)]
        keep = index >= 0
        return (
            index[keep],
            np.frombuffer(self.low, dtype=np.int64)[keep],
            np.frombuffer(self.high, dtype=np.int64)[keep],
            np.frombuffer(self.k, dtype=np.float64)[keep],
            np.frombuffer(self.total, dtype=np.float64)[keep],
        )


class Evidence:
    """Every pair's board differences, each piece of evidence once: records are added in
    canonical order and the first one holding a piece owns it. A pair's sums are oriented
    by name, so they do not depend on how the records were made or which bot was X."""

    def __init__(self) -> None:
        self.pairs: dict[tuple[str, str], Pair] = {}
        self.owned: dict[str, int] = {}
        self.matches: dict[str, set[str]] = {}
        self.seen: set[tuple[str, int]] = set()
        self.clusters = Clusters()
        """Per cluster (cards and board): each pair's count and sum of differences there."""

    def add(self, r: dict[str, Any]) -> None:
        flip = r["x"] > r["y"]
        key = (r["y"], r["x"]) if flip else (r["x"], r["y"])
        mine = 0
        cards = r.get("cluster", r["evidence"])
        for board, score in r["scores"]:
            if (r["evidence"], board) in self.seen:
                continue
            self.seen.add((r["evidence"], board))
            d = -score if flip else score
            pair = self.pairs.setdefault(key, Pair())
            pair.n, pair.total, pair.squares = pair.n + 1, pair.total + d, pair.squares + d * d
            self.clusters.add((cards, board), key, d)
            mine += 1
        self.owned[r["id"]] = mine
        if mine:
            for bot in key:
                self.matches.setdefault(bot, set()).add(match_of(r))

    def ratings(self) -> dict[str, dict[str, Any]]:
        """Each bot's rating as stored: its estimate (``rating``), standard error, 95%
        interval, whether it is provisional, and the comparisons and boards that rate it."""
        boards: dict[str, int] = {}
        for key, p in self.pairs.items():
            for bot in key:
                boards[bot] = boards.get(bot, 0) + p.n
        out = {}
        for bot, (estimate, se, clusters) in solve(self.pairs, self.clusters).items():
            half = (t95(clusters - 1) if clusters > 1 else Z95) * se
            out[bot] = {
                "rating": estimate,
                "se": se,
                "low": estimate - half,
                "high": estimate + half,
                "provisional": half > PROVISIONAL_HALF_WIDTH or boards[bot] < PROVISIONAL_BOARDS,
                "matches": len(self.matches[bot]),
                "boards": boards[bot],
            }
        return out


def variances(n: np.ndarray, total: np.ndarray, squares: np.ndarray) -> np.ndarray:
    """Each pair's variance of a board difference, from its boards' count, sum and sum of
    squares: its own boards' variance shrunk toward the pooled one by ``PRIOR_BOARDS``,
    never below ``VARIANCE_FLOOR``."""
    spread = np.maximum(squares - total * total / n, 0.0)  # squared deviations from the pair's mean
    freedom = float(np.sum(n - 1))
    if freedom > 0:
        pooled = float(np.sum(spread)) / freedom
    else:  # one board per pair: the mean square is all there is
        pooled = float(np.sum(squares)) / max(float(np.sum(n)), 1.0)
    pooled = max(pooled, VARIANCE_FLOOR)
    return np.maximum((spread + PRIOR_BOARDS * pooled) / (n - 1 + PRIOR_BOARDS), VARIANCE_FLOOR)


def _groups(n: int, low: np.ndarray, high: np.ndarray) -> np.ndarray:
    """Each of ``n`` bots' group of bots connected by comparisons (pairs ``low``-``high``),
    named by its first bot's index: minimum labels spread along the pairs, with pointer
    jumping, until they settle (a few rounds: a league's bots are closely knit)."""
    label = np.arange(n)
    while True:
        least = np.minimum(label[low], label[high])
        spread = label.copy()
        np.minimum.at(spread, low, least)
        np.minimum.at(spread, high, least)
        spread = spread[spread]
        if np.array_equal(spread, label):
            return label
        label = spread


class Strength(NamedTuple):
    estimate: float
    se: float
    clusters: int
    """The clusters (boards) that rate the bot: its interval is Student's t with one fewer
    degrees of freedom, since the robust variance is estimated from them (0 without clusters)."""


def solve(
    pairs: dict[tuple[str, str], Pair],
    clusters: Clusters | None = None,
) -> dict[str, Strength]:
    """Each bot's strength and standard error: the weighted least squares fit of every
    board difference on ``s_low - s_high``, the strengths of each connected group summing
    to zero.

    With weights the inverse variances, the normal equations' matrix is the weighted
    Laplacian ``L`` of the comparison graph and the fit's covariance its pseudo-inverse,
    ``(L + J/n)^-1 - J/n`` on a connected group of ``n`` bots (``J`` all ones): the
    estimate is that times the weighted sums of the differences. With ``clusters`` (see
    ``Evidence``) the standard error is the larger of that covariance's and the
    cluster-robust one's (``robust_variances``). Every pair at once, in arrays: a refit
    from scratch solves once per tournament."""
    keys = sorted(pairs)
    bots = sorted({b for key in keys for b in key})
    at = {b: i for i, b in enumerate(bots)}
    fit = _Pairs(
        np.array([at[low] for low, _ in keys], dtype=np.intp),
        np.array([at[high] for _, high in keys], dtype=np.intp),
        np.array([pairs[key].n for key in keys], dtype=np.float64),
        np.array([pairs[key].total for key in keys], dtype=np.float64),
        np.array([pairs[key].squares for key in keys], dtype=np.float64),
    )
    per_board = variances(fit.n, fit.total, fit.squares)
    weight = fit.n / per_board
    count = len(bots)
    laplacian = np.zeros((count, count))
    laplacian[np.diag_indices(count)] = np.bincount(fit.low, weight, count) + np.bincount(fit.high, weight, count)
    laplacian[fit.low, fit.high] = -weight
    laplacian[fit.high, fit.low] = -weight
    pull = weight * fit.total / fit.n
    rhs = np.bincount(fit.low, pull, count) - np.bincount(fit.high, pull, count)
    label = _groups(count, fit.low, fit.high)
    groups = [np.flatnonzero(label == g) for g in np.unique(label)]
    strength, covariances = np.zeros(count), []
    for group in groups:
        n = len(group)
        inverse = np.linalg.inv(laplacian[np.ix_(group, group)] + 1.0 / n)
        covariances.append(inverse - 1.0 / n)
        strength[group] = inverse @ rhs[group]
    robust, seen = robust_variances(bots, groups, covariances, strength, fit, per_board, keys, clusters or Clusters())
    return {
        bots[i]: Strength(float(strength[i]), math.sqrt(max(float(cov[j, j]), float(robust[i]), 0.0)), int(seen[i]))
        for group, cov in zip(groups, covariances)
        for j, i in enumerate(group)
    }


class _Pairs(NamedTuple):
    """The pairs a solve reads, as arrays: the bots' indices (low < high by name), and each
    pair's count, sum and sum of squares of ``low``'s score minus ``high``'s."""

    low: np.ndarray
    high: np.ndarray
    n: np.ndarray
    total: np.ndarray
    squares: np.ndarray


def robust_variances(
    bots: list[str],
    groups: list[np.ndarray],
    covariances: list[np.ndarray],
    strength: np.ndarray,
    pairs: _Pairs,
    per_board: np.ndarray,
    keys: list[tuple[str, str]],
    clusters: Clusters,
) -> tuple[np.ndarray, np.ndarray]:
    """The cluster-robust (sandwich) variance of each bot's strength (by index of
    ``bots``), and the number of clusters each bot appears in: per group, ``C B C`` with
    ``C`` the fit's covariance and ``B`` the sum over clusters of ``u u'``, ``u`` a cluster's
    weighted residuals (each difference less the fit's ``s_low - s_high``, over its pair's
    variance, added at ``low`` and taken at ``high``), times G/(G-1) for the group's G
    clusters.

    A board's differences then count as one draw, whatever their number and however they
    are correlated: k entrants' k(k-1)/2 differences of one board give one ``u``. Where
    every cluster holds one difference this is the usual heteroskedasticity-robust
    variance, close to the model's own."""
    count = len(bots)
    meat = np.zeros((count, count))
    seen = np.zeros(count)
    # the clusters holding one pair, through the pair's sums: sum over its clusters of
    # ((D - k delta) / v)^2, added at (low, low) and (high, high), taken at (low, high)
    sums = np.array([clusters.single.get(key, (0, 0.0, 0.0, 0.0)) for key in keys], dtype=np.float64).reshape(-1, 4)
    many, squares, cross, counts = sums.T
    delta = strength[pairs.low] - strength[pairs.high]
    r2 = np.where(many >= 1, np.maximum(squares - 2 * delta * cross + delta * delta * counts, 0.0) / per_board**2, 0.0)
    many = np.where(many >= 1, many, 0.0)
    meat[np.diag_indices(count)] = np.bincount(pairs.low, r2, count) + np.bincount(pairs.high, r2, count)
    meat[pairs.low, pairs.high] = -r2
    meat[pairs.high, pairs.low] = -r2
    seen += np.bincount(pairs.low, many, count) + np.bincount(pairs.high, many, count)
    label = np.zeros(count, dtype=np.intp)
    for g, group in enumerate(groups):
        label[group] = g
    found = np.bincount(label[pairs.low], many, len(groups))
    # the clusters holding several pairs: each one's u, a row of a (clusters x bots) matrix
    u = presence = None
    if clusters.shared:
        number, low, high, k, total = clusters.shared_cells()
        order = np.full(len(clusters.bots), -1, dtype=np.intp)
        at = {b: i for i, b in enumerate(bots)}
        for b, i in clusters.bots.items():
            order[i] = at.get(b, -1)
        low, high = order[low], order[high]
        position = np.full((count, count), -1, dtype=np.intp)
        position[pairs.low, pairs.high] = np.arange(len(keys))
        r = (total - k * (strength[low] - strength[high])) / per_board[position[low, high]]
        cells = clusters.shared * count
        u = (np.bincount(number * count + low, r, cells) - np.bincount(number * count + high, r, cells)).reshape(
            clusters.shared, count
        )
        presence = (
            np.bincount(number * count + low, minlength=cells) + np.bincount(number * count + high, minlength=cells)
        ).reshape(clusters.shared, count) > 0
    robust = np.zeros(count)
    for g, (group, cov) in enumerate(zip(groups, covariances)):
        block = meat[np.ix_(group, group)]
        total_clusters = float(found[g])
        if u is not None and presence is not None:
            mine = u[:, group]
            block = block + mine.T @ mine
            here = presence[:, group]
            total_clusters += float(np.count_nonzero(here.any(axis=1)))
            seen[group] += here.sum(axis=0)
        if total_clusters >= 2:
            scale = total_clusters / (total_clusters - 1)
            # Only the diagonal of C B C is needed: (C B C)_ii = c_i' B c_i.
            robust[group] = scale * np.einsum("ij,jk,ik->i", cov, block, cov)
    return robust, seen


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
