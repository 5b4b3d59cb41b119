"""One log-probability verdict: the label prompt, the call, and the labels' log-probabilities.

The prompt (:mod:`disputatio.prompts.eval`) shows the question, its options and (settings
``rag`` and ``read``) the evidence of :func:`~disputatio.eval.evidence.evidence_for`, and ends
with ``Answer:``; the model answers at temperature 0 with at most two tokens, and the labels
are scored by :func:`~disputatio.models.logprobs.score_options`. The call is the ``baseline``
agent's (a ``models`` entry ``baseline`` or the run's model).
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping, Sequence
from typing import Any

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage

from disputatio.eval.evidence import evidence_for
from disputatio.eval.question import Question
from disputatio.graphs.medrag_debate import MedragContext, resolve
from disputatio.models.accounting import usage_record
from disputatio.models.logprobs import LABEL_MAX_TOKENS, OptionScores, score_options
from disputatio.prompts import eval as P
from disputatio.state.retrieval import Section
from disputatio.tools.answer_text import format_options, render_sections

#: The agent (and role) making the verdict calls.
AGENT = "baseline"
#: Evidence settings: no evidence, found by a leak-free search, the question's own context.
SETTINGS = ("cot", "rag", "read")


def labels_of(options: Mapping[str, str] | Sequence[str]) -> list[str]:
    """The option labels: the letters of lettered options, else the labels themselves."""
    return list(options.keys()) if isinstance(options, Mapping) else list(options)


def _label_list(labels: Sequence[str]) -> str:
    return ", ".join(labels[:-1]) + f" or {labels[-1]}" if len(labels) > 1 else labels[0]


def verdict_messages(
    question: str,
    options: dict[str, str] | list[str],
    sections: Sequence[Section] | None,
    section_max_chars: int | None,
) -> list[BaseMessage]:
    """The label prompt: system, then the question (with the evidence when ``sections``)."""
    labels = _label_list(labels_of(options))
    common = {"question": question, "options": format_options(options), "labels": labels}
    if sections is None:
        user = P.LABEL_USER.format(**common)
    else:
        text = render_sections(sections, section_max_chars)
        user = P.LABEL_USER_EVIDENCE.format(sections=text, **common)
    return [SystemMessage(P.LABEL_SYSTEM.format(labels=labels)), HumanMessage(user)]


def content_free_messages(
    text: str, options: dict[str, str] | list[str], setting: str, cfg_chars: int | None
) -> list[BaseMessage]:
    """The label prompt of a content-free input: ``text`` as question, option texts, evidence."""
    free: dict[str, str] | list[str] = (
        dict.fromkeys(options, text) if isinstance(options, Mapping) else list(options)
    )
    sections = None if setting == "cot" else [Section(id="cf", text=text)]
    return verdict_messages(text, free, sections, cfg_chars)


def finite(value: float) -> float | None:
    """``value``, or None when it is not finite (JSON has no infinity)."""
    return value if math.isfinite(value) else None


def ask_labels(
    ctx: MedragContext, messages: list[BaseMessage], labels: Sequence[str]
) -> dict[str, Any]:
    """One verdict call; ``{scores, usage, response, ms}`` (``scores``: :class:`OptionScores`).

    Raises:
        LogprobsUnavailableError: If the endpoint returns no log-probabilities.
    """
    llm = ctx.chat_model(AGENT, role=AGENT, temperature=0.0, max_tokens=LABEL_MAX_TOKENS)
    t0 = time.perf_counter()
    scores, reply = score_options(llm, messages, labels)
    elapsed = time.perf_counter() - t0
    return {
        "scores": scores,
        "usage": usage_record(AGENT, AGENT, reply, elapsed),
        "response": scores.text,
        "ms": elapsed * 1000.0,
    }


def scores_record(scores: OptionScores) -> dict[str, Any]:
    """The JSON-ready fields of :class:`OptionScores` kept in records."""
    return {
        "logprobs": {label: finite(lp) for label, lp in scores.logprobs.items()},
        "missing": list(scores.missing),
        "found": scores.found,
        "position": scores.position,
        "token": scores.token,
        "alternatives": [[tok, round(lp, 6)] for tok, lp in scores.alternatives],
    }


def logprobs_of(scored: Mapping[str, Any]) -> dict[str, float]:
    """The labels' log-probabilities of a :func:`scores_record` (None read as -inf)."""
    return {
        label: -math.inf if lp is None else float(lp)
        for label, lp in (scored.get("logprobs") or {}).items()
    }


def score_question(question: Question, ctx: MedragContext, setting: str) -> dict[str, Any]:
    """Ask one verdict on ``question`` in ``setting``; the record fields of its scores.

    Returns:
        :func:`scores_record` plus ``usage``, ``response``, ``ms``, ``evidence`` and
        ``retrieval`` (the log entries of a search).
    """
    cfg = resolve(ctx)
    sections, evidence, retrieval = evidence_for(setting, question, ctx)
    messages = verdict_messages(
        question.question, question.options, sections, cfg.section_max_chars
    )
    asked = ask_labels(ctx, messages, labels_of(question.options))
    return {
        **scores_record(asked["scores"]),
        "usage": asked["usage"],
        "response": asked["response"],
        "ms": asked["ms"],
        "evidence": evidence,
        "retrieval": retrieval,
    }
