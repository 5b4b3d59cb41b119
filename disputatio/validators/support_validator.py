"""The ``support`` validator: every factual claim of an answer stands on a cited sentence.

It runs :func:`~disputatio.validators.claims.check_answer` on a protocol's final answer and
passes only when every factual claim is supported (or the answer is an honest "not found"),
proposing the checked answer as the revised one. A graph whose answer answers one question it
can name (the debate's flat root) hands it in ``context.extra["on_question"]``: then, as on the
quick path, a supported claim answering a neighbouring question is set aside
(``grounding.on_question``) and the judge is asked whether the kept claims answer it
(``grounding.judge_relevance``, refused under ``grounding.relevance_floor``).
"""

from __future__ import annotations

from disputatio.validators.base import ValidationContext, ValidationResult
from disputatio.validators.claims import check_answer, shown_sections
from disputatio.validators.relevance_judge import below_floor, judge_relevance
from disputatio.validators.support import LexicalSupport, SupportChecker


class SupportValidator:
    """Passes only when every factual claim of the answer is supported by a cited sentence.

    An answer that says the documents do not answer passes (an honest refusal); an answer with
    a fabricated label, or a claim left unsupported or uncited, fails. The revised answer is
    the checked one (unsupported claims dropped, attributed citations added). A graph hands
    its configured checker in ``context.extra["support_checker"]``, its settings'
    ``[grounding]`` in ``context.extra["grounding"]`` (default: the process's settings) and
    the question its answer must answer in ``context.extra["on_question"]`` (none: claims are
    checked against their sections only).

    Args:
        checker: The support checker (default :class:`LexicalSupport`).
        attribute: Attribute uncited claims after generation.
        keep_unsupported: Keep unsupported claims, flagged (default: the settings'
            ``grounding.allow_unsupported``).
    """

    name = "support"

    def __init__(
        self,
        checker: SupportChecker | None = None,
        attribute: bool = True,
        keep_unsupported: bool | None = None,
    ) -> None:
        self.checker = checker or LexicalSupport()
        self.attribute = attribute
        self.keep_unsupported = keep_unsupported

    def validate(self, answer: str, context: ValidationContext) -> ValidationResult:
        """Check every claim of ``answer`` against ``context.sections`` (only allowed ids).

        An answer written without any shown section (a protocol without retrieval) is judged
        (its claims are ``uncited``, the check fails) but not revised: there was nothing to
        ground it on, and dropping it would only hide what the protocol answered.
        """
        grounding = context.extra.get("grounding")
        if grounding is None:
            from disputatio.settings import get_settings

            grounding = get_settings().grounding
        shown = shown_sections(context)
        keep = (
            grounding.allow_unsupported if self.keep_unsupported is None else self.keep_unsupported
        )
        keep = keep or not shown
        checker = context.extra.get("support_checker") or self.checker
        question = context.extra.get("on_question") or None
        report = check_answer(
            answer,
            shown,
            checker=checker,
            attribute=self.attribute,
            keep_unsupported=keep,
            question=question if grounding.on_question else None,
            question_words=grounding.on_question_words,
        )
        floor = grounding.relevance_floor if grounding.judge_relevance else 0.0
        if question and floor and not keep:  # the judge's answer is used for refusal alone
            relevance = judge_relevance(question, report, getattr(checker, "judge", None))
            report = below_floor(report, relevance, floor)
        facts = [c for c in report.claims if c.factual and c.verdict != "not_found"]
        supported = sum(1 for c in facts if c.verdict == "supported")
        bad = len(facts) - supported
        if report.not_found:
            message = "the documents do not answer: no claim is made"
        else:
            message = f"{supported} of {len(facts)} claim(s) supported by a cited sentence"
            if bad:
                message += f"; {bad} unsupported or uncited dropped"
        if report.fabricated_labels:
            message += f"; {len(report.fabricated_labels)} fabricated label(s) removed"
        return ValidationResult(
            name=self.name,
            passed=bad == 0 and not report.fabricated_labels,
            score=supported / len(facts) if facts else None,
            message=message,
            details=report.model_dump(mode="json"),
            revised_answer=report.answer if report.answer != (answer or "").strip() else None,
        )
