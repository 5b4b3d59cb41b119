"""The fitted confidence: signals read from judged claims, a probability from the model."""

from __future__ import annotations

import pytest

from disputatio.validators.base import ValidationContext, resolve_validators, run_validators
from disputatio.validators.calibrated import (
    ConfidenceModel,
    FittedConfidence,
    default_model,
    features,
)

SECTIONS = {"s1": {"text": "The CTD-41 must be calibrated every 18 months."}}


def claim(verdict: str | None, score: float = 0.9, factual: bool = True) -> dict:
    ev = {"score": score} if verdict == "supported" else None
    return {"verdict": verdict, "factual": factual, "evidence": ev}


def test_features_count_the_writers_claims_before_any_was_dropped() -> None:
    claims = [claim("supported", 0.8), claim("unsupported"), claim(None, factual=False)]
    assert features(claims) == [0.5, 0.0, 0.8, 1.0, 0.0]
    assert features([claim("not_found")], agreement=0.25) == [0.0, 1.0, 0.0, 0.25, 0.0]


def test_the_relevance_signal_is_the_judges_probability_centred_and_zero_when_not_asked() -> None:
    kept = [claim("supported", 0.8)]
    assert features(kept, relevance=0.9)[-1] == pytest.approx(0.4)
    assert features(kept, relevance=0.2)[-1] == pytest.approx(-0.3)
    assert features(kept)[-1] == 0.0


def test_a_judge_that_doubts_the_answer_answers_lowers_the_confidence() -> None:
    model = ConfidenceModel(coef=(1.0, 0.0, 0.0, 0.0, 5.0), intercept=0.0)
    kept = [claim("supported")]
    doubted = model.confidence(kept, relevance=0.2)
    trusted = model.confidence(kept, relevance=0.9)
    assert doubted < model.confidence(kept) < trusted


def test_a_model_fitted_before_the_relevance_signal_still_reads_and_ignores_it() -> None:
    old = {"features": ["supported_share", "not_found", "evidence_score", "agreement"],
           "coef": [2.0, 0.0, 0.0, 0.0], "intercept": -1.0}  # fmt: skip
    model = ConfidenceModel.from_json(old)
    kept = [claim("supported")]
    assert model.confidence(kept, relevance=0.1) == model.confidence(kept, relevance=0.9)
    with pytest.raises(ValueError, match="features"):
        ConfidenceModel.from_json({**old, "features": ["agreement"], "coef": [1.0]})


def test_more_support_means_more_confidence_under_a_positive_coefficient() -> None:
    model = ConfidenceModel(coef=(3.0, 0.0, 0.0, 0.0), intercept=-1.5)
    low = model.probability(features([claim("supported"), claim("uncited")]))
    high = model.probability(features([claim("supported"), claim("supported")]))
    assert 0.0 < low < high < 1.0


def test_the_confidence_validator_reads_the_claims_the_support_validator_judged() -> None:
    """A claim dropped by ``support`` still lowers the confidence of what is left."""
    model = ConfidenceModel(coef=(4.0, 0.0, 0.0, 0.0), intercept=-2.0)
    ctx = ValidationContext(allowed_ids=["s1"], sections=SECTIONS)
    validators = [*resolve_validators(["support"]), *resolve_validators(["confidence"])]
    validators[1].estimator = FittedConfidence(model)  # type: ignore[attr-defined]
    clean = "The CTD-41 must be calibrated every 18 months [s1]."
    mixed = clean + " The CTD-41 is rated to 9,000 m [s1]."
    one = run_validators(validators, clean, ctx)[1].score
    two = run_validators(validators, mixed, ctx)[1].score
    assert one is not None and two is not None and two < one


def test_a_fitted_model_does_not_extrapolate_beyond_its_fit_answers() -> None:
    """Clipped to the range seen on its fit answers; nothing to judge gives the base rate."""
    model = ConfidenceModel(coef=(0.0, 0.0, 12.0, 0.0), intercept=-6.0, base_rate=0.8,
                            low=0.6, high=0.9)  # fmt: skip
    assert model.confidence([claim("supported", 1.0)]) == 0.9
    assert model.confidence([claim("unsupported")]) == 0.6
    assert model.confidence([claim(None, factual=False)]) == 0.8
    assert model.confidence([]) == 0.8


def test_the_shipped_confidence_tells_answers_apart() -> None:
    """The default model is not one constant (the first fit gave 0.84 to every answer)."""
    model = default_model()
    well = model.confidence([claim("supported", 0.95), claim("supported", 0.95)])
    half = model.confidence([claim("supported", 0.6), claim("unsupported")])
    silent = model.confidence([claim("not_found")])
    shown = {round(p, 2) for p in (well, half, silent)}  # as the CLI prints it
    assert len(shown) == 3
    assert half < well
