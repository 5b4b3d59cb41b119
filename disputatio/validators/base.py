"""The validator interface and registry: checks run on a graph's final answer.

A validator is any object with a ``name`` and a ``validate(answer, context)`` method returning a
:class:`ValidationResult`. Users add their own (bias, hallucination, policy checks...) without
touching a graph, by passing instances or registered names in the graph's context::

    from disputatio.validators import register_validator

    class Shouting:
        name = "shouting"

        def validate(self, answer: str, context: ValidationContext) -> ValidationResult:
            loud = answer.isupper()
            return ValidationResult(name=self.name, passed=not loud, score=0.0 if loud else 1.0)

    register_validator("shouting", Shouting)
    graph.invoke(inputs, context=DebateContext(validators=["citations", "shouting"]))

A spec is a registered name, an import path ``"package.module:Attribute"`` (a class, a factory
or an instance), or a validator object. A validator that raises is reported as failed (and
logged); it never aborts the run.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable, Iterable
from typing import Any, Protocol, TypeAlias, runtime_checkable

from pydantic import BaseModel, Field

from disputatio.errors import ConfigError

logger = logging.getLogger(__name__)


class ValidationContext(BaseModel):
    """What a validator may look at besides the answer text.

    Attributes:
        question: The question that was answered.
        allowed_ids: Ids of the sections the answering agent actually saw; only these may be
            cited.
        sections: Section dicts by id (``id``, ``source``, ``text``...).
        agreement: Agreement behind the answer in [0, 1] (for an aggregated answer: the mean
            confidence of its sub-answers), or None when unknown.
        unverified: Citation ids already stripped from the answer upstream.
        transcript: The debate moves.
        tree: The sub-question tree with per-node answers.
        extra: Anything else a graph wants to hand its validators.
    """

    question: str = ""
    allowed_ids: list[str] = Field(default_factory=list)
    sections: dict[str, dict[str, Any]] = Field(default_factory=dict)
    agreement: float | None = None
    unverified: list[str] = Field(default_factory=list)
    transcript: list[dict[str, Any]] = Field(default_factory=list)
    tree: list[dict[str, Any]] = Field(default_factory=list)
    extra: dict[str, Any] = Field(default_factory=dict)


class ValidationResult(BaseModel):
    """The verdict of one validator.

    Attributes:
        name: The validator's name.
        passed: Whether the answer passed the check.
        score: A score in [0, 1] when the check has one.
        message: One line for people.
        details: Machine-readable details.
        revised_answer: A corrected answer text, if the validator proposes one (the graph uses
            the last one proposed).
    """

    name: str
    passed: bool
    score: float | None = None
    message: str = ""
    details: dict[str, Any] = Field(default_factory=dict)
    revised_answer: str | None = None


@runtime_checkable
class Validator(Protocol):
    """A check on an answer."""

    name: str

    def validate(self, answer: str, context: ValidationContext) -> ValidationResult:
        """Check ``answer`` and return the verdict."""
        ...


ValidatorSpec: TypeAlias = "str | Validator"
ValidatorFactory: TypeAlias = Callable[[], Validator]

_REGISTRY: dict[str, ValidatorFactory | str] = {
    "support": "disputatio.validators.support_validator:SupportValidator",
    "citations": "disputatio.validators.citations:CitationValidator",
    "confidence": "disputatio.validators.confidence:ConfidenceValidator",
    "bias": "disputatio.validators.hooks:BiasValidator",
}

#: Validators a graph runs when its context names none.
DEFAULT_VALIDATORS: tuple[str, ...] = ("support", "citations", "confidence", "bias")


def register_validator(name: str, factory: ValidatorFactory, *, replace: bool = False) -> None:
    """Register ``factory`` (a class or a zero-argument function) under ``name``.

    Args:
        name: The name used in specs.
        factory: Builds a validator.
        replace: Allow overriding an existing name.

    Raises:
        ConfigError: If ``name`` is taken and ``replace`` is false.
    """
    if name in _REGISTRY and not replace:
        raise ConfigError(f"validator {name!r} is already registered")
    _REGISTRY[name] = factory


def available_validators() -> list[str]:
    """Names of the registered validators, sorted."""
    return sorted(_REGISTRY)


def _import(path: str) -> Any:
    module_name, _, attr = path.partition(":")
    if not module_name or not attr:
        raise ConfigError(f"validator {path!r}: expected a registered name or 'module:Attribute'")
    try:
        obj = getattr(importlib.import_module(module_name), attr)
    except (ImportError, AttributeError) as exc:
        raise ConfigError(f"validator {path!r} cannot be imported: {exc}") from exc
    return obj


def _build(obj: Any, label: str) -> Validator:
    if isinstance(obj, type) or (callable(obj) and not isinstance(obj, Validator)):
        try:
            obj = obj()
        except TypeError as exc:
            raise ConfigError(f"validator {label!r} cannot be built without arguments") from exc
    if not isinstance(obj, Validator):
        raise ConfigError(f"validator {label!r} has no 'name' and 'validate(answer, context)'")
    return obj


def get_validator(spec: ValidatorSpec) -> Validator:
    """Return the validator for a spec (registered name, import path or object).

    Raises:
        ConfigError: If the spec names nothing usable.
    """
    if not isinstance(spec, str):
        return _build(spec, repr(spec))
    entry = _REGISTRY.get(spec, spec if ":" in spec else None)
    if entry is None:
        known = ", ".join(available_validators())
        raise ConfigError(f"unknown validator {spec!r} (known: {known})")
    return _build(_import(entry) if isinstance(entry, str) else entry, spec)


def resolve_validators(specs: Iterable[ValidatorSpec] | None) -> list[Validator]:
    """Build validators from specs (``None`` → :data:`DEFAULT_VALIDATORS`)."""
    return [get_validator(s) for s in (DEFAULT_VALIDATORS if specs is None else specs)]


def run_validators(
    validators: Iterable[Validator],
    answer: str,
    context: ValidationContext,
    error_handler: Any = None,
) -> list[ValidationResult]:
    """Run every validator; one that raises goes to the error handler hook.

    Each validator sees the answer as revised by the validators before it (the ``support``
    validator drops unsupported claims first, so the later ones judge the answer users get),
    and the claims judged before it in ``context.extra["claims"]``.

    Args:
        validators: The validators, in order.
        answer: The answer to check.
        context: What the validators may look at.
        error_handler: An :class:`~disputatio.validators.hooks.ErrorHandler` (default
            :class:`~disputatio.validators.hooks.ReportingErrorHandler`: log, report failed).

    Returns:
        One result per validator, in order.
    """
    from disputatio.validators.hooks import ReportingErrorHandler

    handler = error_handler or ReportingErrorHandler()
    results = []
    current = answer
    for validator in validators:
        name = str(getattr(validator, "name", type(validator).__name__))
        try:
            result = validator.validate(current, context)
        except Exception as exc:  # a user's check must not abort the run: the hook decides
            result = handler.handle(name, exc, context)
        results.append(result)
        current = result.revised_answer or current
        if "claims" in result.details:  # the judged claims, for the estimators after it
            context = context.model_copy(
                update={"extra": {**context.extra, "claims": result.details["claims"]}}
            )
    return results
