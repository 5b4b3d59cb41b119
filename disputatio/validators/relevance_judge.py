"""Does a supported answer answer the question asked? The judge's probability, and a floor.

The lexical rules of :mod:`disputatio.validators.relevance` catch a neighbouring *number*,
unit or kind of amount; what they cannot see is a true, supported claim about the neighbouring
*thing*: asked for the opening hours of a clinic, the hours of its walk-in blood tests. The
claim judge's model is asked once more, with the question and the kept supported claims
(:meth:`~disputatio.validators.judge.SupportJudge.answers`): do these statements answer it?

Its P(yes) is measured, not trusted (docs/grounding.md, "Does the answer answer the
question?"): on the recorded answers of twelve held-out question sets it ranks right answers
above answered near misses with an AUC of about 0.8, so it is a signal of the fitted confidence
(:mod:`disputatio.validators.calibrated`, ``relevance``); as a refusal floor
(``grounding.relevance_floor``, 0.25) it refuses only answers it is nearly sure of: higher
floors refuse about one right answer for each near miss. A question of two parts is not asked
about (its answer may answer one part only: :mod:`disputatio.validators.parts` says which).
"""

from __future__ import annotations

from typing import Any

from disputatio.state.claims import ClaimReport
from disputatio.validators.claims import NOT_FOUND_ANSWER, withdraw
from disputatio.validators.questions import question_parts


def judge_relevance(question: str, report: ClaimReport, judge: Any) -> float | None:
    """P(the answer's kept supported claims answer ``question``), or None where not asked.

    Args:
        question: The question answered.
        report: The checked answer.
        judge: The claim checker's judge; one without an ``answers`` method is not asked.

    Returns:
        The judge's P(yes); None when there is no judge, the answer states nothing supported
        (a refusal) or the question has two parts.
    """
    ask = getattr(judge, "answers", None)
    if ask is None or report.not_found or len(question_parts(question)) > 1:
        return None
    kept = [
        c.text for c in report.claims if c.factual and c.verdict == "supported" and not c.dropped
    ]
    return float(ask(question, kept)) if kept else None


def below_floor(
    report: ClaimReport,
    relevance: float | None,
    floor: float,
    not_found_answer: str = NOT_FOUND_ANSWER,
) -> ClaimReport:
    """``report``, or a refusal where the judge's P(answers) is under ``floor`` (0: never)."""
    if relevance is None or relevance >= floor:
        return report
    why = (
        f"supported, but judged not to answer the question asked "
        f"(P {relevance:.2f} < relevance floor {floor:g})"
    )
    return withdraw(report, why, not_found_answer)
