"""Match statistics: means, intervals, W/T/L and likelihood of superiority."""

import math

import pytest

from server.arena.stats import boards_to_separate, los, mirrored, separation_point, summarize


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


def test_boards_to_separate_is_the_normal_sample_size():
    # (1.96 * 10 / 2)^2 = 96.04 -> 97; sign of the mean does not matter
    assert boards_to_separate(2.0, 10.0) == 97
    assert boards_to_separate(-2.0, 10.0) == 97
    assert boards_to_separate(5.0, 5.0) == 4  # 3.8416 -> 4
    assert boards_to_separate(0.0, 3.0) is None


def test_separation_point_is_where_the_interval_stays_clear_of_zero():
    scores = [1, -1, 3, -2, 2, 2, 3, 2, 3, 2]
    point = separation_point(scores)
    assert point is not None
    assert all(summarize(scores[:n]).significant for n in range(point, len(scores) + 1))
    assert not summarize(scores[: point - 1]).significant
    # an interval that excludes zero early but straddles it again later does not count
    early = [5, 5, 5, -40, 1, 1]
    assert summarize(early[:3]).significant and not summarize(early).significant
    assert separation_point(early) is None
    assert separation_point([3, -3] * 5) is None
    assert separation_point([]) is None and separation_point([4]) is None


def test_separation_point_of_constant_scores_is_two_boards():
    assert separation_point([2, 2, 2, 2]) == 2


def test_separation_point_agrees_with_summarize_prefix_by_prefix():
    from random import Random

    for seed in range(20):
        rng = Random(seed)
        scores = [rng.choice([-6, -2, 0, 2, 4, 8]) for _ in range(rng.randrange(2, 120))]
        slow = len(scores)
        while slow >= 2 and summarize(scores[:slow]).significant:
            slow -= 1
        assert separation_point(scores) == (None if slow == len(scores) else slow + 1)


# ---------------------------------------------------------------- the luck-corrected mean
def simulated_match(rng, boards, edge, luck_effect, noise):
    """X's scores with a known edge: edge + luck_effect x luck + noise, the luck of mean zero."""
    lucks = [rng.gauss(0, 6) for _ in range(boards)]
    return [edge + luck_effect * k + rng.gauss(0, noise) for k in lucks], lucks


@pytest.mark.parametrize("luck_effect", [1.0, 0.0])
def test_the_corrected_mean_is_unbiased_and_never_much_noisier(luck_effect):
    """2000 simulated matches with a known edge of 3: the corrected mean averages 3 like
    the raw one (the weights come from earlier boards only). Where the luck explains the
    scores it is far less spread; where it explains nothing, the fitted weight stays near
    0 and the spread hardly grows."""
    from random import Random
    from statistics import fmean, pstdev

    from server.arena.stats import corrected

    rng = Random(11)
    raw_means, corrected_means = [], []
    for _ in range(2000):
        scores, lucks = simulated_match(rng, 60, 3.0, luck_effect, 5.0)
        raw_means.append(fmean(scores))
        corrected_means.append(fmean(corrected(scores, lucks)))
    error = pstdev(corrected_means) / math.sqrt(len(corrected_means))
    assert abs(fmean(corrected_means) - 3.0) < 3 * error
    if luck_effect:
        assert pstdev(corrected_means) < 0.8 * pstdev(raw_means)
    else:
        assert pstdev(corrected_means) < 1.05 * pstdev(raw_means)


def test_the_first_boards_are_not_corrected_and_later_ones_by_the_earlier_slope():
    from server.arena.stats import BETA_FROM, corrected, luck_weight

    lucks = [float((-1) ** i * (i % 4 + 1)) for i in range(BETA_FROM + 2)]
    scores = [2 * k for k in lucks]  # slope 2, clipped to 1
    out = corrected(scores, lucks)
    assert out[:BETA_FROM] == scores[:BETA_FROM]
    assert luck_weight(scores[:BETA_FROM], lucks[:BETA_FROM]) == 1.0
    assert out[BETA_FROM] == scores[BETA_FROM] - lucks[BETA_FROM]
    assert luck_weight([1, 2, 3], [0.0, 0.0, 0.0]) == 0.0
