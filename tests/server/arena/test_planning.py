"""Sample sizes (server.arena.planning): the formulas on hand-computed values, and the sequential
estimate against the SPRT itself on simulated matches."""

from __future__ import annotations

from random import Random
from statistics import fmean

import pytest

from server.arena import sequential
from server.arena.planning import fixed_boards, plan, sequential_boards


def test_fixed_length_is_the_z_test_sample_size() -> None:
    # (1.95996 + 1.64485)^2 * (12 / 3)^2 = 207.9...
    assert fixed_boards(3.0, 12.0, 0.05, 0.05) == 208
    assert fixed_boards(0.0, 12.0, 0.05, 0.05) is None
    assert fixed_boards(-3.0, 12.0, 0.05, 0.05) == 208


def test_a_smaller_spread_needs_fewer_boards_in_proportion_to_its_square() -> None:
    wide, narrow = fixed_boards(2.0, 10.0, 0.05, 0.05), fixed_boards(2.0, 5.0, 0.05, 0.05)
    assert narrow == pytest.approx(wide / 4, abs=1)


def test_the_sequential_estimate_matches_the_test_it_plans_for() -> None:
    """A pilot of 60 normal scores (edge 6, sd 12): the estimate is within 25% of the boards
    the test takes on average in simulated matches of the same scores, and its range from
    the pilot's uncertainty holds that average."""
    rng = Random(5)
    test = sequential.Sprt(0.0, 5.0, max_boards=5000)
    pilot = [rng.gauss(6, 12) for _ in range(60)]
    estimate, low, high = sequential_boards(pilot, test)
    used = [sequential.stop((rng.gauss(6, 12) for _ in range(5000)), test)[1] for _ in range(300)]
    assert estimate * 0.9 <= fmean(used) <= estimate * 1.25, (fmean(used), estimate)
    assert low <= fmean(used) <= high


def test_a_plan_corrects_with_the_pilot_s_slope_and_defaults_the_edge_to_that_mean() -> None:
    lucks = [2.0, -4.0, 4.0, -1.0, 1.0, -3.0, 3.0, -2.0]
    raw = [5 + luck for luck in lucks]  # all of the spread is luck: slope 1
    p = plan(raw, lucks)
    assert p.delta == pytest.approx(5.0) and p.sd_corrected == pytest.approx(0.0)
    assert p.fixed_corrected == 2 < p.fixed_raw
    noise = plan([5 - luck for luck in lucks], lucks)  # a negative slope is clipped to 0: raw
    assert noise.sd_corrected == noise.sd_raw
    assert plan(raw, lucks, delta=1.0).delta == 1.0
    with pytest.raises(ValueError, match="at least two"):
        plan([1], [1.0])
