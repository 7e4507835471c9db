"""The sequential test: its formulas on hand-computed values, and its error rates by simulation."""

import math
import random
import re

import pytest
from support.benchmarks import load

from server.arena import anytime
from server.arena.sequential import BOUND, Sprt, bounds, run, stop, wealths


def test_bounds_are_ville_s():
    lower, upper = bounds(0.05, 0.10)
    assert (lower, upper) == (pytest.approx(math.log(0.10)), pytest.approx(math.log(20)))


def test_the_bettors_wealths_by_hand():
    # stakes before each score: width * (n + 1) / (PRIOR_SD^2 + spread so far)
    scores = [10.0, -10.0]
    lams = list(anytime.stakes(scores, 5.0))
    assert lams == pytest.approx([5 / 225, 5 * 2 / 225])
    k1, k0 = zip(*wealths(scores, Sprt(0, 5)))
    # each stake is capped so that a score at the bound cannot ruin the bettor: here both are
    cap1, cap0 = anytime.CAP / BOUND, anytime.CAP / (BOUND - 5)
    assert lams[0] > cap0 > cap1
    assert k1 == pytest.approx([math.log1p(cap1 * 10), math.log1p(cap1 * 10) + math.log1p(-cap1 * 10)])
    assert k0 == pytest.approx([math.log1p(-cap0 * 5), math.log1p(-cap0 * 5) + math.log1p(cap0 * 15)])


def test_run_decides_at_the_first_board_a_wealth_reaches_its_bound():
    scores = [12] * 200
    result = run(scores, Sprt(0, 5, 0.05, 0.05, 100))
    k1 = [e1 for e1, _ in wealths(scores, Sprt(0, 5))]
    first = next(i for i, e in enumerate(k1, 1) if e >= math.log(20))
    assert result.decision == "H1" and result.boards == first < 20
    assert result.anytime_low is not None and result.anytime_low < 12 < result.anytime_high
    assert run([-12] * 200, Sprt(0, 5)).decision == "H0"


def test_an_undecided_or_exhausted_test():
    undecided = run([3], Sprt(max_boards=100))
    assert undecided.decision is None and undecided.boards == 1
    assert run([], Sprt()).boards == 0 and run([], Sprt()).anytime_low is None
    tied = run([4, -4] * 100, Sprt(-1, 1, max_boards=30))
    assert tied.decision == "inconclusive" and tied.boards == 30


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"delta0": 5, "delta1": 5}, "delta0 (5) must be less than delta1 (5)"),
        ({"alpha": 0.5}, "alpha must be between 0 and 0.5"),
        ({"beta": 0}, "beta must be between 0 and 0.5"),
        ({"max_boards": 0}, "max_boards must be 1 or more"),
        ({"delta1": 60}, "delta0 and delta1 must lie inside the scores' range (-56, 56)"),
    ],
)
def test_bad_settings_are_refused(kwargs, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        Sprt(**kwargs)


def duplicate_scores(rng, mean):
    """Per-board scores like real ones: integers, sd about 15, clipped to the bound; drawn lazily."""
    while True:
        yield max(-BOUND, min(BOUND, round(rng.gauss(mean, 15))))


SIMULATED = Sprt(0, 5, 0.05, 0.05, 400)


def decisions(true_mean, runs=400):
    rng = random.Random(2026)
    return [stop(duplicate_scores(rng, true_mean), SIMULATED)[:2] for _ in range(runs)]


def test_error_rates_by_simulation():
    at_delta0 = decisions(0)
    assert sum(d == "H1" for d, _ in at_delta0) / len(at_delta0) <= 0.07
    at_delta1 = decisions(5)
    assert sum(d == "H0" for d, _ in at_delta1) / len(at_delta1) <= 0.07
    assert all(d in ("H0", "H1") for d, _ in at_delta0 + at_delta1)


def test_a_big_edge_is_decided_early():
    results = decisions(20, runs=100)
    assert all(d == "H1" for d, _ in results)
    assert max(n for _, n in results) <= 40


@pytest.mark.parametrize(
    "shape, edge, error",
    [("rule-vs-random", 0.0, "false_h1"), ("rule-vs-random mirrored", 5.0, "false_h0")],
)
def test_error_rates_hold_on_the_shapes_that_fooled_the_normal_test(shape, edge, error):
    """The two worst shapes of the benchmark (skew -2.2 at delta0, its mirror at delta1), 400
    seeded runs each. Limit 7%: alpha 5% plus two points, which a rate of 5% would pass
    with about 97% chance (sd 1.1 points) and the new test's measured 2.1-2.5% (2000 runs)
    always; the old test, at 10-11% there, fails it."""
    bench = load("sprt_errors")
    new, old = (bench.row(shape, edge, kind, 400, 7) for kind in ("new", "old"))
    assert new[error] <= 0.07, new
    assert old[error] > 0.07, old


def test_no_valid_test_decides_search_vs_rule_in_30_boards_and_ours_is_within_a_third_of_the_least():
    """Wald's bound with KL_inf (``benchmarks/sprt_errors.py``, ``least``): on search vs rule's
    shape at a true edge of 6, any test keeping alpha = beta = 5% for every distribution on
    +-56 needs more than 30 boards on average, so the issue's bar of 30 cannot be met by a
    test that holds on every shape. The betting test stays above the bound (it is valid) and
    within a third of it; the old normal test went under it, which is how it broke its error
    rates on the mirrored skewed shape."""
    bench = load("sprt_errors")
    least = bench.least_boards(bench.pmf(bench.SHAPES["search-vs-rule"], 6.0), 6.0, bench.TEST)
    assert 30 < least < 33, least
    new = bench.row("search-vs-rule", 6.0, "new", 300, 3)
    assert least <= new["avg_boards"] <= least * 4 / 3, (least, new)
    mirrored = bench.row("rule-vs-random mirrored", 5.0, "old", 300, 3)
    assert mirrored["avg_boards"] < mirrored["least_boards"] and mirrored["false_h0"] > 0.07, mirrored
