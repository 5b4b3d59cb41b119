"""Reviewer and summarizer: the moves that turn a debated leaf's answers into its answer.

* The reviewer critiques a debated leaf and may ask for more evidence: a ``retrieve("...")``
  call at the end of its critique is run (at most ``review_searches`` per leaf), and what it
  finds is shown to the summarizer.
* The summarizer writes the leaf's answer from the sections (labelled ``S1``...), the debate
  and the review; citations are verified against the labels shown and mapped back to ids. A
  summary that cites no section even after the citation repair (a 0.5B model once looped on the
  moderator's instruction instead) is not kept as the answer when a worker's latest answer
  cites one: that answer is (:func:`grounded_answer`), and a note says so.

Internal nodes are composed in :mod:`disputatio.nodes.debate.aggregate`.
"""

from __future__ import annotations

from typing import Any, Literal

from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    HumanMessage,
    SystemMessage,
    convert_to_messages,
)
from langgraph.runtime import Runtime
from langgraph.types import Command, Send

from disputatio.models.accounting import invoke_with_usage
from disputatio.models.toolcalls import parse_tool_calls, strip_tool_calls
from disputatio.nodes.context import context_of
from disputatio.nodes.debate.common import (
    dedupe_sections,
    example_id,
    ids_to_labels,
    labelled_check,
    latest_answers,
    make_move,
    render_moves,
    render_sections,
    search,
    section_labels,
    text_of,
)
from disputatio.nodes.debate.context import (
    DebateConfig,
    DebateContext,
    resolve_config,
)
from disputatio.nodes.debate.workers import (
    answer_text,
    repair_citations,
    worker_slot,
    worker_start,
)
from disputatio.prompts.debate import (
    MORE_SECTIONS,
    NO_ANSWER,
    OTHER_ANSWER,
    REVIEWER_CONTINUE,
    REVIEWER_ROLE,
    REVIEWER_SEARCH,
    REVIEWER_TURN,
    SUMMARIZER_TURN,
)
from disputatio.state.debate import ReviewTask
from disputatio.state.reducers import merge_usage
from disputatio.tools.retrieval import TOOL_NAME
from disputatio.validators.citations import CitationCheck, verify_citations
from disputatio.validators.confidence import estimate_confidence


def node_result(
    check: CitationCheck, allowed: list[str], support: float, **extra: Any
) -> dict[str, Any]:
    """A node's result: its checked answer, citations and confidence (``extra`` added)."""
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


def host_slot(state: ReviewTask, cfg: DebateConfig) -> int | None:
    """The llama.cpp slot of the worker whose conversation the reviewer and summarizer extend."""
    host = state.get("host")
    return worker_slot(state["node"], host, cfg.workers, shared=cfg.shared_slot) if host else None


def review_messages(state: ReviewTask, cfg: DebateConfig) -> list[BaseMessage]:
    """The reviewer's prompt: the leaf's start, then the transcript and the instruction.

    Its system prompt starts with the rules and the host worker's sections, exactly as in every
    worker call of the leaf (:func:`~disputatio.nodes.debate.workers.worker_start`), so that on
    the slot that holds them the server reads only the rest; its role follows. The user message
    has the question, the leaf's sections the host was not shown (labels continuing its own),
    then every answer move of the leaf, its citations shown with those labels.

    With a host ``conversation`` (``continue_turns``) the prompt is that conversation, then one
    user turn: the sections the host was not shown, the other workers' latest answers (the
    host's own answers and the others' earlier ones are in its conversation already) and the
    moderator's instruction.
    """
    sections = state["sections"]
    shared = int(state.get("shared", 0))
    labels = section_labels(sections)
    more = _more_sections(sections[shared:], list(labels)[shared:], cfg)
    fill = {
        "more_sections": more,
        "example_id": example_id(sections),
        "max_words": cfg.max_words,
        "search": REVIEWER_SEARCH if cfg.review_searches > 0 else "",
    }
    conversation = state.get("conversation")
    if conversation:
        latest = latest_answers(state["moves"], state["node"])
        answers = "\n".join(
            OTHER_ANSWER.format(
                agent=agent, persona=m["role"], content=ids_to_labels(m["content"], labels)
            )
            for agent, m in latest.items()
            if agent != state.get("host")
        )
        turn = REVIEWER_CONTINUE.format(answers=answers, **fill)
        return [*convert_to_messages(conversation), HumanMessage(turn)]
    system, head = worker_start(
        state["question"], state["main_question"], sections[:shared], cfg, REVIEWER_ROLE
    )
    transcript = render_moves(
        [{**m, "content": ids_to_labels(m["content"], labels)} for m in state["moves"]]
    )
    turn = REVIEWER_TURN.format(transcript=transcript, **fill)
    return [SystemMessage(system), HumanMessage(f"{head}{turn}")]


