"""Test statistics against values computed by hand (formulas written out in the comments)."""

from __future__ import annotations

import math

import pytest

from disputatio.eval.stats import (
    balanced_accuracy,
    discordant,
    majority_baseline,
    mcnemar_exact,
    paired_bootstrap,
    percentile,
    wilson_interval,
)


def test_wilson_interval_matches_the_formula_by_hand() -> None:
    # 8/10, z = 1.96: denom = 1 + 3.8415/10 = 1.38415; centre = (0.8 + 0.19207)/1.38415
    # = 0.71674; half = 1.96 * sqrt(0.016 + 0.0096037) / 1.38415 = 0.22658.
    low, high = wilson_interval(8, 10)
    assert low == pytest.approx(0.4902, abs=1e-4)
    assert high == pytest.approx(0.9433, abs=1e-4)
    # 0/10: centre = half = 0.19207/1.38415 -> (0, 0.27753).
    low, high = wilson_interval(0, 10)
    assert low == pytest.approx(0.0, abs=1e-12)
    assert high == pytest.approx(0.27753, abs=1e-4)
    # symmetric around 1/2 for k = n/2
    low, high = wilson_interval(25, 50)
    assert low + high == pytest.approx(1.0)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson_interval(11, 10)


def test_exact_mcnemar_p_values_by_hand() -> None:
    # b=1, c=5: n=6, P[X<=1] = (C(6,0)+C(6,1))/2^6 = 7/64, two-sided 14/64.
    assert mcnemar_exact(1, 5) == pytest.approx(14 / 64)
    assert mcnemar_exact(5, 1) == pytest.approx(14 / 64)
    # b=0, c=6: 2 * 1/64.
    assert mcnemar_exact(0, 6) == pytest.approx(2 / 64)
    # b=2, c=8: n=10, P[X<=2] = (1+10+45)/1024 = 56/1024, two-sided 112/1024.
    assert mcnemar_exact(2, 8) == pytest.approx(112 / 1024)
    # b=c: capped at 1; no discordant pairs: 1.
    assert mcnemar_exact(3, 3) == 1.0
    assert mcnemar_exact(0, 0) == 1.0


def test_discordant_pairs() -> None:
    a = [True, True, False, False, True]
    b = [True, False, True, False, False]
    assert discordant(a, b) == (2, 1)
    with pytest.raises(ValueError):
        discordant([True], [True, False])


def test_paired_bootstrap_limits_and_an_enumerable_case() -> None:
    same = paired_bootstrap([True, False, True], [True, False, True], resamples=500)
    assert (same.diff, same.low, same.high, same.p_value) == (0.0, 0.0, 0.0, 1.0)
    apart = paired_bootstrap([True] * 20, [False] * 20, resamples=500)
    assert (apart.diff, apart.low, apart.high, apart.p_value) == (1.0, 1.0, 1.0, 0.0)
    # n=2, deltas (1, 0): a resample's mean is 0 w.p. 1/4, 1/2 w.p. 1/2, 1 w.p. 1/4, so
    # P[d* <= 0] = 1/4 and p = 2 * 1/4 = 1/2.
    half = paired_bootstrap([True, False], [False, False], resamples=200_000, seed=1)
    assert half.diff == 0.5
    assert half.p_value == pytest.approx(0.5, abs=0.01)
    assert (half.low, half.high) == (0.0, 1.0)


def test_majority_baseline_and_percentile() -> None:
    assert majority_baseline(["yes", "no", "yes"]) == ("yes", pytest.approx(2 / 3))
    assert majority_baseline(["no", "yes"]) == ("no", 0.5)  # tie: first seen
    assert majority_baseline([]) == (None, None)
    assert percentile([1.0, 2.0, 3.0, 4.0], 50) == 2.5
    assert percentile([0.0, 10.0], 95) == pytest.approx(9.5)
    assert percentile([], 50) is None
    assert not math.isnan(percentile([5.0], 95) or 0.0)


def test_balanced_accuracy_scores_a_constant_answer_one_over_the_labels() -> None:
    golds = ["yes"] * 8 + ["no"] * 2
    always_yes = [g == "yes" for g in golds]
    assert balanced_accuracy(always_yes, golds) == pytest.approx(0.5)  # accuracy 0.8
    # yes: 6 of 8 right, no: 1 of 2 right -> (0.75 + 0.5) / 2
    mixed = [True] * 6 + [False] * 2 + [True, False]
    assert balanced_accuracy(mixed, golds) == pytest.approx(0.625)
    assert balanced_accuracy([], []) is None
