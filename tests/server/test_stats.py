"""Match statistics: means, intervals, W/T/L and likelihood of superiority."""

import math

import pytest

from server.stats import los, mirrored, summarize


def test_summary_of_known_scores():
    s = summarize([4, -2, 0, 6, 2])
    assert (s.boards, s.total, s.won, s.tied, s.lost) == (5, 10, 3, 1, 1)
    assert s.mean == 2.0
    # sd = sqrt(10) ~ 3.1623; t(4) = 2.776; half-width = 2.776 * 3.1623 / sqrt(5) = 3.926
    assert s.ci_low == pytest.approx(2 - 3.926, abs=1e-3)
    assert s.ci_high == pytest.approx(2 + 3.926, abs=1e-3)
    assert not s.significant and s.outcome() == 0


def test_large_sample_uses_normal_quantile_and_is_significant():
    scores = [3, 1] * 100
    s = summarize(scores)
    assert s.ci_low == pytest.approx(2 - 1.95996 * 1.0025 / math.sqrt(200), abs=1e-3)
    assert s.significant and s.outcome() == 1


def test_los_is_symmetric_and_half_without_decisive_pairs():
    assert los(0, 0) == 0.5
    assert los(10, 2) == pytest.approx(1 - los(2, 10))
    assert los(60, 40) == pytest.approx(0.5 * (1 + math.erf(20 / math.sqrt(200))))


def test_one_board_has_no_interval():
    s = summarize([5])
    assert s.ci_low is None and not s.significant


def test_mirrored_is_the_other_sides_view():
    s = summarize([4, -2, 0, 6, 2])
    m = mirrored(s)
    assert (m.mean, m.ci_low, m.ci_high, m.won, m.lost) == (-s.mean, -s.ci_high, -s.ci_low, s.lost, s.won)
    assert m.los == pytest.approx(1 - s.los)
