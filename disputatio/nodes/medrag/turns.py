r"""Agent turns and round summaries of the MedRAG-style debate (one ``Send`` branch each).

An agent's turn (the seed's protocol):

1. the agent writes its own search call, ``retrieve("query")`` (parsed with the text tool-call
   parser; when it wrote none, the question is searched; the query used is logged);
2. the corpus is searched; a retriever error does not fail the question: the agent answers
   without evidence, and the turn and the run's notes say so;
3. the agent answers in at most 2 sentences, citing ``[S1]``... and ending with ``\\boxed{X}``;
   the reply is cleaned (repeated patterns removed), capped, parsed, and its citations are
   verified against the sections it was shown. An empty reply is an ``ERROR``.

In numeric mode (``answer_mode="numeric"``, GSM8K-style) the agent solves the problem in a few
steps and ends with ``\\boxed{N}``; the reply is parsed as a number (see
:mod:`disputatio.nodes.medrag.answers`), and without retrieval it is shown no documents block.

Each call extends the agent's own conversation (see :mod:`disputatio.nodes.medrag.text`), on
the agent's own llama.cpp slot, so the server reuses the cached prefix. Each agent's model
comes from ``ctx.chat_model(agent, role="debater")`` and each summariser's from
``ctx.chat_model(f"{agent}_summarizer", role="summarizer")``, with the temperature, stop
sequences and repetition penalty applied to objects as well as to model strings.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langgraph.config import get_stream_writer
from langgraph.runtime import Runtime

from disputatio.models.accounting import invoke_with_usage
from disputatio.models.local import slot_context
from disputatio.nodes.citations import resolve_labels, short_labels
from disputatio.nodes.context import context_of
from disputatio.nodes.medrag.answers import is_numeric, parse_reply
from disputatio.nodes.medrag.context import MedragConfig, MedragContext, resolve
from disputatio.nodes.medrag.text import (
    agent_prefix,
    clean_response,
    documents_block,
    peers_block,
    render_labelled,
    section_chars,
)
from disputatio.prompts import medrag as P
from disputatio.state.medrag import AgentTurnInput, SummarizeInput, Summary, Turn
from disputatio.state.retrieval import Section
from disputatio.tools.answer_text import (
    answer_hint,
    clean_text,
    format_options,
    message_text,
    stopped_at_limit,
    truncate,
)
from disputatio.tools.turn_search import parse_query, retrieve

logger = logging.getLogger(__name__)

#: Characters per token assumed when summaries are switched off (the reply is truncated).
CHARS_PER_TOKEN = 4


def summarizer_name(agent: str) -> str:
    """Model and accounting name of the summariser of ``agent``'s turns."""
    return f"{agent}_summarizer"


def history_entry(turn: Mapping[str, Any]) -> dict[str, Any]:
    """What :func:`conversation` needs of one earlier turn."""
    return {
        "round": turn.get("round"),
        "peers": turn.get("peers_text", ""),
        "query_call": turn.get("query_call", ""),
        "documents": turn.get("documents", P.NO_DOCUMENTS),
        "response": turn.get("response", ""),
    }


def conversation(
    question: str, options: Any, history: Sequence[Mapping[str, Any]], *, numeric: bool = False
) -> list[BaseMessage]:
    """An agent's conversation so far: the shared prefix, then each earlier turn.

    The last message is an empty user message that the caller fills (see ``_with_user``).
    """
    messages = agent_prefix(question, options, numeric=numeric)
    for turn in history:
        block = documents_block(turn["documents"], options, numeric=numeric)
        if turn.get("peers"):
            messages = _with_user(messages, turn["peers"])
        if turn.get("query_call"):
            messages = _with_user(messages, P.QUERY_INSTRUCTION)
            messages.append(AIMessage(turn["query_call"]))
            messages.append(HumanMessage(block))
        else:
            messages = _with_user(messages, block)
        messages.append(AIMessage(turn.get("response") or "(no answer)"))
        messages.append(HumanMessage(""))  # filled by the next call's instruction
    return messages


def _with_user(messages: list[BaseMessage], text: str) -> list[BaseMessage]:
    """``messages`` with ``text`` appended to (or as) the last user message."""
    out = list(messages)
    last = out[-1]
    if isinstance(last, HumanMessage):
        joined = f"{last.content}\n\n{text}" if str(last.content).strip() else text
        out[-1] = HumanMessage(joined)
    else:
        out.append(HumanMessage(text))
    return out


def _slot_tokens(ctx: MedragContext, agent: str) -> int | None:
    """Tokens one llama.cpp slot holds when ``agent`` runs on the local server, else None."""
    if not ctx.is_local_model(agent, "debater"):
        return None
    return slot_context(ctx.get_settings())


