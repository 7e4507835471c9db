"""The anytime-valid interval: its formula on hand-computed values, and by simulation that
it covers the true mean at every board count at once, where the t-interval watched board
by board does not."""

import math
import random
from statistics import fmean, stdev

import pytest

from server.arena.anytime import MIN_BOARDS, TUNED_BOARDS, confidence_sequence, half_width, rho_squared
from server.arena.stats import summarize, t95


def test_rho_and_half_width_formulas():
    # -2 log 0.05 = 5.991465; log(6.991465) = 1.944692; / 150
    assert rho_squared(150, 0.05) == pytest.approx((5.991465 + 1.944692) / 150, rel=1e-6)
    r2 = rho_squared(TUNED_BOARDS)
    n, sd = 150, 15.0
    expected = sd * math.sqrt(2 * (n * r2 + 1) / (n * n * r2) * math.log(math.sqrt(n * r2 + 1) / 0.05))
    assert half_width(n, sd) == pytest.approx(expected)
    assert half_width(150, 15.0) == pytest.approx(3.7174, abs=1e-3)  # 15 * 0.247824, by hand
    # the boundary written with the variance inside (rho' = rho / sd) is the same one
    r2v = r2 / sd**2
    inside = math.sqrt((n * r2v * sd**2 + 1) / (n * n * r2v) * math.log((n * r2v * sd**2 + 1) / 0.05**2))
    assert half_width(n, sd) == pytest.approx(inside)
    # wider than the t-interval at its tuned count, and narrowing as boards come in
    assert 1.4 < half_width(150, 1.0) / (1.96 / math.sqrt(150)) < 1.7
    assert half_width(400, 1.0) < half_width(150, 1.0) < half_width(20, 1.0)


def test_interval_is_centred_on_the_mean_and_absent_under_the_minimum():
    scores = [0, 10] * (MIN_BOARDS // 2)
    low, high = confidence_sequence(scores)
    half = half_width(MIN_BOARDS, stdev(scores))
    assert (low, high) == (pytest.approx(5 - half, abs=1e-4), pytest.approx(5 + half, abs=1e-4))
    assert confidence_sequence(scores[:-1]) is None
    assert confidence_sequence([]) is None
    assert confidence_sequence([1.5, -2.5, 4.0], min_boards=2) is not None  # plain numbers, any kind


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"alpha": 0}, "alpha must be between 0 and 1"),
        ({"alpha": 1.5}, "alpha must be between 0 and 1"),
        ({"tuned_for": 1}, "must be 2 or more"),
        ({"min_boards": 1}, "must be 2 or more"),
    ],
)
def test_bad_settings_are_refused(kwargs, message):
    with pytest.raises(ValueError, match=message):
        confidence_sequence([1, 2, 3], **kwargs)


def misses(draw, true_mean, runs=1000, boards=400, seed=2026):
    """Share of simulated matches in which the confidence sequence, and the t-interval,
    leave out ``true_mean`` at some board count from ``MIN_BOARDS`` to ``boards``: the
    matches a user watching every board would have stopped with a wrong answer."""
    rng = random.Random(seed)
    cs = t = 0
    for _ in range(runs):
        total = squares = 0
        cs_missed = t_missed = False
        for n in range(1, boards + 1):
            x = draw(rng)
            total += x
            squares += x * x
            if n < MIN_BOARDS:
                continue
            mean = total / n
            sd = math.sqrt(max(0.0, (squares - total * mean) / (n - 1)))
            cs_missed |= abs(mean - true_mean) > half_width(n, sd)
            t_missed |= abs(mean - true_mean) > t95(n - 1) * sd / math.sqrt(n)
        cs += cs_missed
        t += t_missed
    return cs / runs, t / runs


def test_the_sequence_covers_at_every_board_count_and_the_watched_t_interval_does_not():
    # two equal bots, per-board scores like real ones: integers, sd about 15, within +-60
    cs, t = misses(lambda rng: max(-60, min(60, round(rng.gauss(0, 15)))), 0.0)
    assert cs <= 0.05
    assert t >= 0.25  # watched board by board, the 95% t-interval "finds" a winner in a third


def test_the_sequence_covers_a_skewed_score_with_many_ties():
    values = [0] * 6 + [10, -10, 20, -20, 40, -30, 60]
    cs, t = misses(lambda rng: rng.choice(values), fmean(values), runs=500)
    assert cs <= 0.07  # asymptotic: the guarantee is looser on so lopsided a distribution
    assert t >= 0.25


def test_the_interval_is_the_simulated_one():
    """``confidence_sequence`` over a prefix is what the simulation computes at that count."""
    rng = random.Random(7)
    scores = [round(rng.gauss(3, 15)) for _ in range(60)]
    for n in (MIN_BOARDS, 41, 60):
        low, high = confidence_sequence(scores[:n])
        mean = summarize(scores[:n]).mean
        half = half_width(n, stdev(scores[:n]))
        assert low == pytest.approx(mean - half, abs=1e-3) and high == pytest.approx(mean + half, abs=1e-3)
