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


@dataclass
class Fit:
    """The ratings of every bot compared, and how many boards each record owns."""

    ratings: dict[str, dict[str, Any]]
    owned: dict[str, int]


class Clusters:
    """Every cluster's cells (a pair's count and sum of differences on one board of some
    cards), kept so that a solve reads them at once (``robust_variances``): a refit from
    scratch solves once per tournament of its history, and a Python loop over the cells at
    each solve made it quadratic in the boards stored (371 s of seeding 100,000 board
    pairs). The clusters holding one pair (every board of a plain two-bot match) are read
    through each pair's running sums, in constant time a pair: sums over such clusters of
    D^2, k D and k^2 for a cell of k differences summing to D. The cells of the clusters
    holding several pairs are in flat arrays. Pairs are named by their number
    (``Evidence.numbers``)."""

    def __init__(self) -> None:
        self.shared = 0
        """How many clusters hold more than one pair."""
        self.cluster, self.pair, self.k, self.total = array("q"), array("q"), array("d"), array("d")
        """Per cell of a cluster holding several pairs: its cluster's number among those,
        its pair, its count and its sum of differences."""
        self.single = (array("d"), array("d"), array("d"), array("d"))
        """Per pair, over the clusters holding it alone: clusters, sum D^2, sum k D, sum k^2."""
        self._numbers: dict[tuple[str, int], int] = {}
        """The clusters holding several pairs: their number."""
        self._cells: dict[tuple[tuple[str, int], int], int] = {}
        self._alone: dict[tuple[str, int], list[float]] = {}
        """The clusters holding one pair so far: [pair, count, sum]."""

    def add(self, cluster: tuple[str, int], pair: int, d: float) -> None:
        while len(self.single[0]) <= pair:
            for sums in self.single:
                sums.append(0.0)
        alone = self._alone.get(cluster)
        if alone is not None:
            first, k, total = int(alone[0]), alone[1], alone[2]
            self._single(first, k, total, -1)
            if first == pair:  # its one pair again: its sums change
                alone[1], alone[2] = k + 1, total + d
                self._single(pair, k + 1, total + d, 1)
                return
            del self._alone[cluster]  # a second pair: the cluster's cells go to the arrays
            self._numbers[cluster] = self.shared
            self.shared += 1
            self._cell(cluster, first, k, total)
        elif cluster not in self._numbers:
            self._alone[cluster] = [pair, 1.0, d]
            self._single(pair, 1.0, d, 1)
            return
        cell = self._cells.get((cluster, pair))
        if cell is None:
            self._cell(cluster, pair, 1.0, d)
        else:
            self.k[cell] += 1
            self.total[cell] += d

    def _cell(self, cluster: tuple[str, int], pair: int, k: float, total: float) -> None:
        self._cells[(cluster, pair)] = len(self.k)
        self.cluster.append(self._numbers[cluster])
        self.pair.append(pair)
        self.k.append(k)
        self.total.append(total)

    def _single(self, pair: int, k: float, total: float, sign: int) -> None:
        many, squares, cross, counts = self.single
        many[pair] += sign
        squares[pair] += sign * total * total
        cross[pair] += sign * k * total
        counts[pair] += sign * k * k

    def single_sums(self, pairs: int) -> np.ndarray:
        """The running sums of ``single`` of pairs numbered below ``pairs``, a 4 x pairs array."""
        out = np.zeros((4, pairs))
        for row, sums in zip(out, self.single):
            row[: len(sums)] = np.frombuffer(sums, dtype=np.float64)[:pairs]
        return out

    def shared_cells(self) -> tuple[np.ndarray, ...]:
        """The cells of the clusters holding several pairs: (their cluster's number among
        those, pair, count, sum), copies (no view on the growing arrays outlives this)."""
        return (
            np.array(self.cluster, dtype=np.int64),
            np.array(self.pair, dtype=np.int64),
            np.array(self.k, dtype=np.float64),
            np.array(self.total, dtype=np.float64),
        )


class Graph(NamedTuple):
    """The bots compared (sorted by name), and each pair's two as indices into them."""

    bots: list[str]
    at: dict[str, int]
    low: np.ndarray
    high: np.ndarray


