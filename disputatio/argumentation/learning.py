"""Calibration learning (seed §10): fit the quality exponent α and the reliabilities β.

Each labelled case is a differential (priors, evidence items, gold hypothesis). Every item
belongs to a *reliability group* ``g`` (e.g. ``case`` for the case file's findings, or the
specialist who made the claim) whose reliability ``β_g ∈ [0, 1]`` scales the item's quality, so
an item counts with weight ``(β_g q)^α`` in the fusion (:mod:`.fusion`). The fit minimises the
mean multi-class Brier score of the posteriors over the cases:

* α on a grid (:data:`ALPHA_GRID`, which holds 1), each β_g on a grid (:data:`BETA_GRID`, which
  holds 1), by coordinate descent: for each α, sweep the groups, each time keeping the β_g of
  lowest Brier score (ties: the value listed first, so the defaults win ties), until a sweep
  changes nothing or ``sweeps`` is reached; the best α wins (ties: the smaller).

The defaults ``α = 1, β = 1`` are always on the grids and the descent never increases the
score, so the fitted Brier score is at most the default one *on the cases fitted*. To tell
whether it generalises, :func:`leave_one_out` refits without each case and scores it.
The top-label expected calibration error (ECE) is reported beside the Brier score.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from disputatio.argumentation.calibration import (
    expected_calibration_error,
    multiclass_brier_score,
)
from disputatio.argumentation.fusion import EvidenceItem, differential_posteriors

__all__ = [
    "ALPHA_GRID",
    "BETA_GRID",
    "CalibrationFit",
    "LabelledCase",
    "case_posterior",
    "evaluate",
    "fit_alpha_beta",
    "leave_one_out",
]

ALPHA_GRID: tuple[float, ...] = (1.0, 0.25, 0.5, 0.75, 1.25, 1.5, 2.0, 3.0)
"""Quality exponents tried (1, the default, first so that it wins ties)."""

BETA_GRID: tuple[float, ...] = (1.0, 0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1)
"""Reliabilities tried (1, the default, first so that it wins ties)."""


@dataclass(frozen=True)
class LabelledCase:
    """A differential with ground truth.

    Attributes:
        id: Case id.
        priors: Prior of each hypothesis.
        items: Evidence items (each names its hypothesis).
        gold: The true hypothesis.
        groups: Reliability group of each evidence id (missing ids: ``"default"``).
    """

    id: str
    priors: Mapping[str, float]
    items: Sequence[EvidenceItem]
    gold: str
    groups: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.gold not in self.priors:
            raise ValueError(f"case {self.id!r}: gold {self.gold!r} is not a hypothesis")

    def group_of(self, evidence_id: str) -> str:
        """Return the reliability group of an evidence id."""
        return self.groups.get(evidence_id, "default")


def case_posterior(
    case: LabelledCase, alpha: float, betas: Mapping[str, float]
) -> dict[str, float]:
    """Return the posterior of ``case`` with qualities ``β_g q`` and exponent ``α``."""
    items = [
        EvidenceItem(
            i.id,
            i.llr,
            min(1.0, max(0.0, betas.get(case.group_of(i.id), 1.0) * i.quality)),
            i.sign,
            i.hypothesis,
        )
        for i in case.items
    ]
    return differential_posteriors(case.priors, items, alpha)


@dataclass(frozen=True)
class CalibrationFit:
    """Scores of one (α, β) setting over a set of cases.

    Attributes:
        alpha: Quality exponent.
        betas: Reliability of each group.
        brier: Mean multi-class Brier score.
        ece: Top-label expected calibration error.
        accuracy: Share of cases whose top hypothesis is the gold one.
        cases: Number of cases.
    """

    alpha: float
    betas: dict[str, float]
    brier: float
    ece: float
    accuracy: float
    cases: int


def evaluate(
    cases: Sequence[LabelledCase],
    alpha: float = 1.0,
    betas: Mapping[str, float] | None = None,
    n_bins: int = 10,
) -> CalibrationFit:
    """Return the Brier score, ECE and accuracy of (α, β) over ``cases``.

    Raises:
        ValueError: If there are no cases.
    """
    if not cases:
        raise ValueError("need at least one case")
    betas = dict(betas or {})
    briers, confidences, correct = [], [], []
    for case in cases:
        post = case_posterior(case, alpha, betas)
        hyps = sorted(post)
        briers.append(multiclass_brier_score([[post[h] for h in hyps]], [hyps.index(case.gold)]))
        top = min(post, key=lambda h: (-post[h], h))
        confidences.append(post[top])
        correct.append(int(top == case.gold))
    return CalibrationFit(
        alpha,
        betas,
        math.fsum(briers) / len(briers),
        expected_calibration_error(confidences, correct, n_bins),
        sum(correct) / len(correct),
        len(cases),
    )


def fit_alpha_beta(
    cases: Sequence[LabelledCase],
    *,
    alphas: Sequence[float] = ALPHA_GRID,
    betas: Sequence[float] = BETA_GRID,
    sweeps: int = 3,
    n_bins: int = 10,
) -> CalibrationFit:
    """Fit α and every group's β by minimum Brier score (see the module docstring).

    Raises:
        ValueError: If there are no cases, a grid is empty or ``sweeps < 1``.
    """
    if not cases or not alphas or not betas or sweeps < 1:
        raise ValueError("need cases, non-empty grids and sweeps >= 1")
    groups = sorted({c.group_of(i.id) for c in cases for i in c.items})
    best: CalibrationFit | None = None
    for alpha in alphas:
        current = dict.fromkeys(groups, 1.0 if 1.0 in betas else betas[0])
        score = evaluate(cases, alpha, current, n_bins)
        for _ in range(sweeps):
            changed = False
            for g in groups:
                for b in betas:
                    trial = evaluate(cases, alpha, {**current, g: b}, n_bins)
                    if trial.brier < score.brier - 1e-12:
                        current, score, changed = {**current, g: b}, trial, True
            if not changed:
                break
        if best is None or score.brier < best.brier - 1e-12:
            best = score
    assert best is not None
    return best


def leave_one_out(
    cases: Sequence[LabelledCase], *, sweeps: int = 3, n_bins: int = 10
) -> CalibrationFit:
    """Return the scores of the fitting procedure on each case held out from its own fit.

    Each case is scored with the (α, β) fitted on the others; the result carries the pooled
    Brier score, ECE and accuracy (and the α, β fitted on all cases, for reference).

    Raises:
        ValueError: With fewer than two cases.
    """
    if len(cases) < 2:
        raise ValueError("leave-one-out needs at least two cases")
    briers, confidences, correct = [], [], []
    for k, held in enumerate(cases):
        fit = fit_alpha_beta([c for j, c in enumerate(cases) if j != k], sweeps=sweeps)
        score = evaluate([held], fit.alpha, fit.betas, n_bins)
        post = case_posterior(held, fit.alpha, fit.betas)
        top = min(post, key=lambda h: (-post[h], h))
        briers.append(score.brier)
        confidences.append(post[top])
        correct.append(int(top == held.gold))
    full = fit_alpha_beta(cases, sweeps=sweeps)
    return CalibrationFit(
        full.alpha,
        full.betas,
        math.fsum(briers) / len(briers),
        expected_calibration_error(confidences, correct, n_bins),
        sum(correct) / len(correct),
        len(cases),
    )
