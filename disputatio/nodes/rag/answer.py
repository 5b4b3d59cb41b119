"""The grounded answerer: points at sentences, and every claim is checked, not trusted."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from langchain_core.messages import HumanMessage, SystemMessage
from langgraph.runtime import Runtime

from disputatio.models.accounting import invoke_with_usage
from disputatio.nodes.citations import (
    format_numbered_sections,
    select_sentences,
    short_labels,
)
from disputatio.nodes.rag.context import RagContext
from disputatio.nodes.rag.repair import needs_repair
from disputatio.prompts.retrieval import (
    ANSWER_SECTIONS_SYSTEM,
    ANSWER_SYSTEM,
    ANSWER_USER,
    REPAIR_SYSTEM,
    REPAIR_USER,
)
from disputatio.retrievers.base import format_sections
from disputatio.settings.pipelines import GroundingSettings
from disputatio.state.claims import ClaimReport
from disputatio.state.rag import RagState
from disputatio.state.retrieval import Section
from disputatio.tools.answer_text import drop_unfinished_tail, stopped_at_limit
from disputatio.validators.calibrated import default_model
from disputatio.validators.claims import check_answer
from disputatio.validators.parts import mark_unanswered_parts
from disputatio.validators.relevance_judge import below_floor, judge_relevance
from disputatio.validators.support import SupportChecker
from disputatio.validators.yesno import mark_undecided


def answer(state: RagState, runtime: Runtime[RagContext]) -> dict[str, Any]:
    """Answer from the kept sections' numbered sentences, then check every claim.

    The model sees the ``grounding.max_sentences`` sentences nearest the question (all of
    them with 0), numbered within their section, and cites the sentence behind each claim.

    The answer returned is the checked one: claims no shown sentence supports are dropped
    (or kept and flagged with ``grounding.allow_unsupported``), uncited ones are attributed to
    their best supporting sentence, fabricated labels are removed; when nothing is supported
    it says that the documents do not answer, and with ``grounding.answer_parts`` it says
    which part of a multi-part question no kept claim answers. With
    ``grounding.judge_relevance`` the judge says whether a one-part answer's kept claims
    answer the question at all (``relevance``, a signal of ``confidence``; under
    ``grounding.relevance_floor`` the answer is refused). A reply the model stopped at its
    token limit loses its unfinished last sentence before the check. The model's own text
    stays in ``draft``. With ``grounding.repair``, a draft whose every claim the checker set
    aside for want of support is shown to the model once more (:mod:`.repair`); its second
    text is in ``repaired``, and its check replaces the first when it keeps a claim.
    """
    ctx = runtime.context or RagContext()
    cfg = ctx.get_settings().grounding
    sections = [Section.model_validate(s) for s in state.get("sections", [])]
    llm = ctx.chat_model("answerer", role="answerer", temperature=0.0)
    labels = short_labels([s.id for s in sections])
    if cfg.answer_format == "sections":
        system, shown = ANSWER_SECTIONS_SYSTEM, format_sections(sections, labels=list(labels))
    else:
        keep = None
        if cfg.max_sentences:
            keep = select_sentences(
                state["question"], sections, list(labels), ctx.funnel().embeddings,
                cfg.max_sentences,
            )  # fmt: skip
        system, shown = ANSWER_SYSTEM, format_numbered_sections(sections, list(labels), keep)
    messages = [
        SystemMessage(system),
        HumanMessage(ANSWER_USER.format(sections=shown, question=state["question"])),
    ]
    reply, usage = invoke_with_usage(llm, messages, agent="answerer", role="answerer")
    checker = ctx.support_checker()
    check = partial(
        _check,
        sections={s.id: s.model_dump() for s in sections},
        labels=labels,
        checker=checker,
        cfg=cfg,
        question=state["question"],
    )
    report, repaired, more = _repair(ctx, check(reply), check, shown, state["question"])
    usage = {**usage, **more}
    floor = cfg.relevance_floor
    if repaired is not None and not report.not_found:  # a second try clears a higher bar
        floor = max(floor, cfg.repair_floor)
    mark_undecided(state["question"], report)  # a set-aside yes/no verdict: undecided
    if cfg.answer_parts:
        mark_unanswered_parts(state["question"], report)
    relevance = None
    if cfg.judge_relevance:
        relevance = judge_relevance(state["question"], report, getattr(checker, "judge", None))
        if not cfg.allow_unsupported:  # answers without evidence allowed: not refused either
            report = below_floor(report, relevance, floor)
    cited = [c for claim in report.claims if not claim.dropped for c in claim.citations]
    claims = [c.model_dump(mode="json") for c in report.claims]
    return {
        "confidence": round(default_model().confidence(claims, relevance=relevance), 4),
        "relevance": relevance,
        "answer": report.answer,
        "draft": str(reply.content),
        "repaired": repaired,
        "citations": list(dict.fromkeys(cited)),
        "invalid_citations": report.fabricated_labels,
        "claims": claims,
        "grounded": report.grounded,
        "not_found": report.not_found,
        "usage": usage,
    }


def _repair(
    ctx: RagContext,
    report: ClaimReport,
    check: Callable[[Any], ClaimReport],
    shown: str,
    question: str,
) -> tuple[ClaimReport, str | None, dict[str, dict[str, Any]]]:
    """``report``, or the check of one repair when the checker set aside every claim of it.

    With ``grounding.repair`` on and :func:`~.repair.needs_repair` finding a repair case, the
    model is asked afresh to copy the sentence that answers ``question`` from the ``shown``
    sections; its reply's check replaces ``report`` when it keeps a claim.

    Returns:
        ``(report, the repair's text or None when none was asked, the repair's usage)``.
    """
    if not ctx.get_settings().grounding.repair or not needs_repair(report.claims):
        return report, None, {}
    fixer = ctx.chat_model("repairer", role="answerer", temperature=0.0)
    messages = [
        SystemMessage(REPAIR_SYSTEM),
        HumanMessage(REPAIR_USER.format(sections=shown, question=question)),
    ]
    again, usage = invoke_with_usage(fixer, messages, agent="repairer", role="answerer")
    second = check(again)
    return (report if second.not_found else second), str(again.content), usage


def _check(
    reply: Any,
    *,
    sections: dict[str, dict[str, Any]],
    labels: dict[str, str],
    checker: SupportChecker,
    cfg: GroundingSettings,
    question: str,
) -> ClaimReport:
    """The claim check of the model's ``reply`` (its unfinished tail cut at a token limit)."""
    text = str(reply.content)
    if stopped_at_limit(reply):
        text = drop_unfinished_tail(text)  # a fragment is no claim, though its words may match
    return check_answer(
        text,
        sections,
        checker=checker,
        aliases=labels,
        attribute=cfg.attribute,
        keep_unsupported=cfg.allow_unsupported,
        question=question if cfg.on_question else None,
        question_words=cfg.on_question_words,
        quote_refused=cfg.quote_refused,
    )
