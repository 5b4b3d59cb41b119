"""Citation verification, the confidence estimate and the validator registry."""

from __future__ import annotations

import pytest

from disputatio.errors import ConfigError
from disputatio.validators import (
    CitationValidator,
    ConfidenceValidator,
    ValidationContext,
    ValidationResult,
    Validator,
    available_validators,
    estimate_confidence,
    extract_citations,
    get_validator,
    register_validator,
    resolve_validators,
    run_validators,
    verify_citations,
)
from disputatio.validators.calibrated import default_model, features
from disputatio.validators.claims import check_answer
from disputatio.validators.hooks import GroundedAgreement


def test_fabricated_citation_is_stripped_and_reported() -> None:
    check = verify_citations("COX-1 is blocked [s1] and [made-up] too.", ["s1", "s2"])
    assert check.verified == ["s1"]
    assert check.unverified == ["made-up"]
    assert check.text == "COX-1 is blocked [s1] and too."


def test_group_keeps_only_its_verified_ids() -> None:
    check = verify_citations("Both [s1, fake; s2].", {"s1", "s2"})
    assert check.text == "Both [s1, s2]."
    assert (check.verified, check.unverified) == (["s1", "s2"], ["fake"])


def test_prefixed_and_quoted_ids_are_read() -> None:
    assert extract_citations("a [id=s1] b [section: s2] c ['s3'] d [s1]") == ["s1", "s2", "s3"]


def test_prose_brackets_and_links_are_not_citations() -> None:
    text = "See [the appendix] and [docs](http://x) [s1]."
    assert extract_citations(text) == ["s1"]
    assert verify_citations(text, []).text == "See [the appendix] and [docs](http://x)."


def test_text_without_citations_is_unchanged() -> None:
    assert verify_citations("No claims here.", ["s1"]) == ("No claims here.", [], [])


def test_confidence_formula() -> None:
    # agreement × (0.5 + 0.5 × verified / cited)
    assert estimate_confidence(0.8, verified=3, unverified=1) == pytest.approx(0.8 * (0.5 + 0.375))
    assert estimate_confidence(1.0, verified=0, unverified=0) == 0.5  # ungrounded: half
    assert estimate_confidence(None, verified=2, unverified=0) == 0.5  # neutral agreement 0.5
    assert estimate_confidence(2.0, verified=1, unverified=0) == 1.0  # clamped


def test_citation_validator_flags_and_revises() -> None:
    ctx = ValidationContext(allowed_ids=["s1"], sections={"s1": {"id": "s1"}}, unverified=["x"])
    result = CitationValidator().validate("A [s1] B [s9].", ctx)
    assert not result.passed
    assert result.details["unverified"] == ["s9"]
    assert result.details["stripped_earlier"] == ["x"]
    assert result.score == pytest.approx(1 / 3)  # 1 verified of 3 cited over the run
    assert result.revised_answer == "A [s1] B."


def test_citation_validator_passes_clean_answer() -> None:
    result = CitationValidator().validate("A [s1].", ValidationContext(allowed_ids=["s1"]))
    assert result.passed and result.score == 1.0 and result.revised_answer is None


def test_confidence_validator_threshold_with_the_heuristic_estimator() -> None:
    ctx = ValidationContext(allowed_ids=["s1"], agreement=0.9)
    validator = ConfidenceValidator(min_confidence=0.8, estimator=GroundedAgreement())
    high = validator.validate("A [s1].", ctx)
    low = validator.validate("A.", ctx)
    assert high.passed and high.score == 0.9
    assert not low.passed and low.score == 0.45


def test_the_default_confidence_is_the_fitted_probability() -> None:
    ctx = ValidationContext(
        allowed_ids=["s1"], sections={"s1": {"text": "Aspirin inhibits COX-1."}}
    )
    result = ConfidenceValidator().validate("Aspirin inhibits COX-1 [s1].", ctx)
    claims = check_answer("Aspirin inhibits COX-1 [s1].", ctx.sections).claims
    expected = default_model().probability(features([c.model_dump() for c in claims]))
    assert result.score == round(expected, 4) and "P(right)" in result.message


class _Upper:
    name = "upper"

    def validate(self, answer: str, context: ValidationContext) -> ValidationResult:
        return ValidationResult(name=self.name, passed=True, revised_answer=answer.upper())


class _Broken:
    name = "broken"

    def validate(self, answer: str, context: ValidationContext) -> ValidationResult:
        raise RuntimeError("boom")


def test_registry_builds_defaults_names_paths_and_objects() -> None:
    assert {"support", "citations", "confidence"} <= set(available_validators())
    assert [v.name for v in resolve_validators(None)] == [
        "support",
        "citations",
        "confidence",
        "bias",
    ]
    built = get_validator("disputatio.validators.confidence:ConfidenceValidator")
    assert isinstance(built, ConfidenceValidator)
    upper = _Upper()
    assert get_validator(upper) is upper
    assert isinstance(upper, Validator)


def test_register_validator_refuses_duplicates_unless_replacing() -> None:
    register_validator("test-upper", _Upper, replace=True)
    assert get_validator("test-upper").name == "upper"
    with pytest.raises(ConfigError, match="already registered"):
        register_validator("test-upper", _Upper)


@pytest.mark.parametrize("spec", ["nope", "no.such.module:X", "disputatio.errors:ConfigError"])
def test_bad_specs_raise_config_error(spec: str) -> None:
    with pytest.raises(ConfigError):
        get_validator(spec)


def test_a_failing_validator_is_reported_not_raised() -> None:
    results = run_validators([_Broken(), _Upper()], "ok", ValidationContext())
    assert [r.name for r in results] == ["broken", "upper"]
    assert not results[0].passed and "boom" in results[0].message
