"""Consistency between argumentation labels and posteriors, and noisy-OR where LLRs are missing.

**Consistency regulariser.** A hypothesis labelled OUT by the argumentation should not end up
probable, one labelled IN should not be penalised. Each label has a cost
``c(IN) = 0, c(UNDEC) = ½, c(OUT) = 1`` and the *label inconsistency* of a distribution ``q`` is
``E_q[c(L)] = Σ_h q_h c(L_h)`` in ``[0, 1]``. The regularised posterior is

    q* = argmin_q  KL(q ‖ p) + κ · E_q[c(L)]  =  softmax(λ − κ c(L)),

with ``p = softmax(λ)`` the fused posterior and ``κ ≥ 0`` the strength (Gibbs' variational
principle: the objective is ``KL(q ‖ softmax(λ − κc)) + const``, so the minimiser is unique and in
closed form). ``κ = 0`` leaves ``p`` unchanged; as ``κ`` grows the inconsistency never increases
and the mass moves from OUT to UNDEC to IN hypotheses; the order of hypotheses with the same label
is kept.

**Noisy-OR for qualitative edges.** An edge that says ``e supports H`` (or attacks) without a
likelihood ratio is read as a noisy-OR cause: supporter ``i`` establishes ``H`` on its own with
probability ``w_i q_i`` (edge weight × source quality), and the prior ``π`` is the leak, so

    P₊(H) = 1 − (1 − π) Π_i (1 − w_i q_i),

and attackers likewise establish ``¬H``: ``P₋(H) = π Π_j (1 − w_j q_j)``. The log-odds shift
added to ``H`` is ``[logit P₊ − logit π] + [logit P₋ − logit π]``: ``≥ 0`` from supporters,
``≤ 0`` from attackers, 0 for no causes or causes of quality 0, and monotone in every ``w q``.
A cause of strength 1 would make ``H`` certain; strengths are capped at ``1 − 1e-9`` so the
shift stays finite.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from disputatio.argumentation.fusion import logit, noisy_or, softmax
from disputatio.argumentation.semantics import Label

__all__ = [
    "LABEL_COST",
    "label_inconsistency",
    "noisy_or_shift",
    "regularised_log_scores",
    "regularised_posterior",
]

LABEL_COST: Mapping[Label, float] = {Label.IN: 0.0, Label.UNDEC: 0.5, Label.OUT: 1.0}
"""Cost of each label in the consistency regulariser."""

_MAX_STRENGTH = 1.0 - 1e-9


def _cost(labels: Mapping[str, Label], h: str) -> float:
    return LABEL_COST[labels.get(h, Label.UNDEC)]


def label_inconsistency(posterior: Mapping[str, float], labels: Mapping[str, Label]) -> float:
    """Return ``E_p[c(L)] = Σ_h p_h c(L_h)`` (unlabelled hypotheses count as UNDEC).

    Raises:
        ValueError: If ``posterior`` is not a distribution.
    """
    if any(p < 0 for p in posterior.values()) or abs(math.fsum(posterior.values()) - 1) > 1e-9:
        raise ValueError("posterior must be a probability distribution")
    return math.fsum(p * _cost(labels, h) for h, p in posterior.items())


def regularised_log_scores(
    log_scores: Mapping[str, float], labels: Mapping[str, Label], strength: float
) -> dict[str, float]:
    """Return ``λ − κ c(L)`` (see the module docstring).

    Raises:
        ValueError: If ``strength`` is negative or not finite.
    """
    if not (math.isfinite(strength) and strength >= 0.0):
        raise ValueError(f"strength must be a finite number >= 0, got {strength}")
    return {h: v - strength * _cost(labels, h) for h, v in log_scores.items()}


def regularised_posterior(
    log_scores: Mapping[str, float], labels: Mapping[str, Label], strength: float
) -> dict[str, float]:
    """Return ``q* = softmax(λ − κ c(L))``, the minimiser of ``KL(q‖p) + κ E_q[c(L)]``."""
    return softmax(regularised_log_scores(log_scores, labels, strength))


def noisy_or_shift(
    prior: float,
    supporters: Sequence[float] = (),
    attackers: Sequence[float] = (),
) -> float:
    """Return the log-odds shift of a hypothesis from qualitative supporters and attackers.

    Args:
        prior: Prior probability ``π`` of the hypothesis, in ``(0, 1)`` (the leak).
        supporters: Strength ``w_i q_i ∈ [0, 1]`` of each supporter.
        attackers: Strength ``w_j q_j ∈ [0, 1]`` of each attacker.

    Returns:
        ``[logit P₊ − logit π] + [logit P₋ − logit π]`` (see the module docstring).

    Raises:
        ValueError: On a prior outside ``(0, 1)`` or a strength outside ``[0, 1]``.
    """
    base = logit(prior)
    sup = [min(s, _MAX_STRENGTH) if 0.0 <= s <= 1.0 else s for s in supporters]
    att = [min(s, _MAX_STRENGTH) if 0.0 <= s <= 1.0 else s for s in attackers]
    # P₊ = 1 − (1 − π)·Π(1 − s_i): a noisy-OR with the leak π as one more cause.
    p_plus = noisy_or([prior, *sup]) if sup else prior
    # P₋(¬H) = 1 − π·Π(1 − s_j): the same on ¬H with the leak 1 − π.
    p_minus = 1.0 - noisy_or([1.0 - prior, *att]) if att else prior
    shift = 0.0
    if sup:
        shift += logit(min(p_plus, _MAX_STRENGTH)) - base
    if att:
        shift += logit(max(p_minus, 1.0 - _MAX_STRENGTH)) - base
    return shift
