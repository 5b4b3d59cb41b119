"""How well a confidence predicts right answers (pure functions, numpy only).

* :func:`brier`: mean squared error of the confidence against the 0/1 outcome;
* :func:`reliability` and :func:`ece`: the reliability table and the expected calibration
  error, ``sum_b (n_b / n) · |mean confidence_b − accuracy_b|``, over :data:`BINS` bins of
  equal width on [0, 1] (``strategy="uniform"``, the report's choice) or of equal mass
  (``strategy="quantile"``);
* :func:`risk_coverage`: accuracy of the ``k`` most confident answers for every ``k``
  (answers ranked by confidence, ties averaged over their orderings, so a confidence that
  ranks nothing gives a flat curve at the overall accuracy);
* :func:`confidence_summary`: all of them for one set of answers, with 95% bootstrap
  intervals of the ECE, the Brier score and the area under the accuracy-coverage curve.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Literal

import numpy as np

#: Bins of the ECE and the reliability table.
BINS = 10
#: Coverages at which the report gives the accuracy.
COVERAGES = (0.5, 0.8, 1.0)
#: Bootstrap resamples of the intervals.
RESAMPLES = 1000

Strategy = Literal["uniform", "quantile"]
#: Confidences and outcomes: sequences or numpy arrays.
Floats = Sequence[float] | np.ndarray
Bools = Sequence[bool] | np.ndarray


def _arrays(confidence: Floats, correct: Bools) -> tuple[np.ndarray, np.ndarray]:
    p = np.asarray(confidence, dtype=float)
    y = np.asarray(correct, dtype=float)
    if p.shape != y.shape or p.ndim != 1:
        raise ValueError("confidence and correct must be flat sequences of the same length")
    if p.size and (not np.all(np.isfinite(p)) or p.min() < 0.0 or p.max() > 1.0):
        raise ValueError("a confidence must be a probability in [0, 1]")
    return p, y


def brier(confidence: Floats, correct: Bools) -> float | None:
    """``mean((confidence − correct)²)``; None for no answers."""
    p, y = _arrays(confidence, correct)
    return float(np.mean((p - y) ** 2)) if p.size else None


def _bin_index(p: np.ndarray, bins: int, strategy: Strategy) -> np.ndarray:
    if strategy == "uniform":
        return np.minimum((p * bins).astype(int), bins - 1)  # 1.0 falls in the last bin
    if strategy == "quantile":
        order = np.argsort(p, kind="stable")
        index = np.empty(p.size, dtype=int)
        index[order] = np.arange(p.size) * bins // max(p.size, 1)
        return index
    raise ValueError(f"unknown binning {strategy!r}: uniform or quantile")


def reliability(
    confidence: Floats,
    correct: Bools,
    *,
    bins: int = BINS,
    strategy: Strategy = "uniform",
) -> list[dict[str, Any]]:
    """The non-empty bins: ``{low, high, n, confidence, accuracy}`` (means within the bin)."""
    p, y = _arrays(confidence, correct)
    index = _bin_index(p, bins, strategy)
    rows = []
    for b in range(bins):
        mask = index == b
        if not mask.any():
            continue
        low, high = (b / bins, (b + 1) / bins) if strategy == "uniform" else (
            float(p[mask].min()), float(p[mask].max()))  # fmt: skip
        rows.append(
            {
                "low": low,
                "high": high,
                "n": int(mask.sum()),
                "confidence": float(p[mask].mean()),
                "accuracy": float(y[mask].mean()),
            }
        )
    return rows


def ece(
    confidence: Floats,
    correct: Bools,
    *,
    bins: int = BINS,
    strategy: Strategy = "uniform",
) -> float | None:
    """Expected calibration error over the bins of :func:`reliability`; None for no answers."""
    p, _ = _arrays(confidence, correct)
    if not p.size:
        return None
    rows = reliability(confidence, correct, bins=bins, strategy=strategy)
    return float(sum(r["n"] * abs(r["confidence"] - r["accuracy"]) for r in rows) / p.size)


def risk_coverage(confidence: Floats, correct: Bools) -> np.ndarray:
    """Accuracy of the ``k`` most confident answers, ``k = 1..n`` (an array of ``n`` values).

    Answers of equal confidence are one block: within it every ordering is equally likely,
    so the right answers among the first ``k`` are interpolated linearly across the block
    (the expectation over its orderings).
    """
    p, y = _arrays(confidence, correct)
    if not p.size:
        return np.zeros(0)
    values, inverse = np.unique(-p, return_inverse=True)  # most confident first
    sizes = np.bincount(inverse, minlength=values.size).astype(float)
    rights = np.bincount(inverse, weights=y, minlength=values.size)
    ends = np.concatenate([[0.0], np.cumsum(sizes)])
    right_at_ends = np.concatenate([[0.0], np.cumsum(rights)])
    k = np.arange(1, p.size + 1, dtype=float)
    return np.interp(k, ends, right_at_ends) / k


def accuracy_at(curve: np.ndarray, coverage: float) -> float | None:
    """Accuracy of the most confident ``ceil(coverage · n)`` answers (None for no answers)."""
    if not curve.size:
        return None
    k = min(curve.size, max(1, math.ceil(coverage * curve.size - 1e-9)))
    return float(curve[k - 1])


def area(curve: np.ndarray) -> float | None:
    """Area under the accuracy-coverage curve: the mean of the accuracies at ``k = 1..n``.

    A confidence that ranks nothing gives the overall accuracy; one that puts every right
    answer first gives the most a ranking can.
    """
    return float(curve.mean()) if curve.size else None


def best_area(correct: Bools) -> float | None:
    """:func:`area` of the perfect ranking (every right answer first): the ceiling."""
    y = np.asarray(correct, dtype=float)
    return area(risk_coverage(y, y)) if y.size else None


def _interval(values: np.ndarray) -> tuple[float, float]:
    return float(np.percentile(values, 2.5)), float(np.percentile(values, 97.5))


def bootstrap_intervals(
    confidence: Floats,
    correct: Bools,
    *,
    resamples: int = RESAMPLES,
    seed: int = 0,
) -> dict[str, tuple[float, float]]:
    """95% percentile intervals of ``ece``, ``brier`` and ``area`` (answers resampled)."""
    p, y = _arrays(confidence, correct)
    if not p.size or resamples <= 0:
        return {}
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, p.size, size=(resamples, p.size))
    ps, ys = p[idx], y[idx]
    briers = np.mean((ps - ys) ** 2, axis=1)
    b = np.minimum((ps * BINS).astype(int), BINS - 1)
    offsets = (b + BINS * np.arange(resamples)[:, None]).ravel()
    size = resamples * BINS
    sum_p = np.bincount(offsets, weights=ps.ravel(), minlength=size).reshape(resamples, BINS)
    sum_y = np.bincount(offsets, weights=ys.ravel(), minlength=size).reshape(resamples, BINS)
    eces = np.abs(sum_p - sum_y).sum(axis=1) / p.size  # n_b · |mean p − mean y| = |Σp − Σy|
    areas = np.array([area(risk_coverage(ps[i], ys[i])) for i in range(resamples)])
    return {"ece": _interval(eces), "brier": _interval(briers), "area": _interval(areas)}


def confidence_summary(
    confidence: Floats,
    correct: Bools,
    *,
    resamples: int = RESAMPLES,
    seed: int = 0,
) -> dict[str, Any]:
    """Every measure of one set of answers (``n`` 0: only ``n``).

    Returns:
        ``{n, accuracy, mean_confidence, ece, brier, reliability, area, best_area,
        accuracy_at: {"0.5": ..}, curve, ci: {ece, brier, area}}`` (``curve``: the accuracy
        at ``k = 1..n``).
    """
    p, y = _arrays(confidence, correct)
    if not p.size:
        return {"n": 0}
    curve = risk_coverage(p, y)
    return {
        "n": int(p.size),
        "accuracy": float(y.mean()),
        "mean_confidence": float(p.mean()),
        "ece": ece(p, y),
        "brier": brier(p, y),
        "reliability": reliability(p, y),
        "area": area(curve),
        "best_area": best_area(y),
        "accuracy_at": {str(c): accuracy_at(curve, c) for c in COVERAGES},
        "curve": [round(float(v), 6) for v in curve],
        "ci": bootstrap_intervals(p, y, resamples=resamples, seed=seed),
    }
