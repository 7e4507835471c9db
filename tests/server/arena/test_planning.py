"""Sample sizes (server.arena.planning): the formulas on hand-computed values, and the sequential
estimate against the SPRT itself on simulated matches."""

from __future__ import annotations

import math
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


def test_sequential_is_wald_s_average_sample_number() -> None:
    # bounds +-log(19) = 2.944; needed 0.95 * 2.944 - 0.05 * 2.944 = 2.650; gain 9 / (2 * 144)
    assert sequential_boards(3.0, 12.0, 0.05, 0.05) == math.ceil(2.6500 / (9 / 288))
    assert sequential_boards(30.0, 12.0, 0.05, 0.05) == sequential.MIN_BOARDS


def test_the_sequential_estimate_matches_the_test_it_plans_for() -> None:
    """Simulated matches of normal scores with the planned edge and spread: the SPRT's
    boards used, on average, are within 25% of the estimate (Wald's formula leaves out
    the last board's overshoot, so the test runs a little longer), and well below the
    fixed-length test's boards."""
    rng = Random(5)
    delta, sd = 3.0, 12.0
    test = sequential.Sprt(delta0=0.0, delta1=delta, max_boards=5000)
    used = [sequential.run([rng.gauss(delta, sd) for _ in range(1500)], test).boards for _ in range(300)]
    estimate = sequential_boards(delta, sd, 0.05, 0.05)
    assert estimate * 0.9 <= fmean(used) <= estimate * 1.25, (fmean(used), estimate)
    assert fmean(used) < fixed_boards(delta, sd, 0.05, 0.05) * 0.75


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
