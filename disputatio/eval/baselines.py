"""The single-agent baselines of the evaluation: CoT, RAG and self-consistency.

Each answers a :class:`~disputatio.eval.datasets.Question` with one call or several samples of
the same prompt (MedRAG's baseline prompts; the numeric prompt for GSM8K) and returns a record
in the shape of :mod:`disputatio.eval.protocols` (``log``: ``history``, ``retrieval``,
``timings``). Self-consistency is a majority vote over samples at the MedRAG debate's call
budget (:func:`debate_call_budget`) or a given number of samples.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage

from disputatio.eval.datasets import Question
from disputatio.eval.numeric import NUMERIC_SYSTEM, NUMERIC_USER, is_numeric
from disputatio.graphs.medrag_debate import MedragConfig, MedragContext, resolve
from disputatio.models.accounting import invoke_with_usage
from disputatio.parsing.answers import majority_vote, parse_answer
from disputatio.parsing.numbers import canonical_numbers, parse_number
from disputatio.prompts import medrag as P
from disputatio.state.reducers import merge_usage
from disputatio.state.retrieval import Section
from disputatio.tools.answer_text import answer_hint, format_options, message_text, render_sections
from disputatio.tools.turn_search import retrieve

Protocol = Callable[..., dict[str, Any]]
BASELINE_TEMPERATURE = 0.0


def debate_call_budget(cfg: MedragConfig) -> int:
    """Most model calls one debate can make: turns, summaries between rounds, one verifier."""
    agents = len(cfg.temperatures)
    summaries = agents * (cfg.rounds - 1) if cfg.use_summaries else 0
    return agents * cfg.rounds + summaries + (1 if cfg.use_verifier else 0)


def _baseline_messages(
    question: Question, sections: Sequence[Section] | None, cfg: MedragConfig
) -> list[BaseMessage]:
    if is_numeric(question):
        return [
            SystemMessage(NUMERIC_SYSTEM.format()),  # a template: {{42}} is one brace pair
            HumanMessage(NUMERIC_USER.format(question=question.question)),
        ]
    hint = answer_hint(question.options)
    system = SystemMessage(P.BASELINE_SYSTEM.format(answer_hint=hint))
    common = {
        "question": question.question,
        "options": format_options(question.options),
        "answer_hint": hint,
    }
    if sections is None:
        return [system, HumanMessage(P.BASELINE_COT.format(**common))]
    text = render_sections(sections, cfg.section_max_chars)
    return [system, HumanMessage(P.BASELINE_RAG.format(sections=text, **common))]


def parse_reply(text: str, question: Question) -> tuple[str | None, str, str | None]:
    """``(choice, status, pattern)`` of a reply: an option label, or a number (GSM8K)."""
    if is_numeric(question):
        number, rule = parse_number(text)
        return number, ("OK" if number is not None else "PARSE_FAILED"), rule
    parsed = parse_answer(text, question.options)
    return parsed.choice, parsed.status, parsed.pattern


def _sample(
    ctx: MedragContext,
    question: Question,
    messages: list[BaseMessage],
    agent: str,
    temperature: float,
    max_tokens: int | None,
) -> dict[str, Any]:
    llm = ctx.chat_model(agent, role="baseline", temperature=temperature, max_tokens=max_tokens)
    reply, usage = invoke_with_usage(llm, messages, agent=agent, role="baseline")
    text = message_text(reply)
    choice, status, pattern = parse_reply(text, question)
    return {
        "agent": agent,
        "role": "baseline",
        "round": 1,
        "temperature": temperature,
        "response": text,
        "choice": choice,
        "status": status,
        "pattern": pattern,
        "usage": usage[agent],
    }


def run_samples(
    question: Question,
    ctx: MedragContext,
    *,
    samples: int,
    temperatures: Sequence[float],
    with_retrieval: bool,
    parallel: int,
    max_tokens: int | None = None,
    sections: Sequence[Section] | None = None,
    messages: list[BaseMessage] | None = None,
) -> dict[str, Any]:
    """``samples`` answers to one prompt (with the question's sections if ``with_retrieval``).

    Returns the record: one sample's answer, or the majority vote of several (equal numbers
    vote together); ``max_tokens`` is each sample's completion budget (default the config's).
    ``sections``: evidence given instead of a search (the RAG prompt, no retrieval);
    ``messages``: a prompt of the caller's instead of the baseline prompts.
    """
    cfg = resolve(ctx)
    budget = max_tokens if max_tokens is not None else cfg.max_tokens
    t0 = time.perf_counter()
    retrieval: list[dict[str, Any]] = []
    if sections is None and with_retrieval:
        sections, rlog = retrieve(ctx, cfg, question.question, [])
        retrieval.append({"agent": "baseline", "round": 1, **rlog})
    if messages is None:
        messages = _baseline_messages(question, sections, cfg)
    names = ["baseline"] if samples == 1 else [f"sample{i + 1}" for i in range(samples)]
    temps = [temperatures[i % len(temperatures)] for i in range(samples)]
    with ThreadPoolExecutor(max_workers=max(1, min(parallel, samples))) as pool:
        history = list(
            pool.map(
                lambda i: _sample(ctx, question, messages, names[i], temps[i], budget),
                range(samples),
            )
        )
    usage: dict[str, dict[str, Any]] = {}
    for entry in history:
        usage = merge_usage(usage, {"baseline": entry["usage"]})
    valid = [h["choice"] for h in history if h["status"] == "OK"]
    if is_numeric(question):  # equal numbers vote together, as in the numeric debate
        valid = [v for v in canonical_numbers(valid) if v]
    answer = valid[0] if samples == 1 and valid else majority_vote(valid)
    wall_ms = (time.perf_counter() - t0) * 1000.0
    consensus = None if samples == 1 else ("majority_vote" if answer else "failed")
    return {
        "question_id": question.id,
        "answer": answer,
        "status": history[0]["status"] if samples == 1 else ("OK" if answer else "FAILED"),
        "consensus_type": consensus,
        "agreement_round": None,
        "rounds_run": 1,
        "answers_per_round": [],
        "usage": usage,
        "wall_ms": wall_ms,
        "log": {
            "question_id": question.id,
            "history": history,
            "retrieval": retrieval,
            "timings": {"steps": [], "total_ms": wall_ms},
        },
    }


def run_single(question: Question, ctx: MedragContext, *, with_retrieval: bool) -> dict[str, Any]:
    """One answer at temperature 0: RAG (retrieve with the question) or CoT (no retrieval)."""
    return run_samples(
        question,
        ctx,
        samples=1,
        temperatures=[BASELINE_TEMPERATURE],
        with_retrieval=with_retrieval,
        parallel=1,
    )


def run_cot(question: Question, ctx: MedragContext, **_: Any) -> dict[str, Any]:
    """Single-agent chain of thought, no retrieval."""
    return run_single(question, ctx, with_retrieval=False)


def run_rag(question: Question, ctx: MedragContext, **_: Any) -> dict[str, Any]:
    """Single-agent RAG: retrieve with the question, answer once."""
    return run_single(question, ctx, with_retrieval=True)


def make_self_consistency(with_retrieval: bool, samples: int | None = None) -> Protocol:
    """Self-consistency at the debate's call budget (or ``samples`` samples)."""

    def run(question: Question, ctx: MedragContext, **_: Any) -> dict[str, Any]:
        cfg = resolve(ctx)
        return run_samples(
            question,
            ctx,
            samples=samples or debate_call_budget(cfg),
            temperatures=cfg.temperatures,
            with_retrieval=with_retrieval,
            parallel=len(cfg.temperatures),
        )

    return run
