"""Confidence: the validator that flags low-confidence answers, and a heuristic ranking score.

The ``confidence`` validator reports the probability that the answer is right, from the model
fitted on measured signals (:class:`~disputatio.validators.calibrated.FittedConfidence`).

:func:`estimate_confidence` is the older heuristic, ``agreement × (0.5 + 0.5 × grounding)``
where ``grounding`` is the share of cited ids that were verified: a ranking signal between the
answers of one debate (which sub-answer to trust more), not a probability.
"""

from __future__ import annotations

from typing import Any

from disputatio.validators.base import ValidationContext, ValidationResult
from disputatio.validators.citations import verify_citations

#: Agreement assumed when the context does not say.
NEUTRAL_AGREEMENT = 0.5


def estimate_confidence(agreement: float | None, verified: int, unverified: int) -> float:
    """Combine agreement and citation grounding into a score in [0, 1].

    Args:
        agreement: Agreement in [0, 1], or None (→ :data:`NEUTRAL_AGREEMENT`).
        verified: Number of verified cited ids.
        unverified: Number of cited ids that were not verified.

    Returns:
        The confidence, rounded to 4 decimals.
    """
    base = NEUTRAL_AGREEMENT if agreement is None else min(max(agreement, 0.0), 1.0)
    cited = verified + unverified
    grounding = verified / cited if cited else 0.0
    return round(base * (0.5 + 0.5 * grounding), 4)


class ConfidenceValidator:
    """Fails when the estimated confidence is below ``min_confidence``.

    Args:
        min_confidence: Passing threshold.
        estimator: The confidence estimator hook (default
            :class:`~disputatio.validators.calibrated.FittedConfidence`, the fitted probability
            that the answer is right; :class:`~disputatio.validators.hooks.GroundedAgreement`
            is the old heuristic).
    """

    name = "confidence"

    def __init__(self, min_confidence: float = 0.5, estimator: Any = None) -> None:
        from disputatio.validators.calibrated import FittedConfidence

        self.min_confidence = min_confidence
        self.estimator = estimator or FittedConfidence()

    def validate(self, answer: str, context: ValidationContext) -> ValidationResult:
        """Estimate the confidence of ``answer`` with the estimator hook."""
        check = verify_citations(answer, context.allowed_ids)
        unverified = len(check.unverified) + len(
            [i for i in context.unverified if i not in check.unverified]
        )
        score = float(self.estimator.estimate(answer, context))
        return ValidationResult(
            name=self.name,
            passed=score >= self.min_confidence,
            score=score,
            message=f"P(right) {score:.2f} (threshold {self.min_confidence:.2f})",
            details={
                "agreement": context.agreement,
                "verified": len(check.verified),
                "unverified": unverified,
            },
        )
