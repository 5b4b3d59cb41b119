"""Test statistics of protocol comparisons (pure functions, numpy only).

* :func:`wilson_interval`: 95% Wilson score interval of an accuracy;
* :func:`mcnemar_exact`: two-sided exact McNemar test of two protocols on the same questions;
* :func:`paired_bootstrap`: paired bootstrap of the accuracy difference (interval and p-value);
* :func:`holm`: Holm's step-down adjustment of a family of p-values;
* :func:`majority_baseline`: accuracy of always answering the most frequent gold label;
* :func:`chance_accuracy`: expected accuracy of a uniform guess among the options;
* :func:`balanced_accuracy` and :func:`balanced_accuracy_interval` (stratified bootstrap);
* :func:`percentile`: linear-interpolation percentile (numpy's default).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

#: Two-sided 95% normal quantile.
Z95 = 1.959963984540054


def wilson_interval(correct: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of ``correct / n``.

    ``(p + z²/2n ± z·sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n)``; ``(0, 1)`` when ``n`` is 0.

    Raises:
        ValueError: If ``correct`` is not in ``[0, n]``.
    """
    if not 0 <= correct <= n:
        raise ValueError(f"correct={correct} is not within [0, n={n}]")
    if n == 0:
        return 0.0, 1.0
    p = correct / n
    denom = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def mcnemar_exact(b: int, c: int) -> float:
    """Two-sided exact McNemar p-value from the discordant counts.

    Args:
        b: Questions protocol 1 got right and protocol 2 wrong.
        c: Questions protocol 1 got wrong and protocol 2 right.

    Returns:
        ``min(1, 2·P[X ≤ min(b, c)])`` with ``X ~ Binomial(b + c, 1/2)``; 1.0 when ``b + c = 0``.
    """
    if b < 0 or c < 0:
        raise ValueError("discordant counts must be >= 0")
    n = b + c
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(min(b, c) + 1)) / 2.0**n
    return min(1.0, 2.0 * tail)


def discordant(a: Sequence[bool], b: Sequence[bool]) -> tuple[int, int]:
    """``(right only in a, right only in b)`` over paired outcomes."""
    if len(a) != len(b):
        raise ValueError("paired outcomes must have the same length")
    only_a = sum(1 for x, y in zip(a, b, strict=True) if x and not y)
    only_b = sum(1 for x, y in zip(a, b, strict=True) if y and not x)
    return only_a, only_b


@dataclass(frozen=True)
class BootstrapResult:
    """Paired bootstrap of ``accuracy(a) - accuracy(b)``.

    Attributes:
        diff: Observed difference of accuracies.
        low: 2.5th percentile of the resampled differences.
        high: 97.5th percentile of the resampled differences.
        p_value: Two-sided p: ``min(1, 2·min(P[d* ≤ 0], P[d* ≥ 0]))``.
        resamples: Number of resamples.
    """

    diff: float
    low: float
    high: float
    p_value: float
    resamples: int


def paired_bootstrap(
    a: Sequence[bool], b: Sequence[bool], *, resamples: int = 10_000, seed: int = 0
) -> BootstrapResult:
    """Resample questions (with replacement, the same indices for both) ``resamples`` times."""
    if len(a) != len(b):
        raise ValueError("paired outcomes must have the same length")
    n = len(a)
    if n == 0:
        return BootstrapResult(0.0, 0.0, 0.0, 1.0, 0)
    delta = np.asarray(a, dtype=float) - np.asarray(b, dtype=float)
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, n, size=(resamples, n))
    diffs = delta[idx].mean(axis=1)
    p = 2.0 * min(float(np.mean(diffs <= 0)), float(np.mean(diffs >= 0)))
    return BootstrapResult(
        diff=float(delta.mean()),
        low=float(np.percentile(diffs, 2.5)),
        high=float(np.percentile(diffs, 97.5)),
        p_value=min(1.0, p),
        resamples=resamples,
    )


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm-adjusted p-values (family-wise error control), in the order given.

    The i-th smallest p (1-based) is multiplied by ``m - i + 1``, capped at 1, and made
    non-decreasing along the sorted order: ``[0.01, 0.04, 0.03]`` → ``[0.03, 0.06, 0.06]``.
    Rejecting where the adjusted p is below α keeps the chance of any false rejection among
    the ``m`` tests below α.
    """
    m = len(p_values)
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(sorted(range(m), key=lambda j: p_values[j])):
        running = max(running, min(1.0, (m - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted


def chance_accuracy(option_counts: Sequence[int]) -> float | None:
    """Mean over questions of ``1 / options``: a uniform guess's expected accuracy.

    Questions without options (numeric answers) are left out; None when none is left.
    """
    counts = [k for k in option_counts if k > 0]
    return sum(1.0 / k for k in counts) / len(counts) if counts else None


def majority_baseline(golds: Sequence[str]) -> tuple[str | None, float | None]:
    """The most frequent gold label and the accuracy of always answering it.

    Ties go to the label seen first; ``(None, None)`` for no questions.
    """
    if not golds:
        return None, None
    counts = Counter(golds)
    label = max(counts, key=lambda g: (counts[g], -golds.index(g)))
    return label, counts[label] / len(golds)


def balanced_accuracy(correct: Sequence[bool], golds: Sequence[str]) -> float | None:
    """Mean over the gold labels present of the share of their questions answered right.

    A constant answer scores ``1 / labels`` whatever the label frequencies (0.5 on yes/no),
    where its plain accuracy is the majority share. None for no questions.
    """
    if not golds:
        return None
    right, counts = _per_label(correct, golds)
    return sum(right[g] / counts[g] for g in counts) / len(counts)


def _per_label(correct: Sequence[bool], golds: Sequence[str]) -> tuple[Counter[str], Counter[str]]:
    """Questions answered right per gold label, and questions per gold label."""
    right: Counter[str] = Counter()
    for ok, gold in zip(correct, golds, strict=True):
        right[gold] += bool(ok)
    return right, Counter(golds)


def balanced_accuracy_interval(
    correct: Sequence[bool],
    golds: Sequence[str],
    *,
    resamples: int = 10_000,
    seed: int = 0,
) -> tuple[float, float] | None:
    """95% stratified-bootstrap interval of :func:`balanced_accuracy`.

    Questions are resampled within each gold label (the label sizes are fixed by the data, not
    by chance), which is drawing each label's right answers from ``Binomial(n_label,
    accuracy_label)``; the interval is the 2.5th-97.5th percentile of the resampled balanced
    accuracies. None for no questions.
    """
    if not golds:
        return None
    right, counts = _per_label(correct, golds)
    n = np.array([counts[g] for g in counts], dtype=float)
    p = np.array([right[g] for g in counts], dtype=float) / n
    rng = np.random.default_rng(seed)
    draws = (rng.binomial(n.astype(int), p, size=(resamples, len(n))) / n).mean(axis=1)
    return float(np.percentile(draws, 2.5)), float(np.percentile(draws, 97.5))


def percentile(values: Sequence[float], q: float) -> float | None:
    """The ``q``-th percentile (0-100, linear interpolation), None for no values."""
    return float(np.percentile(np.asarray(values, dtype=float), q)) if len(values) else None
