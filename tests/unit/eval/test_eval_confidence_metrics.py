"""ECE, Brier and risk-coverage on hand-built answers whose values are known."""

from __future__ import annotations

import numpy as np
import pytest

from disputatio.eval.confidence_metrics import (
    accuracy_at,
    area,
    best_area,
    bootstrap_intervals,
    brier,
    confidence_summary,
    ece,
    reliability,
    risk_coverage,
)


def calibrated_answers() -> tuple[list[float], list[bool]]:
    """20 answers in each of 10 bins at confidence c, exactly round(20c) of them right."""
    conf: list[float] = []
    right: list[bool] = []
    for c in np.arange(0.05, 1.0, 0.1):
        k = round(20 * c)
        conf += [float(c)] * 20
        right += [True] * k + [False] * (20 - k)
    return conf, right


def test_a_perfectly_calibrated_confidence_has_an_ece_of_zero() -> None:
    conf, right = calibrated_answers()
    assert ece(conf, right) == pytest.approx(0.0, abs=1e-9)
    assert ece(conf, right, strategy="quantile") == pytest.approx(0.0, abs=1e-9)
    # Brier of an exactly calibrated bin at c is c(1 - c)
    assert brier(conf, right) == pytest.approx(np.mean([c * (1 - c) for c in conf]))
    assert all(r["confidence"] == pytest.approx(r["accuracy"]) for r in reliability(conf, right))


def test_an_overconfident_confidence_has_a_high_ece() -> None:
    conf, right = [0.95] * 10, [True] * 5 + [False] * 5
    assert ece(conf, right) == pytest.approx(0.45)
    assert brier(conf, right) == pytest.approx(0.5 * 0.05**2 + 0.5 * 0.95**2)
    calibrated = ece(*calibrated_answers())
    assert ece(conf, right) > 0.4 > calibrated  # type: ignore[operator]


def test_ece_weighs_each_bin_by_its_answers() -> None:
    # bin 0.9-1.0: 0.95 vs 3/4 right (gap 0.2, 4 answers); bin 0.1-0.2: 0.15 vs 0/1 (gap 0.15)
    conf = [0.95] * 4 + [0.15]
    right = [True, True, True, False, False]
    assert ece(conf, right) == pytest.approx((4 * 0.2 + 1 * 0.15) / 5)
    rows = reliability(conf, right)
    assert [(r["low"], r["n"]) for r in rows] == [(0.1, 1), (0.9, 4)]


def test_equal_mass_bins_hold_equal_numbers_of_answers() -> None:
    conf = list(np.linspace(0.0, 1.0, 50))
    rows = reliability(conf, [True] * 50, bins=5, strategy="quantile")
    assert [r["n"] for r in rows] == [10] * 5


def test_risk_coverage_by_hand() -> None:
    curve = risk_coverage([0.9, 0.8, 0.7, 0.6], [True, False, True, False])
    assert list(curve) == pytest.approx([1.0, 0.5, 2 / 3, 0.5])
    assert area(curve) == pytest.approx((1.0 + 0.5 + 2 / 3 + 0.5) / 4)
    assert accuracy_at(curve, 0.5) == pytest.approx(0.5)
    assert accuracy_at(curve, 0.8) == pytest.approx(0.5)  # ceil(3.2) = 4 answers
    assert accuracy_at(curve, 1.0) == pytest.approx(0.5)


def test_ties_are_averaged_over_their_orderings() -> None:
    # the two 0.9 answers (one right) come first in either order: 0.5 right each time
    curve = risk_coverage([0.9, 0.1, 0.9], [True, True, False])
    assert list(curve) == pytest.approx([0.5, 0.5, 2 / 3])
    assert list(risk_coverage([0.9, 0.1, 0.9], [False, True, True])) == pytest.approx(list(curve))


def test_ranking_by_a_useless_confidence_gives_a_flat_curve() -> None:
    right = [True, False, False, True, True, False, True, True]
    curve = risk_coverage([0.7] * len(right), right)
    assert list(curve) == pytest.approx([np.mean(right)] * len(right))
    assert area(curve) == pytest.approx(np.mean(right))
    # a confidence drawn independently of the outcome: flat within noise, far below the best
    rng = np.random.default_rng(0)
    outcome = rng.random(4000) < 0.6
    noise = risk_coverage(rng.random(4000), outcome)
    assert accuracy_at(noise, 0.5) == pytest.approx(0.6, abs=0.03)
    assert area(noise) == pytest.approx(float(outcome.mean()), abs=0.03)


def test_a_confidence_that_ranks_right_answers_first_reaches_the_best_area() -> None:
    right = [True, False, True, False, True]
    conf = [0.9 if r else 0.2 for r in right]
    curve = risk_coverage(conf, right)
    assert accuracy_at(curve, 0.5) == 1.0
    assert area(curve) == pytest.approx(best_area(right))  # type: ignore[arg-type]
    inverted = risk_coverage([1 - c for c in conf], right)
    assert area(inverted) < np.mean(right) < area(curve)  # type: ignore[operator]


def test_bootstrap_intervals_hold_the_estimate_and_shrink_with_more_answers() -> None:
    rng = np.random.default_rng(1)
    conf = rng.random(400)
    right = rng.random(400) < conf
    ci = bootstrap_intervals(conf, right, resamples=300)
    assert ci["brier"][0] <= brier(conf, right) <= ci["brier"][1]  # type: ignore[operator]
    assert ci["area"][0] <= area(risk_coverage(conf, right)) <= ci["area"][1]  # type: ignore[operator]
    small = bootstrap_intervals(conf[:40], right[:40], resamples=300)
    assert small["brier"][1] - small["brier"][0] > ci["brier"][1] - ci["brier"][0]


def test_the_summary_of_no_answers_is_empty_and_bad_confidences_are_refused() -> None:
    assert confidence_summary([], []) == {"n": 0}
    with pytest.raises(ValueError, match="probability"):
        ece([1.2], [True])
    with pytest.raises(ValueError, match="same length"):
        brier([0.5, 0.5], [True])
