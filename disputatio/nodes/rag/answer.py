"""The grounded answerer: points at sentences, and every claim is checked, not trusted."""

from __future__ import annotations

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
from disputatio.prompts.retrieval import ANSWER_SECTIONS_SYSTEM, ANSWER_SYSTEM, ANSWER_USER
from disputatio.retrievers.base import format_sections
from disputatio.state.rag import RagState
from disputatio.state.retrieval import Section
from disputatio.tools.answer_text import drop_unfinished_tail, stopped_at_limit
from disputatio.validators.calibrated import default_model
from disputatio.validators.claims import check_answer
from disputatio.validators.parts import mark_unanswered_parts
from disputatio.validators.relevance_judge import below_floor, judge_relevance


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
    stays in ``draft``.
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
    text = str(reply.content)
    if stopped_at_limit(reply):
        text = drop_unfinished_tail(text)  # a fragment is no claim, though its words may match
    checker = ctx.support_checker()
    report = check_answer(
        text,
        {s.id: s.model_dump() for s in sections},
        checker=checker,
        aliases=labels,
        attribute=cfg.attribute,
        keep_unsupported=cfg.allow_unsupported,
        question=state["question"] if cfg.on_question else None,
        question_words=cfg.on_question_words,
    )
    if cfg.answer_parts:
        mark_unanswered_parts(state["question"], report)
    relevance = None
    if cfg.judge_relevance:
        relevance = judge_relevance(state["question"], report, getattr(checker, "judge", None))
        if not cfg.allow_unsupported:  # answers without evidence allowed: not refused either
            report = below_floor(report, relevance, cfg.relevance_floor)
    cited = [c for claim in report.claims if not claim.dropped for c in claim.citations]
    claims = [c.model_dump(mode="json") for c in report.claims]
    return {
        "confidence": round(default_model().confidence(claims, relevance=relevance), 4),
        "relevance": relevance,
        "answer": report.answer,
        "draft": str(reply.content),
        "citations": list(dict.fromkeys(cited)),
        "invalid_citations": report.fabricated_labels,
        "claims": claims,
        "grounded": report.grounded,
        "not_found": report.not_found,
        "usage": usage,
    }
