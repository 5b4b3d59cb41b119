"""Calibration of option-label probabilities (pure functions).

A verdict's label probabilities ``p`` are its label log-probabilities renormalised over the
option labels (:func:`label_probs`). Two calibrations choose the label maximising ``q``:

* **contextual calibration** (Zhao et al. 2021, "Calibrate Before Use"): the model's prior
  over labels is estimated from content-free inputs (the same prompt with ``N/A``, an empty
  string and ``[MASK]`` in place of the question, the option texts and the documents), and
  ``q ∝ p / prior`` (their ``W = diag(prior)^-1``, ``b = 0``; :func:`content_free_prior`,
  :func:`apply_prior`);
* **fitted biases**: one additive bias per label on the log scale, ``q ∝ p · exp(b)``, fitted
  on the calibration split by class-balanced maximum likelihood (each gold label weighs the
  same in all, so the fit aims at balanced accuracy rather than at the majority label), with
  a small L2 penalty that keeps a label never gold in the split finite (:func:`fit_biases`,
  :func:`apply_biases`).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence

import numpy as np

#: Smallest prior a label may have (a prior of 0 would make its calibrated probability infinite).
PRIOR_FLOOR = 1e-6
#: L2 penalty of the fitted biases.
FIT_L2 = 1e-3


def label_probs(logprobs: Mapping[str, float], labels: Sequence[str]) -> dict[str, float]:
    """Softmax of the labels' log-probabilities (probabilities over the labels only)."""
    values = [float(logprobs[label]) for label in labels]
    top = max(values)
    if not math.isfinite(top):
        return {label: 1.0 / len(labels) for label in labels}
    exps = [math.exp(v - top) for v in values]
    total = sum(exps)
    return {label: e / total for label, e in zip(labels, exps, strict=True)}


def argmax_label(probs: Mapping[str, float], labels: Sequence[str]) -> str:
    """The most probable label; ties go to the label listed first."""
    return max(labels, key=lambda label: (probs[label], -labels.index(label)))


def content_free_prior(
    probs: Sequence[Mapping[str, float]], labels: Sequence[str]
) -> dict[str, float]:
    """Mean label distribution of the content-free inputs (each label at least PRIOR_FLOOR)."""
    mean = [max(PRIOR_FLOOR, float(np.mean([p[label] for p in probs]))) for label in labels]
    total = sum(mean)
    return {label: m / total for label, m in zip(labels, mean, strict=True)}


def apply_prior(probs: Mapping[str, float], prior: Mapping[str, float]) -> dict[str, float]:
    """``q ∝ p / prior`` (contextual calibration), renormalised."""
    labels = list(probs)
    raw = [probs[label] / max(PRIOR_FLOOR, prior[label]) for label in labels]
    total = sum(raw)
    return {label: r / total for label, r in zip(labels, raw, strict=True)}


def apply_biases(probs: Mapping[str, float], biases: Mapping[str, float]) -> dict[str, float]:
    """``q ∝ p · exp(b)`` (fitted biases), renormalised."""
    labels = list(probs)
    logs = [math.log(max(probs[label], 1e-300)) + biases.get(label, 0.0) for label in labels]
    return label_probs(dict(zip(labels, logs, strict=True)), labels)


def fit_biases(
    probs: Sequence[Mapping[str, float]],
    golds: Sequence[str],
    labels: Sequence[str],
    *,
    l2: float = FIT_L2,
    steps: int = 5000,
    tol: float = 1e-9,
) -> dict[str, float]:
    """Per-label log biases maximising the class-balanced likelihood of the gold labels.

    Minimises ``sum_i w_i * -log softmax(log p_i + b)[gold_i] + l2/2 * |b|^2`` with
    ``w_i = 1 / (gold labels present * questions of gold_i)``: convex, solved by gradient
    descent (the loss is 1/2-smooth, so a unit step converges). Questions whose gold is not a
    label are left out. The biases sum to zero (the penalty's optimum; softmax ignores a
    shift).

    Args:
        probs: Label probabilities of the calibration questions.
        golds: Their gold labels.
        labels: The option labels.
        l2: L2 penalty.
        steps: Gradient steps at most.
        tol: Stop when the gradient's largest entry is below.

    Returns:
        ``{label: bias}`` (all 0 for no usable question).
    """
    rows = [(p, g) for p, g in zip(probs, golds, strict=True) if g in labels]
    if not rows:
        return {label: 0.0 for label in labels}
    counts = Counter(g for _, g in rows)
    logp = np.log(np.clip(np.array([[p[lb] for lb in labels] for p, _ in rows]), 1e-300, None))
    onehot = np.array([[1.0 if g == lb else 0.0 for lb in labels] for _, g in rows])
    weight = np.array([1.0 / (len(counts) * counts[g]) for _, g in rows])[:, None]
    bias = np.zeros(len(labels))
    for _ in range(steps):
        scores = logp + bias
        scores -= scores.max(axis=1, keepdims=True)
        soft = np.exp(scores)
        soft /= soft.sum(axis=1, keepdims=True)
        grad = (weight * (soft - onehot)).sum(axis=0) + l2 * bias
        bias -= grad
        if float(np.abs(grad).max()) < tol:
            break
    bias -= bias.mean()
    return {label: float(b) for label, b in zip(labels, bias, strict=True)}
