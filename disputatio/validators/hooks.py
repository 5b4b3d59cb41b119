"""Extension points of the validation phase (seed 000, phase 6.5), with basic implementations.

Besides the validator registry (:mod:`disputatio.validators.base`), three hooks can be replaced
without touching a graph:

* a **bias detector** (:class:`BiasDetector`: ``detect(answer, context) -> list[str]``), run
  by the ``bias`` validator. The basic :class:`LexicalBiasDetector` flags overclaiming words
  ("always", "clearly", "proven"...) and an answer that rests on one source while the agents
  were shown several;
* a **confidence estimator** (:class:`ConfidenceEstimator`: ``estimate(answer, context) ->
  float``), used by the ``confidence`` validator. The basic :class:`GroundedAgreement` is
  ``agreement × (0.5 + 0.5 × grounding)``;
* an **error handler** (:class:`ErrorHandler`: ``handle(name, exc, context) ->
  ValidationResult``), called when a validator raises. The basic :class:`ReportingErrorHandler`
  logs the error and reports the check as failed, so a broken check never aborts a run.

Both debate graphs (``debate`` and ``medrag_debate``) run the validators of their context
(``validators``; default :data:`~disputatio.validators.base.DEFAULT_VALIDATORS`) with the
context's ``error_handler``::

    class NoAbsolutes:
        def detect(self, answer, context):
            return ["absolute claim"] if "always" in answer else []

    DebateContext(validators=["citations", BiasValidator(NoAbsolutes())])
"""

from __future__ import annotations

import logging
import re
from typing import Protocol, runtime_checkable

from disputatio.validators.base import ValidationContext, ValidationResult
from disputatio.validators.citations import verify_citations

logger = logging.getLogger(__name__)

#: Agreement assumed when the context does not say.
NEUTRAL_AGREEMENT = 0.5


@runtime_checkable
class BiasDetector(Protocol):
    """Finds signs of a one-sided or overclaiming answer."""

    def detect(self, answer: str, context: ValidationContext) -> list[str]:
        """Return one short finding per problem (empty when none)."""
        ...


@runtime_checkable
class ConfidenceEstimator(Protocol):
    """Scores how much an answer can be trusted, in [0, 1]."""

    def estimate(self, answer: str, context: ValidationContext) -> float:
        """Return the confidence of ``answer``."""
        ...


@runtime_checkable
class ErrorHandler(Protocol):
    """Turns a validator's exception into a result (or re-raises to abort the run)."""

    def handle(self, name: str, exc: Exception, context: ValidationContext) -> ValidationResult:
        """Return the result reported for the validator ``name`` that raised ``exc``."""
        ...


_OVERCLAIM_RE = re.compile(
    r"\b(always|never|certainly|clearly|obviously|undoubtedly|definitely|proven|"
    r"guaranteed|without (?:any )?doubt|100 ?%|all experts)\b",
    re.I,
)


class LexicalBiasDetector:
    """Basic bias detector: overclaiming words and single-source answers.

    Args:
        max_overclaims: Overclaiming words tolerated before flagging.
    """

    def __init__(self, max_overclaims: int = 0) -> None:
        self.max_overclaims = max_overclaims

    def detect(self, answer: str, context: ValidationContext) -> list[str]:
        """Flag overclaiming words and an answer citing one source of several shown."""
        findings = []
        words = sorted({m.group(0).lower() for m in _OVERCLAIM_RE.finditer(answer or "")})
        if len(words) > self.max_overclaims:
            findings.append(f"overclaiming words: {', '.join(words)}")
        cited = verify_citations(answer or "", context.allowed_ids).verified
        sources = {str(context.sections.get(i, {}).get("source") or i) for i in cited}
        shown = {
            str(context.sections.get(i, {}).get("source") or i)
            for i in context.allowed_ids
            if i in context.sections
        }
        if len(cited) >= 2 and len(sources) == 1 and len(shown) >= 3:
            findings.append(f"every citation comes from one source of {len(shown)} shown")
        return findings


class GroundedAgreement:
    """Basic confidence estimator: ``agreement × (0.5 + 0.5 × grounding)``.

    ``agreement`` comes from the context (neutral 0.5 when unknown); ``grounding`` is the share
    of cited ids that were verified, counting ids stripped upstream (0 when nothing is cited).
    """

    def estimate(self, answer: str, context: ValidationContext) -> float:
        """Estimate the confidence of ``answer``."""
        check = verify_citations(answer, context.allowed_ids)
        unverified = len(check.unverified) + len(
            [i for i in context.unverified if i not in check.unverified]
        )
        base = NEUTRAL_AGREEMENT if context.agreement is None else context.agreement
        base = min(max(base, 0.0), 1.0)
        cited = len(check.verified) + unverified
        grounding = len(check.verified) / cited if cited else 0.0
        return round(base * (0.5 + 0.5 * grounding), 4)


class ReportingErrorHandler:
    """Basic error handler: log the exception, report the check as failed, go on."""

    def handle(self, name: str, exc: Exception, context: ValidationContext) -> ValidationResult:
        """Report ``exc`` as a failed check."""
        logger.error("validator %s failed: %s: %s", name, type(exc).__name__, exc)
        return ValidationResult(
            name=name,
            passed=False,
            message=f"validator error: {type(exc).__name__}: {exc}",
            details={"error": type(exc).__name__},
        )


class BiasValidator:
    """Runs a :class:`BiasDetector` (default :class:`LexicalBiasDetector`) as a validator.

    Args:
        detector: The detector to run.
    """

    name = "bias"

    def __init__(self, detector: BiasDetector | None = None) -> None:
        self.detector = detector or LexicalBiasDetector()

    def validate(self, answer: str, context: ValidationContext) -> ValidationResult:
        """Pass when the detector finds nothing."""
        findings = self.detector.detect(answer, context)
        return ValidationResult(
            name=self.name,
            passed=not findings,
            score=1.0 if not findings else max(0.0, 1.0 - 0.25 * len(findings)),
            message="; ".join(findings) if findings else "no sign of bias found",
            details={"findings": findings},
        )
