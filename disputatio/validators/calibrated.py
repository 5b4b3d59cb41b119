"""A confidence that is a probability: logistic regression on measured signals of an answer.

The signals, all measured on the checked answer (see :func:`features`):

* ``supported_share`` — the share of the writer's factual claims a cited sentence supports
  (before unsupported ones were dropped);
* ``not_found`` — 1 when the answer says the documents do not answer;
* ``evidence_score`` — the mean support score of the supported claims;
* ``agreement`` — how much the agents behind the answer agreed (1 for a single writer);
* ``relevance`` — the judge's P(the kept claims answer the question asked) minus 0.5
  (:mod:`disputatio.validators.relevance_judge`; 0 where it was not asked: a refusal, a
  two-part question, a debate's answer).

The coefficients are fitted on the calibration split of the labelled grounding questions
(``benchmarks/fit_confidence.py``; fitted model in ``disputatio/data/grounding/
confidence.json``; its ECE, Brier score, reliability and risk-coverage on the test split in
``docs/grounding.md``). Fit your own on your labelled questions the same way and pass it to
:class:`FittedConfidence`.
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

from disputatio.validators.base import ValidationContext

#: The signals, in the order of a model's coefficients.
FEATURES: tuple[str, ...] = (
    "supported_share",
    "not_found",
    "evidence_score",
    "agreement",
    "relevance",
)


def features(
    claims: Sequence[Mapping[str, Any]],
    agreement: float | None = None,
    relevance: float | None = None,
) -> list[float]:
    """The signals of an answer from its judged claims (``Claim`` dicts, dropped ones included).

    Args:
        claims: The claims as the claim checker judged them.
        agreement: Agreement of the agents behind the answer (None: a single writer, 1.0).
        relevance: The judge's P(the answer answers the question) (None: not asked).

    Returns:
        One value per name of :data:`FEATURES`.
    """
    facts = [c for c in claims if c.get("factual") and c.get("verdict") != "not_found"]
    supported = [c for c in facts if c.get("verdict") == "supported"]
    scores = [float((c.get("evidence") or {}).get("score", 0.0)) for c in supported]
    not_found = any(c.get("verdict") == "not_found" for c in claims) and not supported
    return [
        len(supported) / len(facts) if facts else 0.0,
        1.0 if not_found else 0.0,
        sum(scores) / len(scores) if scores else 0.0,
        1.0 if agreement is None else min(max(float(agreement), 0.0), 1.0),
        0.0 if relevance is None else min(max(float(relevance), 0.0), 1.0) - 0.5,
    ]


@dataclass(frozen=True)
class ConfidenceModel:
    """A fitted logistic model: ``P(answer right) = sigmoid(intercept + coef · features)``.

    A fitted model does not extrapolate: its probability is kept within the range it gave on
    the answers it was fitted on, and an answer with nothing to judge (no factual claim, no
    "not found") gets the share of those answers that were right.

    Attributes:
        coef: One coefficient per feature of :data:`FEATURES`; a model of the first
            features only (fitted before the later ones were signals) gives the rest 0.
        intercept: The intercept.
        fitted_on: What it was fitted on (for reports).
        base_rate: Share of the fit answers that were right (None: not recorded).
        low: Lowest probability the model gave a fit answer (None: no clipping).
        high: Highest probability the model gave a fit answer (None: no clipping).
    """

    coef: tuple[float, ...]
    intercept: float
    fitted_on: str = ""
    base_rate: float | None = None
    low: float | None = None
    high: float | None = None

    def __post_init__(self) -> None:
        missing = len(FEATURES) - len(self.coef)
        object.__setattr__(self, "coef", tuple(self.coef) + (0.0,) * max(missing, 0))

    def probability(self, values: Sequence[float]) -> float:
        """The probability that the answer is right, in [0, 1] (within ``low``–``high``)."""
        z = self.intercept + sum(c * v for c, v in zip(self.coef, values, strict=True))
        p = 1.0 / (1.0 + math.exp(-z)) if z > -700 else 0.0
        return min(max(p, self.low if self.low is not None else 0.0),
                   self.high if self.high is not None else 1.0)  # fmt: skip

    def confidence(
        self,
        claims: Sequence[Mapping[str, Any]],
        agreement: float | None = None,
        relevance: float | None = None,
    ) -> float:
        """The probability that an answer with these judged claims is right.

        Args:
            claims: The claims as the claim checker judged them (dropped ones included).
            agreement: Agreement of the agents behind the answer (None: a single writer).
            relevance: The judge's P(the answer answers the question) (None: not asked).

        Returns:
            :meth:`probability` of the answer's :func:`features`, or ``base_rate`` where the
            answer states nothing to judge and the model recorded one.
        """
        judged = any(c.get("factual") or c.get("verdict") == "not_found" for c in claims)
        if not judged and self.base_rate is not None:
            return self.base_rate
        return self.probability(features(claims, agreement, relevance))

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ConfidenceModel:
        """Read a model written by ``benchmarks/fit_confidence.py``.

        A model fitted on the first features only (one written before ``relevance`` was a
        signal) gives the others a coefficient of 0.
        """
        names = tuple(data["features"])
        if names != FEATURES[: len(names)] or not names:
            raise ValueError(f"confidence model features {names} are not {FEATURES}")

        def opt(key: str) -> float | None:
            return None if data.get(key) is None else float(data[key])

        coef = tuple(float(c) for c in data["coef"])
        fitted_on = str(data.get("fitted_on", ""))
        return cls(coef, float(data["intercept"]), fitted_on, opt("base_rate"), opt("low"),
                   opt("high"))  # fmt: skip


@functools.lru_cache(maxsize=1)
def default_model() -> ConfidenceModel:
    """The model shipped with disputatio (fitted on the grounding calibration split).

    Read once per process: the quick path asks for it on every answer.
    """
    path = resources.files("disputatio").joinpath("data/grounding/confidence.json")
    return ConfidenceModel.from_json(json.loads(path.read_text(encoding="utf-8")))


class FittedConfidence:
    """Confidence estimator hook: the fitted probability that the answer is right.

    It reads the claims the ``support`` validator judged (it must run before ``confidence``,
    as in the defaults); without them it judges the answer itself with the lexical checker.

    Args:
        model: The fitted model (default: :func:`default_model`).
    """

    def __init__(self, model: ConfidenceModel | None = None) -> None:
        self.model = model or default_model()

    def estimate(self, answer: str, context: ValidationContext) -> float:
        """The probability that ``answer`` is right, rounded to 4 decimals."""
        claims = context.extra.get("claims")
        if claims is None:
            from disputatio.validators.claims import check_answer, shown_sections

            report = check_answer(answer, shown_sections(context))
            claims = [c.model_dump(mode="json") for c in report.claims]
        return round(self.model.confidence(claims, context.agreement), 4)
