"""Reviewer, summarizer and aggregator: the moves that turn answers into a node's answer.

* The reviewer critiques a debated leaf and may ask for more evidence: a ``retrieve("...")``
  call at the end of its critique is run (at most ``review_searches`` per leaf), and what it
  finds is shown to the summarizer.
* The summarizer writes the leaf's answer from the sections (labelled ``S1``...), the debate
  and the review; citations are verified against the labels shown and mapped back to ids.
* An internal node's answer is COMPOSED, not rewritten: each sub-question's answer comes from
  that sub-question's own result, keeping its verdict line and its cited sentences (an uncited
  claim a sub-answer made about another sub-question is dropped) and its citations. A model
  rewriting the children mixed their figures up (a held-out run kept an invented battery life
  from the wrong sub-question, uncited).
"""

from __future__ import annotations

import re
from statistics import fmean
from typing import Any, Literal

from langchain_core.messages import HumanMessage, SystemMessage
from langgraph.runtime import Runtime
from langgraph.types import Command, Send

from disputatio.models.accounting import invoke_with_usage
from disputatio.models.toolcalls import parse_tool_calls, strip_tool_calls
from disputatio.nodes.debate.agreement import verdict_line
from disputatio.nodes.debate.common import (
    dedupe_sections,
    example_id,
    labelled_check,
    make_move,
    render_moves,
    render_sections,
    search,
    section_labels,
    text_of,
)
from disputatio.nodes.debate.context import DebateContext, get_context, resolve_config
from disputatio.nodes.debate.workers import repair_citations
from disputatio.prompts.debate import (
    COMPOSED_PART,
    MAIN_QUESTION_BLOCK,
    NO_ANSWER,
    REVIEWER_SEARCH,
    REVIEWER_SYSTEM,
    REVIEWER_USER,
    SUMMARIZER_SYSTEM,
    SUMMARIZER_USER,
)
from disputatio.state.debate import AggregateTask, ReviewTask
from disputatio.state.reducers import merge_usage
from disputatio.tools.retrieval import TOOL_NAME
from disputatio.validators.citations import CitationCheck, extract_citations, verify_citations
from disputatio.validators.confidence import estimate_confidence


def _main_block(question: str, main_question: str) -> str:
    if question == main_question:
        return ""
    return MAIN_QUESTION_BLOCK.format(main_question=main_question)


def _result(
    check: CitationCheck, allowed: list[str], support: float, **extra: Any
) -> dict[str, Any]:
    return {
        "answer": check.text,
        "citations": list(check.verified),
        "unverified": list(check.unverified),
        "allowed_ids": allowed,
        "confidence": estimate_confidence(support, len(check.verified), len(check.unverified)),
        "support": support,
        **extra,
    }


#: Search calls the reviewer may write (text tool calls).
_REVIEW_TOOLS = {"retrieve": ["query"], TOOL_NAME: ["query", "k"]}


def _review_queries(text: str, limit: int) -> list[str]:
    """Queries of the reviewer's search calls, at most ``limit``."""
    queries = []
    for call in parse_tool_calls(text, _REVIEW_TOOLS):
        args = call.get("args") or {}
        query = args.get("query") or next((v for v in args.values() if isinstance(v, str)), "")
        if str(query).strip():
            queries.append(str(query).strip())
    return queries[:limit]


def review(state: ReviewTask, runtime: Runtime[DebateContext]) -> Command[Literal["summarize"]]:
    """Critique a leaf's debate (fetching more evidence when it asks), then summarize it."""
    ctx = get_context(runtime.context)
    cfg = resolve_config(ctx)
    node, agent = state["node"], f"reviewer-{state['node']}"
    system = REVIEWER_SYSTEM.format(max_words=cfg.max_words)
    if cfg.review_searches > 0:
        system = f"{system}\n{REVIEWER_SEARCH}"
    messages = [
        SystemMessage(system),
        HumanMessage(
            REVIEWER_USER.format(
                question=state["question"], transcript=render_moves(state["moves"])
            )
        ),
    ]
    reply, usage = invoke_with_usage(
        ctx.agent_model(agent, "reviewer"), messages, agent=agent, role="reviewer"
    )
    raw = text_of(reply)
    queries = _review_queries(raw, cfg.review_searches) if cfg.review_searches > 0 else []
    found: list[dict[str, Any]] = []
    if queries:
        retriever = ctx.get_retriever()
        for query in queries:
            sections, _ = search(retriever, query, k=cfg.seed_k, agent=agent)
            found += sections
    found = dedupe_sections(found)
    critique = strip_tool_calls(raw, list(_REVIEW_TOOLS)).strip() or NO_ANSWER
    seen = [c for m in state["moves"] for c in m["citations"]]
    check = verify_citations(critique, seen)
    move = make_move(
        node=node,
        agent=agent,
        role="reviewer",
        round_=state["rounds"],
        kind="review",
        check=check,
        queries=queries,
    )
    sections = dedupe_sections([*found, *state["sections"]])[: cfg.summary_sections + len(found)]
    update: dict[str, Any] = {"transcript": [move], "usage": usage, "reviews": {node: check.text}}
    if found:
        update["sections"] = {s["id"]: s for s in found}
        update["retrieved"] = {agent: [s["id"] for s in found]}
    return Command(
        update=update,
        goto=Send("summarize", {**state, "critique": check.text, "sections": sections}),
    )


