"""A heuristic confidence estimate and the validator that flags low-confidence answers.

``confidence = agreement × (0.5 + 0.5 × grounding)`` where ``agreement`` is how much the agents
behind the answer agreed (1.0 for a single agent; for an aggregated answer the mean confidence
of its sub-answers) and ``grounding`` is the share of cited ids that were verified (0 when the
answer cites nothing). An ungrounded answer thus keeps at most half its agreement. This is a
ranking signal, not a calibrated probability.
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
            :class:`~disputatio.validators.hooks.GroundedAgreement`).
    """

    name = "confidence"

    def __init__(self, min_confidence: float = 0.5, estimator: Any = None) -> None:
        from disputatio.validators.hooks import GroundedAgreement

        self.min_confidence = min_confidence
        self.estimator = estimator or GroundedAgreement()

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
            message=f"confidence {score:.2f} (threshold {self.min_confidence:.2f})",
            details={
                "agreement": context.agreement,
                "verified": len(check.verified),
                "unverified": unverified,
            },
        )