def graph_of(keys: list[tuple[str, str]], graph: Graph | None = None) -> Graph:
    """The graph of these pairs; given the graph of the first of them, only the others'
    indices are looked up, unless they bring a bot it lacks."""
    known = 0 if graph is None else len(graph.low)
    if graph is not None and all(b in graph.at for key in keys[known:] for b in key):
        low = [graph.at[low] for low, _ in keys[known:]]
        high = [graph.at[high] for _, high in keys[known:]]
        return graph._replace(low=np.append(graph.low, low), high=np.append(graph.high, high))
    bots = sorted({b for key in keys for b in key})
    at = {b: i for i, b in enumerate(bots)}
    return Graph(
        bots,
        at,
        np.array([at[low] for low, _ in keys], dtype=np.intp),
        np.array([at[high] for _, high in keys], dtype=np.intp),
    )


class Evidence:
    """Every pair's board differences, each piece of evidence once: records are added in
    canonical order and the first one holding a piece owns it. A pair's sums are oriented
    by name, so they do not depend on how the records were made or which bot was X. They
    are kept in arrays too, by pair number (the order pairs were first seen), which a
    solve reads without a Python loop over the pairs."""

    def __init__(self) -> None:
        self.pairs: dict[tuple[str, str], Pair] = {}
        self.numbers: dict[tuple[str, str], int] = {}
        """Each pair's number."""
        self.owned: dict[str, int] = {}
        self.matches: dict[str, set[str]] = {}
        self.seen: dict[str, set[int]] = {}
        """The boards of each piece of evidence counted."""
        self.clusters = Clusters()
        """Per cluster (cards and board): each pair's count and sum of differences there."""
        self._sums = (array("d"), array("d"), array("d"))
        """Per pair number: boards, sum and sum of squares of the differences."""
        self._keys: list[tuple[str, str]] = []
        """The pairs by number."""
        self._graph = graph_of([])

    def add(self, r: dict[str, Any]) -> None:
        flip = r["x"] > r["y"]
        key = (r["y"], r["x"]) if flip else (r["x"], r["y"])
        seen = self.seen.setdefault(r["evidence"], set())
        fresh = []
        for board, score in r["scores"]:
            if board not in seen:
                seen.add(board)
                fresh.append((board, -score if flip else score))
        self.owned[r["id"]] = len(fresh)
        if not fresh:
            return
        number = self.numbers.get(key)
        if number is None:
            number = self.numbers[key] = len(self.numbers)
            self._keys.append(key)
            self.pairs[key] = Pair()
            for sums in self._sums:
                sums.append(0.0)
        cards, add = r.get("cluster", r["evidence"]), self.clusters.add
        for board, d in fresh:
            add((cards, board), number, d)
        count, total, squares = len(fresh), sum(d for _, d in fresh), sum(d * d for _, d in fresh)
        pair = self.pairs[key]
        pair.n, pair.total, pair.squares = pair.n + count, pair.total + total, pair.squares + squares
        for sums, value in zip(self._sums, (count, total, squares)):
            sums[number] += value
        for bot in key:
            self.matches.setdefault(bot, set()).add(match_of(r))

    def ratings(self) -> dict[str, dict[str, Any]]:
        """Each bot's rating as stored: its estimate (``rating``), standard error, 95%
        interval, whether it is provisional, and the comparisons and boards that rate it."""
        if len(self._graph.low) != len(self.numbers):
            self._graph = graph_of(self._keys, self._graph)
        n, total, squares = (np.frombuffer(sums, dtype=np.float64).copy() for sums in self._sums)
        graph = self._graph
        boards = np.bincount(graph.low, n, len(graph.bots)) + np.bincount(graph.high, n, len(graph.bots))
        boards_of = dict(zip(graph.bots, boards.astype(int).tolist()))
        out = {}
        for bot, (estimate, se, clusters) in _solve(graph, n, total, squares, self.clusters).items():
            half = (t95(clusters - 1) if clusters > 1 else Z95) * se
            mine = boards_of[bot]
            out[bot] = {
                "rating": estimate,
                "se": se,
                "low": estimate - half,
                "high": estimate + half,
                "provisional": half > PROVISIONAL_HALF_WIDTH or mine < PROVISIONAL_BOARDS,
                "matches": len(self.matches[bot]),
                "boards": mine,
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
    ``Evidence``, whose pair numbers are the order of ``pairs``) the standard error is the
    larger of that covariance's and the cluster-robust one's (``robust_variances``)."""
    keys = list(pairs)
    n, total, squares = (
        np.array([getattr(pairs[k], f) for k in keys], dtype=np.float64) for f in ("n", "total", "squares")
    )
    return _solve(graph_of(keys), n, total, squares, clusters or Clusters())


def _solve(
    graph: Graph, n: np.ndarray, total: np.ndarray, squares: np.ndarray, clusters: Clusters
) -> dict[str, Strength]:
    """``solve`` on the pairs' sums as arrays, by pair number: every pair at once (a refit
    from scratch solves once per tournament)."""
    per_board = variances(n, total, squares)
    weight = n / per_board
    count = len(graph.bots)
    low, high = graph.low, graph.high
    laplacian = np.zeros((count, count))
    laplacian[np.diag_indices(count)] = np.bincount(low, weight, count) + np.bincount(high, weight, count)
    laplacian[low, high] = -weight
    laplacian[high, low] = -weight
    pull = weight * total / n
    rhs = np.bincount(low, pull, count) - np.bincount(high, pull, count)
    label = _groups(count, low, high)
    groups = [np.flatnonzero(label == g) for g in np.unique(label)]
    strength, covariances = np.zeros(count), []
    for group in groups:
        size = len(group)
        inverse = np.linalg.inv(laplacian[np.ix_(group, group)] + 1.0 / size)
        covariances.append(inverse - 1.0 / size)
        strength[group] = inverse @ rhs[group]
    robust, seen = robust_variances(graph, groups, covariances, strength, per_board, clusters)
    return {
        graph.bots[i]: Strength(
            float(strength[i]), math.sqrt(max(float(cov[j, j]), float(robust[i]), 0.0)), int(seen[i])
        )
        for group, cov in zip(groups, covariances)
        for j, i in enumerate(group)
    }


def robust_variances(
    graph: Graph,
    groups: list[np.ndarray],
    covariances: list[np.ndarray],
    strength: np.ndarray,
    per_board: np.ndarray,
    clusters: Clusters,
) -> tuple[np.ndarray, np.ndarray]:
    """The cluster-robust (sandwich) variance of each bot's strength (by index of
    ``graph.bots``), and the number of clusters each bot appears in: per group, ``C B C``
    with ``C`` the fit's covariance and ``B`` the sum over clusters of ``u u'``, ``u`` a
    cluster's weighted residuals (each difference less the fit's ``s_low - s_high``, over
    its pair's variance, added at ``low`` and taken at ``high``), times G/(G-1) for the
    group's G clusters.

    A board's differences then count as one draw, whatever their number and however they
    are correlated: k entrants' k(k-1)/2 differences of one board give one ``u``. Where
    every cluster holds one difference this is the usual heteroskedasticity-robust
    variance, close to the model's own."""
    count, low, high = len(graph.bots), graph.low, graph.high
    meat = np.zeros((count, count))
    # the clusters holding one pair, through the pair's sums: sum over its clusters of
    # ((D - k delta) / v)^2, added at (low, low) and (high, high), taken at (low, high)
    many, squares, cross, counts = clusters.single_sums(len(low))
    delta = strength[low] - strength[high]
    alone = many >= 1
    r2 = np.where(alone, np.maximum(squares - 2 * delta * cross + delta * delta * counts, 0.0) / per_board**2, 0.0)
    many = np.where(alone, many, 0.0)
    meat[np.diag_indices(count)] = np.bincount(low, r2, count) + np.bincount(high, r2, count)
    meat[low, high] = -r2
    meat[high, low] = -r2
    seen = np.bincount(low, many, count) + np.bincount(high, many, count)
    label = np.zeros(count, dtype=np.intp)
    for g, group in enumerate(groups):
        label[group] = g
    found = np.bincount(label[low], many, len(groups))
    # the clusters holding several pairs: each one's u, a row of a (clusters x bots) matrix
    u = presence = None
    if clusters.shared:
        number, pair, k, total = clusters.shared_cells()
        at_low, at_high = number * count + low[pair], number * count + high[pair]
        r = (total - k * delta[pair]) / per_board[pair]
        cells, shape = clusters.shared * count, (clusters.shared, count)
        u = (np.bincount(at_low, r, cells) - np.bincount(at_high, r, cells)).reshape(shape)
        presence = (np.bincount(at_low, minlength=cells) + np.bincount(at_high, minlength=cells)).reshape(shape) > 0
    robust = np.zeros(count)
    for g, (group, cov) in enumerate(zip(groups, covariances)):
        block = meat[np.ix_(group, group)]
        clustered = float(found[g])
        if u is not None and presence is not None:
            mine = u[:, group]
            block = block + mine.T @ mine
            here = presence[:, group]
            clustered += float(np.count_nonzero(here.any(axis=1)))
            seen[group] += here.sum(axis=0)
        if clustered >= 2:
            # Only the diagonal of C B C is needed: (C B C)_ii = c_i' B c_i.
            robust[group] = clustered / (clustered - 1) * np.einsum("ij,jk,ik->i", cov, block, cov)
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
