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

The solve is pure Python (a Gauss-Jordan inverse per connected group of bots): tens of
bots make a matrix of tens of rows, and numpy is not otherwise a dependency.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, NamedTuple

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
    """Every cluster's cells (a pair's count and sum of differences on that board), kept
    so that the robust variance reads the clusters holding several pairs one by one, and
    those holding one pair (every board of a plain two-bot match) through each pair's
    running sums, which a refit reads in constant time: sums over such clusters of D^2,
    k D and k^2 for a cell of k differences summing to D."""

    def __init__(self) -> None:
        self.cells: dict[tuple[str, int], dict[tuple[str, str], list[float]]] = {}
        self.shared: set[tuple[str, int]] = set()
        """The clusters holding more than one pair."""
        self.single: dict[tuple[str, str], list[float]] = {}
        """Per pair, over the clusters holding it alone: [clusters, sum D^2, sum k D, sum k^2]."""

    def add(self, cluster: tuple[str, int], pair: tuple[str, str], d: float) -> None:
        cells = self.cells.setdefault(cluster, {})
        if len(cells) == 1:  # it held one pair alone: take that cell out of the pair's sums
            [(alone, (k, total))] = cells.items()
            self._single(alone, k, total, -1)
            if alone != pair:
                self.shared.add(cluster)
        cell = cells.setdefault(pair, [0, 0.0])
        cell[0], cell[1] = cell[0] + 1, cell[1] + d
        if len(cells) == 1:
            self._single(pair, cell[0], cell[1], 1)

    def _single(self, pair: tuple[str, str], k: float, total: float, sign: int) -> None:
        sums = self.single.setdefault(pair, [0, 0.0, 0.0, 0.0])
        sums[0] += sign
        sums[1] += sign * total * total
        sums[2] += sign * k * total
        sums[3] += sign * k * k


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
        pivot_row = a[c][c:]  # its columns before c are zeros: v - f * 0 leaves them as they are
        for i in range(n):
            if i != c and a[i][c] != 0.0:
                f, row = a[i][c], a[i]
                row[c:] = [v - f * w for v, w in zip(row[c:], pivot_row)]
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
    cluster-robust one's (``robust_variances``)."""
    per_board = variances(pairs)
    weight = {key: p.n / per_board[key] for key, p in pairs.items()}
    bots = sorted({b for key in pairs for b in key})
    out: dict[str, Strength] = {}
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
        cov = [[v - 1.0 / n for v in row] for row in inverse]
        strength = {bot: sum(inverse[i][k] * rhs[k] for k in range(n)) for i, bot in enumerate(group)}
        robust, seen = robust_variances(group, cov, strength, per_board, clusters or Clusters())
        for i, bot in enumerate(group):
            out[bot] = Strength(strength[bot], math.sqrt(max(cov[i][i], robust[i], 0.0)), seen[i])
    return out


def robust_variances(
    group: list[str],
    cov: list[list[float]],
    strength: dict[str, float],
    per_board: dict[tuple[str, str], float],
    clusters: Clusters,
) -> tuple[list[float], list[int]]:
    """The cluster-robust (sandwich) variance of each strength of ``group``, and the number
    of clusters each bot appears in: ``C B C`` with
    ``C`` the fit's covariance and ``B`` the sum over clusters of ``u u'``, ``u`` a cluster's
    weighted residuals (each difference less the fit's ``s_low - s_high``, over its pair's
    variance, added at ``low`` and taken at ``high``), times G/(G-1) for G clusters.

    A board's differences then count as one draw, whatever their number and however they
    are correlated: k entrants' k(k-1)/2 differences of one board give one ``u``. Where
    every cluster holds one difference this is the usual heteroskedasticity-robust
    variance, close to the model's own."""
    at = {b: i for i, b in enumerate(group)}
    n = len(group)
    meat = [[0.0] * n for _ in range(n)]
    count, seen = 0, [0] * n
    for (low, high), (many, squares, cross, counts) in clusters.single.items():
        if low not in at or many < 1:
            continue
        i, j, delta = at[low], at[high], strength[low] - strength[high]
        # sum over its clusters of ((D - k delta) / v)^2, added at (i, i) and (j, j), taken at (i, j)
        r2 = max(squares - 2 * delta * cross + delta * delta * counts, 0.0) / per_board[(low, high)] ** 2
        meat[i][i] += r2
        meat[j][j] += r2
        meat[i][j] -= r2
        meat[j][i] -= r2
        count += int(many)
        seen[i] += int(many)
        seen[j] += int(many)
    for cluster in clusters.shared:
        cells = clusters.cells[cluster]
        u: dict[int, float] = {}
        for (low, high), (k, total) in cells.items():
            if low not in at:
                continue  # the same cards played by bots of another group
            r = (total - k * (strength[low] - strength[high])) / per_board[(low, high)]
            i, j = at[low], at[high]
            u[i] = u.get(i, 0.0) + r
            u[j] = u.get(j, 0.0) - r
        if not u:
            continue
        count += 1
        for i, a in u.items():
            seen[i] += 1
            row = meat[i]
            for j, b in u.items():
                row[j] += a * b
    if count < 2:
        return [0.0] * n, seen
    scale = count / (count - 1)
    # Only the diagonal of C B C is needed: (C B C)_ii = c_i' B c_i.
    out = []
    for i in range(n):
        c = cov[i]
        bc = [sum(map(operator.mul, row, c)) for row in meat]  # the same sums, in the same order, faster
        out.append(scale * sum(map(operator.mul, c, bc)))
    return out, seen


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