class _QueryStep(NamedTuple):
    """What the agent's own search call gave: the conversation so far and the query."""

    messages: list[BaseMessage]
    call: str
    query: str | None
    source: str | None
    seconds: float
    usage: dict[str, dict[str, Any]]


def _query_step(
    ctx: MedragContext,
    cfg: MedragConfig,
    agent: str,
    common: dict[str, Any],
    messages: list[BaseMessage],
    question: str,
) -> _QueryStep:
    """Ask the agent for its ``retrieve("query")`` call (when it writes its own queries)."""
    if not (cfg.use_retrieval and cfg.agent_query):
        return _QueryStep(messages, "", None, None, 0.0, {})
    llm = ctx.chat_model(agent, max_tokens=cfg.query_max_tokens, **common)
    messages = _with_user(messages, P.QUERY_INSTRUCTION)
    t_query = time.perf_counter()
    reply, usage = invoke_with_usage(llm, messages, agent=agent, role="debater")
    seconds = time.perf_counter() - t_query
    call = truncate(clean_text(message_text(reply)), 300)
    parsed = parse_query(call)
    query = parsed or question
    messages = [*messages, AIMessage(call or f'retrieve("{query}")')]
    return _QueryStep(messages, call, query, "agent" if parsed else "question", seconds, usage)


def _shown_chars(
    ctx: MedragContext, cfg: MedragConfig, agent: str, question: str, options: Any
) -> int:
    """Characters of each section the agent is shown (what its slot holds for every round)."""
    return section_chars(
        k=cfg.k,
        wanted=cfg.section_max_chars or 10_000,
        slot_tokens=_slot_tokens(ctx, agent),
        rounds=cfg.rounds,
        answer_tokens=cfg.max_tokens or 256,
        query_tokens=cfg.query_max_tokens if cfg.agent_query else 0,
        summary_tokens=cfg.summary_max_tokens,
        agents=len(cfg.agents),
        question_chars=len(question) + len(format_options(options)),
    )


def agent_turn(state: AgentTurnInput, runtime: Runtime[MedragContext]) -> dict[str, Any]:
    """One agent writes its search call, retrieves, and answers in one round."""
    ctx = context_of(runtime, MedragContext)
    cfg = resolve(ctx)
    agent, round_ = state["agent"], state["round"]
    question, options = state["question"], state.get("options") or []
    numeric = is_numeric(state)
    peers = state.get("peer_summaries") or []
    writer = get_stream_writer()
    writer({"event": "turn_start", "agent": agent, "round": round_})
    t_start = time.perf_counter()
    temperature = cfg.temperature_of(agent)
    common: dict[str, Any] = {
        "role": "debater",
        "temperature": temperature,
        "stop": list(cfg.stop) or None,
        "repetition_penalty": cfg.repetition_penalty,
        "slot": cfg.slot_of(agent),
    }
    messages = conversation(question, options, state.get("history") or [], numeric=numeric)
    previous = state.get("previous_choice")
    peers_text = peers_block(peers, round_, previous, numeric=numeric) if peers else ""
    if peers_text:
        messages = _with_user(messages, peers_text)
    step = _query_step(ctx, cfg, agent, common, messages, question)
    t_retrieval = time.perf_counter()
    sections, rlog = retrieve(ctx, cfg, question, peers, query=step.query, query_source=step.source)
    retrieval_s = time.perf_counter() - t_retrieval
    labels = short_labels([s.id for s in sections])
    failed = bool(rlog.get("error"))
    # a numeric question without retrieval gets no documents block, only the instruction
    no_documents = numeric and not cfg.use_retrieval
    chars = _shown_chars(ctx, cfg, agent, question, options)
    documents = "" if no_documents else render_labelled(sections, chars, failed=failed)
    block = documents_block(documents, options, numeric=numeric)
    messages = step.messages
    messages = [*messages, HumanMessage(block)] if step.call else _with_user(messages, block)
    llm = ctx.chat_model(agent, max_tokens=cfg.max_tokens, **common)
    t_gen = time.perf_counter()
    reply, more = invoke_with_usage(llm, messages, agent=agent, role="debater")
    generation_s = step.seconds + time.perf_counter() - t_gen
    usage = step.usage
    for key, record in more.items():
        usage = {**usage, key: _add(usage.get(key), record)}
    raw_text = clean_text(message_text(reply))
    parsed = parse_reply(raw_text, options, numeric=numeric)
    capped = clean_response(raw_text, cfg.response_max_chars)
    text, cited, unverified = resolve_labels(capped, labels)
    turn = Turn(
        agent=agent,
        round=round_,
        temperature=temperature,
        peers_text=peers_text,
        query_call=step.call,
        documents=documents,
        labels=labels,
        response=text,
        citations=cited,
        unverified=unverified,
        choice=parsed.choice,
        status=parsed.status,
        pattern=parsed.pattern,
        raw=parsed.raw,
        retrieval_error=failed,
        retrieval_time=round(retrieval_s, 3),
        generation_time=round(generation_s, 3),
        retrieval=rlog,
        peers=[p["agent"] for p in peers],
        usage=usage,
        reason_ms=float(usage[agent]["latency_ms"]),
        cut=stopped_at_limit(reply),
    )
    if not parsed.ok:
        logger.info("%s round %d: answer %s (%s)", agent, round_, parsed.status, parsed.raw)
    ms = (time.perf_counter() - t_start) * 1000.0
    return _turn_update(turn, sections, ms)


