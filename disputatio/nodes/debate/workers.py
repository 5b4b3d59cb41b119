"""A worker's turn: seed retrieval, one optional tool round, an answer with verified citations.

The turn is robust to models that cannot call tools natively: the tool is bound with a text
fallback (:func:`disputatio.models.toolcalls.bind_tools_with_text_fallback`), so a call written
as text counts too. At most ``max_tool_calls`` calls of the first reply are run; the worker is
then asked to answer without tools. A first reply without a call is the answer.

Every search of the turn (the seed search and each call the model makes, its ``k`` clamped to
``tool_k``) is a run of the ``retrieve_corpus_sections`` tool the model is offered, through
:func:`~disputatio.nodes.debate.common.search`.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from typing import Any

from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    HumanMessage,
    SystemMessage,
    ToolCall,
    convert_to_messages,
    convert_to_openai_messages,
)
from langgraph.runtime import Runtime

from disputatio.models.accounting import invoke_with_usage
from disputatio.models.chat import configure_model
from disputatio.models.toolcalls import bind_tools_with_text_fallback, strip_tool_calls
from disputatio.nodes.citations import attribute_sentences, named_labels, place_citations
from disputatio.nodes.context import context_of
from disputatio.nodes.debate.agreement import lead_with_verdict
from disputatio.nodes.debate.common import (
    dedupe_sections,
    example_id,
    ids_to_labels,
    labelled_check,
    make_move,
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
from disputatio.prompts.debate import (
    ANSWER_NOW,
    ANSWER_NOW_NO_RAG,
    CITE_REPAIR,
    DEBATE_BLOCK,
    DEBATE_INSTRUCTION,
    DEBATE_TURN,
    MAIN_QUESTION_BLOCK,
    NO_ANSWER,
    OTHER_ANSWER,
    PERSONAS,
    ROLE_BLOCK,
    TOOL_OFFER,
    WORKER_HEAD,
    WORKER_SYSTEM,
    WORKER_SYSTEM_NO_RAG,
)
from disputatio.retrievers.base import CorpusRetriever
from disputatio.state.debate import WorkerTask
from disputatio.state.reducers import merge_usage
from disputatio.tools.retrieval import TOOL_NAME, make_retrieval_tool
from disputatio.validators.citations import CitationCheck

logger = logging.getLogger(__name__)


def worker_start(
    question: str,
    main_question: str,
    shown: Sequence[dict[str, Any]],
    cfg: DebateConfig,
    role: str,
) -> tuple[str, str]:
    """A leaf agent's system prompt and the start of its user message.

    The system prompt is the leaf's rules and sections (:data:`WORKER_SYSTEM`, the same for every
    worker of the leaf, its reviewer and its summarizer), then ``role``: on a llama.cpp slot that
    holds any of their prompts the server reads only what follows the sections. The user message
    starts with the question.
    """
    main_block = (
        MAIN_QUESTION_BLOCK.format(main_question=main_question) if main_question != question else ""
    )
    if cfg.use_rag:
        rules = WORKER_SYSTEM.format(
            form=cfg.forms["worker"],
            example_id=example_id(shown),
            max_words=cfg.max_words,
            sections=render_sections(shown, cfg.section_max_chars, list(section_labels(shown))),
        )
    else:
        rules = WORKER_SYSTEM_NO_RAG.format(form=cfg.forms["no_rag"], max_words=cfg.max_words)
    head = WORKER_HEAD.format(main_block=main_block, question=question)
    return rules + ROLE_BLOCK.format(role=role), head


def worker_messages(
    task: WorkerTask,
    shown: Sequence[dict[str, Any]],
    cfg: DebateConfig,
    *,
    offer_tool: bool,
    fresh: bool = False,
) -> list[BaseMessage]:
    """The prompt of one worker call (sections shown as ``S1``, ``S2``... in ``shown`` order).

    System: the leaf's rules and sections, then the worker's persona. User: the question, the
    debate so far and the instruction. A debate round whose task carries the worker's last
    conversation (``continue_turns``; ``shown`` being what that call showed) extends it
    instead, unless ``fresh``: one user turn with the other answers and the instruction.
    """
    labels = section_labels(shown)
    others = "\n".join(
        OTHER_ANSWER.format(**{**other, "content": ids_to_labels(other["content"], labels)})
        for other in task["others"]
    )
    instruction = DEBATE_INSTRUCTION.format(form=cfg.forms["debate"])
    if cfg.use_rag:
        now = TOOL_OFFER if offer_tool else ANSWER_NOW
        debate_instruction = f"{instruction}\n{now}"
    else:
        now = ANSWER_NOW_NO_RAG
        debate_instruction = instruction
    conversation = task.get("conversation")
    if conversation and not fresh and task["round"] > 0:
        turn = DEBATE_TURN.format(others=others, instruction=debate_instruction)
        return [*convert_to_messages(conversation), HumanMessage(turn)]
    persona = PERSONAS.get(task["persona"], task["persona"])
    system, head = worker_start(task["question"], task["main_question"], shown, cfg, persona)
    if task["round"] > 0:
        previous = ids_to_labels(task["previous"] or NO_ANSWER, labels)
        debate_block = DEBATE_BLOCK.format(previous=previous, others=others)
        return [SystemMessage(system), HumanMessage(f"{head}{debate_block}{debate_instruction}")]
    return [SystemMessage(system), HumanMessage(f"{head}{now}")]


def worker_slot(node: str, agent: str, workers: int, *, shared: bool = False) -> int | None:
    """The llama.cpp slot of a worker: fixed across its rounds, spread over leaves.

    Worker ``i`` of the ``n``-th leaf (``root``, ``1``, ``2.3``: the last number) gets slot
    ``(n - 1) * workers + i`` (taken modulo ``n_parallel`` by the model layer), so parallel
    workers of different leaves do not queue on one slot. With ``shared``, every worker of the
    ``n``-th leaf gets slot ``n - 1``: the server then runs them one after another there, and
    each reads only what its prompt adds to the leaf's question and sections.
    """
    tail = agent.rsplit("-", 1)[-1]
    if not tail.isdigit():
        return None
    last = node.rsplit(".", 1)[-1]
    ordinal = int(last) - 1 if last.isdigit() else 0
    return ordinal if shared else ordinal * workers + int(tail)


def answer_text(raw: str) -> str:
    """A worker's or summarizer's reply as its answer.

    Tool calls written as text are removed and its verdict line put first
    (:func:`~disputatio.nodes.debate.agreement.lead_with_verdict`); :data:`NO_ANSWER` when
    nothing is left.
    """
    return lead_with_verdict(strip_tool_calls(raw, [TOOL_NAME]).strip()) or NO_ANSWER


#: Completion budget of a citation repair: a few labels, not a second answer.
REPAIR_MAX_TOKENS = 24


def repair_citations(
    llm: Any,
    messages: list[BaseMessage],
    text: str,
    shown: Sequence[dict[str, Any]],
    *,
    agent: str,
    role: str,
) -> tuple[CitationCheck, dict[str, dict[str, Any]], list[BaseMessage]]:
    """Ask once which sections support an answer that cites none of the sections shown.

    The writer names labels only (at most :data:`REPAIR_MAX_TOKENS` tokens, on its cached
    conversation); its answer stays as written, and each section it named is cited at the
    sentence that shares the most words with it
    (:func:`~disputatio.nodes.citations.place_citations`; a named section the answer shares
    nothing with is not cited). When it names none that fits,
    each sentence evidently taken from one shown section gets that section
    (:func:`~disputatio.nodes.citations.attribute_sentences`), or the answer stays uncited.
    One extra call at most, only for an uncited answer.

    Returns:
        The check of the (repaired) answer, the call's usage, and its conversation: the
        messages it sent and the labels reply as written.
    """
    labels = section_labels(shown)
    retry = [*messages, AIMessage(text), HumanMessage(CITE_REPAIR)]
    asker = configure_model(llm, max_tokens=REPAIR_MAX_TOKENS)
    reply, usage = invoke_with_usage(asker, retry, agent=agent, role=role)
    named_reply = text_of(reply)
    conversation = [*retry, AIMessage(named_reply)]
    bodies = {str(s["id"]): str(s.get("text") or "") for s in shown}
    named = named_labels(named_reply, list(labels))
    placed, _ = place_citations(text, [(label, bodies[labels[label]]) for label in named])
    check = labelled_check(placed, labels)
    if check.verified:
        return check, usage, conversation
    original = labelled_check(text, labels)
    attributed, ids = attribute_sentences(original.text, list(bodies.items()))
    if ids:
        logger.info("%s: citations attributed by overlap to %s", agent, ids)
        return CitationCheck(attributed, ids, original.unverified), usage, conversation
    return original, usage, conversation


def _call_args(call: ToolCall, fallback: str, max_k: int) -> tuple[str, int]:
    """Query and k of a tool call, sanitised (k clamped to ``1..max_k``)."""
    args = call.get("args") or {}
    query = args.get("query") or next((v for v in args.values() if isinstance(v, str)), "")
    try:
        k = int(args.get("k", max_k))
    except (TypeError, ValueError):
        k = max_k
    return (str(query).strip() or fallback), min(max(k, 1), max_k)


def _tool_round(
    task: WorkerTask,
    cfg: DebateConfig,
    retriever: CorpusRetriever,
    llm: Any,
    messages: list[BaseMessage],
) -> tuple[list[ToolCall], AIMessage, dict[str, dict[str, Any]]]:
    """Ask with the tool bound; return the (bounded) calls, the reply and its usage."""
    tool = make_retrieval_tool(retriever, default_k=cfg.tool_k)
    runnable = bind_tools_with_text_fallback(llm, [tool])
    reply, usage = invoke_with_usage(runnable, messages, agent=task["agent"], role=task["persona"])
    calls = [c for c in reply.tool_calls if c.get("name") == TOOL_NAME][: cfg.max_tool_calls]
    return calls, reply, usage


def worker_turn(state: WorkerTask, runtime: Runtime[DebateContext]) -> dict[str, Any]:
    """Run one worker turn on one leaf (sent with ``Send``, one task per worker and round)."""
    ctx = context_of(runtime, DebateContext)
    cfg = resolve_config(ctx)
    agent, persona = state["agent"], state["persona"]
    new: list[dict[str, Any]] = []
    queries: list[str] = []
    retriever = ctx.get_retriever() if cfg.use_rag else None
    if retriever is not None and state["round"] == 0:
        found, _ = search(retriever, state["question"], k=cfg.seed_k, agent=agent)
        new += found
        queries.append(state["question"])
    shown = dedupe_sections([*state["sections"], *new])
    llm = ctx.agent_model(
        agent,
        persona,
        group="worker",
        temperature=state["temperature"],
        slot=worker_slot(state["node"], agent, cfg.workers, shared=cfg.shared_slot),
    )
    offer_tool = (
        retriever is not None
        and cfg.max_tool_calls > 0
        and (state["round"] == 0 or cfg.debate_tools)
    )
    messages = worker_messages(state, shown, cfg, offer_tool=offer_tool)
    if retriever is not None and offer_tool:
        calls, reply, usage = _tool_round(state, cfg, retriever, llm, messages)
        if calls:
            for call in calls:
                query, k = _call_args(call, state["question"], cfg.tool_k)
                found, _ = search(retriever, query, k=k, agent=agent)
                new += found
                queries.append(query)
            shown = dedupe_sections([*state["sections"], *new])
            # new sections belong in the system prompt: the conversation starts over
            messages = worker_messages(state, shown, cfg, offer_tool=False, fresh=True)
            reply, more = invoke_with_usage(llm, messages, agent=agent, role=persona)
            usage = merge_usage(usage, more)
    else:
        reply, usage = invoke_with_usage(llm, messages, agent=agent, role=persona)
    raw = text_of(reply)
    text = answer_text(raw)
    conversation = [*messages, AIMessage(raw if raw.strip() else text)]
    check = labelled_check(text, section_labels(shown))
    if cfg.cite_repair and cfg.use_rag and shown and not check.verified:
        check, more, conversation = repair_citations(
            llm, messages, text, shown, agent=agent, role=persona
        )
        usage = merge_usage(usage, more)
    move = make_move(
        node=state["node"],
        agent=agent,
        role=persona,
        round_=state["round"],
        kind="answer",
        check=check,
        queries=queries,
    )
    fresh = dedupe_sections(new)
    update: dict[str, Any] = {
        "transcript": [move],
        "usage": usage,
        "sections": {s["id"]: s for s in fresh},
        "retrieved": {agent: [s["id"] for s in fresh]},
    }
    if cfg.continue_turns:
        kept = convert_to_openai_messages(conversation)
        update["conversations"] = {agent: {"messages": kept, "done": time.time()}}
    return update