def summarize(state: ReviewTask, runtime: Runtime[DebateContext]) -> dict[str, Any]:
    """Write a debated leaf's answer from its sections, debate and review."""
    ctx = get_context(runtime.context)
    cfg = resolve_config(ctx)
    node, agent = state["node"], f"summarizer-{state['node']}"
    sections = state["sections"]
    labels = section_labels(sections)
    messages = [
        SystemMessage(
            SUMMARIZER_SYSTEM.format(example_id=example_id(sections), max_words=cfg.max_words)
        ),
        HumanMessage(
            SUMMARIZER_USER.format(
                main_block=_main_block(state["question"], state["main_question"]),
                question=state["question"],
                sections=render_sections(sections, cfg.section_max_chars, list(labels)),
                transcript=render_moves(state["moves"]),
                critique=state.get("critique") or NO_ANSWER,
            )
        ),
    ]
    llm = ctx.agent_model(agent, "summarizer")
    reply, usage = invoke_with_usage(llm, messages, agent=agent, role="summarizer")
    allowed = [s["id"] for s in sections]
    text = strip_tool_calls(text_of(reply), [TOOL_NAME]).strip() or NO_ANSWER
    check = labelled_check(text, labels)
    if cfg.cite_repair and sections and not check.verified:
        check, more = repair_citations(
            llm, messages, text, sections, agent=agent, role="summarizer"
        )
        usage = merge_usage(usage, more)
    move = make_move(
        node=node,
        agent=agent,
        role="summarizer",
        round_=state["rounds"],
        kind="summary",
        check=check,
    )
    result = _result(
        check,
        allowed,
        state["agreement"],
        agreement=state["agreement"],
        status="summarized",
        debated=True,
        rounds=state["rounds"],
        agent=agent,
    )
    return {"transcript": [move], "usage": usage, "results": {node: result}}


_SENTENCE_RE = re.compile(r"(?<=[.!?])\s+(?=\S)")


def own_answer(answer: str) -> str:
    """A sub-answer reduced to what it grounds: its verdict line and its cited sentences.

    An answer that cites nothing is kept whole (there is nothing to tell claims apart by).
    """
    lines = [line for line in (answer or "").splitlines() if line.strip()]
    if not lines:
        return NO_ANSWER
    head = lines[0] if verdict_line(lines[0]) is not None else None
    body = " ".join(lines[1:] if head is not None else lines)
    sentences = [s for s in _SENTENCE_RE.split(body) if s.strip()]
    cited = [s for s in sentences if extract_citations(s)]
    if not cited and not (head and extract_citations(head)):
        return "\n".join(lines)
    return "\n".join(part for part in (head, " ".join(cited)) if part)


def compose(children: list[dict[str, Any]]) -> str:
    """An internal node's answer: each sub-question with its own (grounded) answer.

    A child that is itself composed is kept as it is (its parts were reduced already).
    """
    return "\n\n".join(
        COMPOSED_PART.format(
            question=c["question"],
            answer=c["answer"] if c.get("status") == "aggregated" else own_answer(c["answer"]),
        )
        for c in children
    )


def aggregate(state: AggregateTask, runtime: Runtime[DebateContext]) -> dict[str, Any]:
    """Compose an internal node's answer from its children's own answers and citations."""
    node, agent = state["node"], f"aggregator-{state['node']}"
    allowed = list(dict.fromkeys(i for c in state["children"] for i in c["citations"]))
    check = verify_citations(compose(state["children"]), allowed)
    move = make_move(
        node=node, agent=agent, role="aggregator", round_=0, kind="aggregate", check=check
    )
    support = fmean(float(c["confidence"]) for c in state["children"]) if state["children"] else 0.0
    result = _result(
        check,
        allowed,
        support,
        agreement=None,
        status="aggregated",
        debated=False,
        rounds=0,
        agent=agent,
    )
    return {"transcript": [move], "results": {node: result}}
