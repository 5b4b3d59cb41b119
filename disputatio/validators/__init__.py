"""Validation hooks run on a graph's final answer (citations, confidence, bias, your own).

See :mod:`disputatio.validators.base` for the interface and how to register a validator, and
:mod:`disputatio.validators.hooks` for the bias detector, confidence estimator and error
handler extension points.
"""

from disputatio.validators.base import (
    DEFAULT_VALIDATORS,
    ValidationContext,
    ValidationResult,
    Validator,
    available_validators,
    get_validator,
    register_validator,
    resolve_validators,
    run_validators,
)
from disputatio.validators.citations import (
    CitationCheck,
    CitationValidator,
    extract_citations,
    verify_citations,
)
from disputatio.validators.confidence import ConfidenceValidator, estimate_confidence
from disputatio.validators.hooks import (
    BiasDetector,
    BiasValidator,
    ConfidenceEstimator,
    ErrorHandler,
    GroundedAgreement,
    LexicalBiasDetector,
    ReportingErrorHandler,
)

__all__ = [
    "DEFAULT_VALIDATORS",
    "BiasDetector",
    "BiasValidator",
    "CitationCheck",
    "CitationValidator",
    "ConfidenceEstimator",
    "ConfidenceValidator",
    "ErrorHandler",
    "GroundedAgreement",
    "LexicalBiasDetector",
    "ReportingErrorHandler",
    "ValidationContext",
    "ValidationResult",
    "Validator",
    "available_validators",
    "estimate_confidence",
    "extract_citations",
    "get_validator",
    "register_validator",
    "resolve_validators",
    "run_validators",
    "verify_citations",
]