def _more_sections(items: list[dict[str, Any]], labels: list[str], cfg: DebateConfig) -> str:
    if not items or not cfg.use_rag:
        return ""
    return MORE_SECTIONS.format(sections=render_sections(items, cfg.section_max_chars, labels))


def review(state: ReviewTask, runtime: Runtime[DebateContext]) -> Command[Literal["summarize"]]:
    """Critique a leaf's debate (fetching more evidence when it asks), then summarize it."""
    ctx = context_of(runtime, DebateContext)
    cfg = resolve_config(ctx)
    node, agent = state["node"], f"reviewer-{state['node']}"
    messages = review_messages(state, cfg)
    llm = ctx.agent_model(agent, "reviewer", slot=host_slot(state, cfg))
    reply, usage = invoke_with_usage(llm, messages, agent=agent, role="reviewer")
    raw = text_of(reply)
    queries = _review_queries(raw, cfg.review_searches) if cfg.review_searches > 0 else []
    found: list[dict[str, Any]] = []
    if queries:
        retriever = ctx.get_retriever()
        for query in queries:
            sections, _ = search(retriever, query, k=cfg.seed_k, agent=agent)
            found += sections
    found = dedupe_sections(found)
    said = strip_tool_calls(raw, list(_REVIEW_TOOLS)).strip() or NO_ANSWER
    check = labelled_check(said, section_labels(state["sections"]))
    move = make_move(
        node=node,
        agent=agent,
        role="reviewer",
        round_=state["rounds"],
        kind="review",
        check=check,
        queries=queries,
    )
    shown = {s["id"] for s in state["sections"]}
    added = [s for s in found if s["id"] not in shown]
    update: dict[str, Any] = {"transcript": [move], "usage": usage, "reviews": {node: check.text}}
    if found:
        update["sections"] = {s["id"]: s for s in found}
        update["retrieved"] = {agent: [s["id"] for s in found]}
    task: ReviewTask = {
        **state,
        "critique": check.text,
        "review_reply": said,
        "reviewed": len(state["sections"]),
        "sections": [*state["sections"], *added],
    }
    return Command(update=update, goto=Send("summarize", task))


def grounded_answer(
    moves: list[dict[str, Any]], node: str, allowed: list[str]
) -> tuple[str, CitationCheck] | None:
    """The leaf's latest worker answer citing the most sections: ``(agent, check)``, or None."""
    latest = list(latest_answers(moves, node).values())
    for move in sorted(latest, key=lambda m: -len(m["citations"])):
        check = verify_citations(move["content"], allowed)
        if check.verified:
            return move["agent"], check
    return None


def summary_messages(state: ReviewTask, cfg: DebateConfig) -> list[BaseMessage]:
    """The summarizer's prompt: the reviewer's prompt, its critique, then the request.

    On the host worker's slot that whole conversation is cached, so the server reads only the
    request and the sections the review's search found (labels continuing).
    """
    sections = state["sections"]
    reviewed = int(state.get("reviewed", len(sections)))
    before = review_messages({**state, "sections": sections[:reviewed]}, cfg)
    labels = list(section_labels(sections))
    turn = SUMMARIZER_TURN.format(
        form=cfg.forms["summary"],
        more_sections=_more_sections(sections[reviewed:], labels[reviewed:], cfg),
        example_id=example_id(sections),
        max_words=cfg.max_words,
    )
    said = state.get("review_reply") or state.get("critique") or NO_ANSWER
    return [*before, AIMessage(said), HumanMessage(turn)]


def summarize(state: ReviewTask, runtime: Runtime[DebateContext]) -> dict[str, Any]:
    """Write a debated leaf's answer from its sections, debate and review."""
    ctx = context_of(runtime, DebateContext)
    cfg = resolve_config(ctx)
    node, agent = state["node"], f"summarizer-{state['node']}"
    sections = state["sections"]
    labels = section_labels(sections)
    messages = summary_messages(state, cfg)
    llm = ctx.agent_model(agent, "summarizer", slot=host_slot(state, cfg))
    reply, usage = invoke_with_usage(llm, messages, agent=agent, role="summarizer")
    allowed = [s["id"] for s in sections]
    text = answer_text(text_of(reply))
    check = labelled_check(text, labels)
    if cfg.cite_repair and sections and not check.verified:
        check, more, _ = repair_citations(
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
    update: dict[str, Any] = {"transcript": [move], "usage": usage}
    kept = grounded_answer(state["moves"], node, allowed) if not check.verified else None
    if kept is not None:
        agent, check = kept
        update["notes"] = [f"{node}: the summary cited no section; {agent}'s answer was kept"]
    result = node_result(
        check,
        allowed,
        state["agreement"],
        agreement=state["agreement"],
        status="summarized",
        debated=True,
        rounds=state["rounds"],
        agent=agent,
    )
    return {**update, "results": {node: result}}
