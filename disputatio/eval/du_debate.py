"""GSM8K as Du et al. (2023) ran it: 3 agents, 2 rounds, the majority of the last round.

Du et al., "Improving Factuality and Reasoning in Language Models through Multiagent Debate"
(``gsm/gen_gsm.py``): each agent answers the problem alone (round 1); in round 2 each one sees
the other agents' round-1 answers (``These are the solutions to the problem from other
agents: ...``) after its own conversation and answers again; the final answer is the most
frequent number among the agents' last answers. Prompts verbatim
(:mod:`disputatio.prompts.eval`); every call at :data:`DU_TEMPERATURE` (they sampled
``gpt-3.5-turbo-0301`` at the API's default temperature, 1) with the run's completion budget.
Numbers are read by :func:`~disputatio.parsing.numbers.parse_number` and equal numbers vote
together (:func:`~disputatio.parsing.numbers.canonical_numbers`); ties go to the number given
first (agent order).

Protocols: ``du_debate`` (3 × 2 = 6 calls a question) and ``sc_du``: self-consistency with as
many samples of Du's round-1 prompt, at the same temperature, as the debate actually made calls
on the question (6), each sample budgeted at the debate's mean completion tokens per call. The
record of ``du_debate`` also keeps the majority of round 1 (``round1_answer``: Du's
"multi-agent (majority)" without debate, from the same calls).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage

from disputatio.eval.question import Question
from disputatio.graphs.medrag_debate import MedragContext, resolve
from disputatio.models.accounting import invoke_with_usage
from disputatio.parsing.answers import majority_vote
from disputatio.parsing.numbers import canonical_numbers, parse_number
from disputatio.prompts import eval as P
from disputatio.state.reducers import merge_usage
from disputatio.tools.answer_text import message_text

#: Agents and rounds of Du et al.'s GSM8K runs.
DU_AGENTS = 3
DU_ROUNDS = 2
#: Sampling temperature of every call (the API default Du et al. ran at).
DU_TEMPERATURE = 1.0


def start_messages(question: str) -> list[BaseMessage]:
    """Round 1: the problem, in Du et al.'s words."""
    return [HumanMessage(P.DU_GSM_START.format(question=question))]


def debate_message(others: Sequence[str], question: str) -> HumanMessage:
    """A later round's user turn: the other agents' previous answers, then the request."""
    text = P.DU_GSM_DEBATE_PREFIX
    for other in others:
        text += P.DU_GSM_AGENT_SOLUTION.format(solution=other)
    return HumanMessage(text + P.DU_GSM_DEBATE_SUFFIX.format(question=question))


def final_answer(answers: Sequence[str | None]) -> str | None:
    """The most frequent number (equal numbers vote together; ties: first given)."""
    return majority_vote([a for a in canonical_numbers(list(answers)) if a])


def _turn(
    ctx: MedragContext, agent: str, slot: int, messages: list[BaseMessage], max_tokens: int | None
) -> dict[str, Any]:
    llm = ctx.chat_model(
        agent, role="debater", temperature=DU_TEMPERATURE, max_tokens=max_tokens, slot=slot
    )
    reply, usage = invoke_with_usage(llm, messages, agent=agent, role="debater")
    text = message_text(reply)
    number, rule = parse_number(text)
    return {
        "agent": agent,
        "role": "debater",
        "temperature": DU_TEMPERATURE,
        "response": text,
        "choice": number,
        "status": "OK" if number is not None else "PARSE_FAILED",
        "pattern": rule,
        "usage": usage[agent],
    }


def run_du_debate(
    question: Question, ctx: MedragContext, *, agents: int = DU_AGENTS, rounds: int = DU_ROUNDS
) -> dict[str, Any]:
    """Du et al.'s debate on one numeric question; the harness record.

    Every agent keeps its own conversation (its questions and answers); from round 2 on, its
    user turn holds the other agents' answers of the previous round. Agents of a round answer
    in parallel (each on its own llama.cpp slot for a ``local:`` model).
    """
    cfg = resolve(ctx)
    names = [f"agent{i + 1}" for i in range(agents)]
    conversations = [start_messages(question.question) for _ in names]
    history: list[dict[str, Any]] = []
    per_round: list[dict[str, Any]] = []
    t0 = time.perf_counter()
    with ThreadPoolExecutor(max_workers=agents) as pool:
        for r in range(1, rounds + 1):
            if r > 1:
                last = [str(conv[-1].content) for conv in conversations]
                for i, conv in enumerate(conversations):
                    others = [text for j, text in enumerate(last) if j != i]
                    conv.append(debate_message(others, question.question))
            turns = list(
                pool.map(
                    lambda i: _turn(ctx, names[i], i, list(conversations[i]), cfg.max_tokens),
                    range(agents),
                )
            )
            for i, turn in enumerate(turns):
                conversations[i].append(AIMessage(turn["response"]))
                history.append({**turn, "round": r})
            answers = canonical_numbers([t["choice"] for t in turns])
            per_round.append({"round": r, "answers": dict(zip(names, answers, strict=True))})
    wall_ms = (time.perf_counter() - t0) * 1000.0
    usage: dict[str, dict[str, Any]] = {}
    for entry in history:
        usage = merge_usage(usage, {entry["agent"]: entry["usage"]})
    last_answers = list(per_round[-1]["answers"].values())
    first_answers = list(per_round[0]["answers"].values())
    answer = final_answer(last_answers)
    agreed = [
        p["round"]
        for p in per_round
        if None not in p["answers"].values() and len(set(p["answers"].values())) == 1
    ]
    return {
        "question_id": question.id,
        "answer": answer,
        "status": "OK" if answer is not None else "FAILED",
        "consensus_type": "majority_vote" if answer is not None else "failed",
        "agreement_round": agreed[0] if agreed else None,
        "converged": bool(agreed) and agreed[-1] == rounds,
        "rounds_run": rounds,
        "answers_per_round": per_round,
        "initial_answers": first_answers,
        "round1_answer": final_answer(first_answers),
        "usage": usage,
        "wall_ms": wall_ms,
        "log": {
            "question_id": question.id,
            "history": history,
            "retrieval": [],
            "timings": {"steps": [], "total_ms": wall_ms},
        },
    }


def du_debate(
    question: Question, env: Any, _thread: str, _target: dict[str, Any] | None
) -> dict[str, Any]:
    """The ``du_debate`` protocol."""
    return run_du_debate(question, env.medrag)


def sc_du(
    question: Question, env: Any, _thread: str, target: dict[str, Any] | None
) -> dict[str, Any]:
    """The ``sc_du`` protocol: Du's round-1 prompt sampled as often as the debate called."""
    from disputatio.eval.protocols import run_matched_sc

    return run_matched_sc(
        question,
        env.medrag,
        target,
        with_retrieval=False,
        temperatures=[DU_TEMPERATURE],
        messages=start_messages(question.question),
        default_samples=DU_AGENTS * DU_ROUNDS,
        parallel=DU_AGENTS,
    )