def _turn_update(turn: Turn, sections: Sequence[Section], ms: float) -> dict[str, Any]:
    """Emit the ``turn`` event and return the state update of a finished turn."""
    agent, round_, rlog = turn["agent"], turn["round"], turn["retrieval"]
    get_stream_writer()(
        {
            "event": "turn",
            "agent": agent,
            "round": round_,
            "query": rlog.get("query"),
            "choice": turn["choice"],
            "status": turn["status"],
            "sections": rlog.get("ids", []),
        }
    )
    move = {
        "node": "root",
        "agent": agent,
        "role": "debater",
        "round": round_,
        "kind": "answer",
        "content": turn["response"],
        "citations": turn["citations"],
        "unverified": turn["unverified"],
        "queries": [rlog["query"]] if rlog.get("query") else [],
    }
    update: dict[str, Any] = {
        "turns": [turn],
        "usage": turn["usage"],
        "timings": [{"step": "agent_turn", "agent": agent, "round": round_, "ms": ms}],
        "transcript": [move],
        "sections": {s.id: s.model_dump(mode="json") for s in sections},
    }
    if turn["retrieval_error"]:
        update["notes"] = [
            f"{agent} round {round_}: retrieval failed ({rlog['error']}); answered without evidence"
        ]
    return update


def _add(left: dict[str, Any] | None, right: dict[str, Any]) -> dict[str, Any]:
    """Sum two usage records of one agent (calls, tokens, latency)."""
    if not left:
        return dict(right)
    out = dict(left)
    for key in ("calls", "input_tokens", "output_tokens", "latency_ms"):
        out[key] = left.get(key, 0) + right.get(key, 0)
    return out


def summarize(state: SummarizeInput, runtime: Runtime[MedragContext]) -> dict[str, Any]:
    """Summarise one agent's turn for the other agents' next round.

    The summary is asked at the end of the agent's own conversation (same llama.cpp slot), so
    the server only reads the new instruction.
    """
    ctx = context_of(runtime, MedragContext)
    cfg = resolve(ctx)
    agent, round_ = state["agent"], state["round"]
    t0 = time.perf_counter()
    usage: dict[str, dict[str, Any]] = {}
    if cfg.use_summaries:
        name = summarizer_name(agent)
        llm = ctx.chat_model(
            name,
            role="summarizer",
            temperature=cfg.summary_temperature,
            max_tokens=cfg.summary_max_tokens,
            stop=list(cfg.stop) or None,
            repetition_penalty=cfg.repetition_penalty,
            slot=cfg.slot_of(agent),
        )
        history = state.get("history") or []
        options = state.get("options") or []
        numeric = is_numeric(state)
        if history:
            messages = conversation(state["question"], options, history, numeric=numeric)
        else:  # a caller without the conversation: summarise the reply alone
            messages = [
                *agent_prefix(state["question"], options, numeric=numeric),
                AIMessage(clean_text(state["response"])),
                HumanMessage(""),
            ]
        max_words = max(10, int(cfg.summary_max_tokens * 0.7))
        instruction = (
            P.NUMERIC_SUMMARY_INSTRUCTION.format(max_words=max_words)
            if numeric
            else P.SUMMARY_INSTRUCTION.format(max_words=max_words, answer_hint=answer_hint(options))
        )
        messages = _with_user(messages, instruction)
        reply, usage = invoke_with_usage(llm, messages, agent=name, role="summarizer")
        text = clean_response(message_text(reply), cfg.response_max_chars)
    else:
        text = truncate(clean_text(state["response"]), cfg.summary_max_tokens * CHARS_PER_TOKEN)
    ms = (time.perf_counter() - t0) * 1000.0
    summary = Summary(
        agent=agent, round=round_, text=text, llm=cfg.use_summaries, usage=usage, ms=ms
    )
    get_stream_writer()({"event": "summary", "agent": agent, "round": round_, "chars": len(text)})
    move = {
        "node": "root",
        "agent": summarizer_name(agent),
        "role": "summarizer",
        "round": round_,
        "kind": "summary",
        "content": text,
        "citations": [],
        "unverified": [],
        "queries": [],
    }
    return {
        "summaries": [summary],
        "usage": usage,
        "timings": [{"step": "summarize", "agent": agent, "round": round_, "ms": ms}],
        "transcript": [move],
    }
