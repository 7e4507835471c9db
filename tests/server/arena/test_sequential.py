"""The sequential test: its formulas on hand-computed values, and its error rates by simulation."""

import math
import random
import re

import pytest

from server.arena.sequential import MIN_BOARDS, VAR_FLOOR, Sprt, bounds, llr, run


def test_wald_bounds():
    lower, upper = bounds(0.05, 0.05)
    assert lower == pytest.approx(math.log(0.05 / 0.95)) == pytest.approx(-2.944439)
    assert upper == pytest.approx(2.944439)
    lower, upper = bounds(0.05, 0.10)
    assert (lower, upper) == (pytest.approx(math.log(0.10 / 0.95)), pytest.approx(math.log(0.90 / 0.05)))


def test_llr_formula():
    # 20 boards, mean 5, var 27.78: 20 * 5 * (10 - 0 - 5) / (2 * 27.78) = 500 / 55.56 = 9.0
    assert llr(20, 5.0, 250 / 9, 0, 5) == pytest.approx(9.0)
    # a mean halfway between the hypotheses is no evidence either way
    assert llr(50, 2.5, 100, 0, 5) == 0
    assert llr(50, 0.0, 100, 0, 5) == pytest.approx(-50 * 5 * 5 / 200)
    # no variance: the floor is used instead of dividing by zero
    assert llr(20, 5.0, 0.0, 0, 5) == pytest.approx(20 * 5 * 5 / (2 * VAR_FLOOR))


def test_run_decides_at_the_first_board_past_a_bound():
    scores = [0, 10] * 10 + [-30] * 30  # the first 20: mean 5, sample variance 500/19
    result = run(scores, Sprt(0, 5, 0.05, 0.05, 100))
    assert result.decision == "H1" and result.boards == MIN_BOARDS == 20
    assert result.llr == pytest.approx(20 * 5 * 5 / (2 * 500 / 19))
    assert result.mean == 5.0 and result.ci_low < 5 < result.ci_high
    assert (result.lower, result.upper) == pytest.approx(bounds(0.05, 0.05))


def test_nothing_is_decided_before_the_minimum_or_past_the_maximum():
    undecided = run([40] * (MIN_BOARDS - 1), Sprt(max_boards=100))
    assert undecided.decision is None and undecided.llr == 0 and undecided.boards == MIN_BOARDS - 1
    assert run([3, -3] * 15, Sprt(0, 5)).decision == "H0"
    tied = run([4, -4] * 100, Sprt(-1, 1, max_boards=30))
    assert tied.decision == "inconclusive" and tied.boards == 30


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"delta0": 5, "delta1": 5}, "delta0 (5) must be less than delta1 (5)"),
        ({"alpha": 0.5}, "alpha must be between 0 and 0.5"),
        ({"beta": 0}, "beta must be between 0 and 0.5"),
        ({"max_boards": 0}, "max_boards must be 1 or more"),
    ],
)
def test_bad_settings_are_refused(kwargs, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        Sprt(**kwargs)


def duplicate_scores(rng, mean, n):
    """Per-board scores like real ones: integers, sd about 15, clipped to +-60."""
    return [max(-60, min(60, round(rng.gauss(mean, 15)))) for _ in range(n)]


SIMULATED = Sprt(0, 5, 0.05, 0.05, 400)


def decisions(true_mean, runs=400):
    rng = random.Random(2026)
    return [run(duplicate_scores(rng, true_mean, SIMULATED.max_boards), SIMULATED) for _ in range(runs)]


def test_error_rates_by_simulation():
    at_delta0 = decisions(0)
    assert sum(r.decision == "H1" for r in at_delta0) / len(at_delta0) <= 0.08
    at_delta1 = decisions(5)
    assert sum(r.decision == "H0" for r in at_delta1) / len(at_delta1) <= 0.08
    assert all(r.decision in ("H0", "H1") for r in at_delta0 + at_delta1)


def test_a_big_edge_is_decided_early():
    results = decisions(20, runs=100)
    assert all(r.decision == "H1" for r in results)
    assert max(r.boards for r in results) <= 40
