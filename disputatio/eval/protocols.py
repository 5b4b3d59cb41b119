"""What a benchmark compares: the debates and single-agent baselines on the same models.

Every protocol takes a :class:`~disputatio.eval.datasets.Question` and its context (models,
retriever, settings) and returns one record (a JSON-ready dict): ``answer``, ``status``,
``consensus_type``, ``answers_per_round``, ``usage``, ``wall_ms`` and a ``log`` (the debate's
own seed-shaped log, or ``history``/``retrieval``/``timings`` for the baselines).

Protocols of ``disputatio eval run`` (:func:`eval_protocols`; thin adapters over the graphs'
public ``build_graph()``/inputs):

* ``cot``: one chain-of-thought call, no retrieval (temperature 0, MedRAG's CoT baseline);
* ``rag``: one retrieval with the question, one call (MedRAG-style, temperature 0);
* ``medrag`` / ``medrag_norag``: the ``medrag_debate`` graph with / without retrieval;
* ``sc`` / ``sc_rag``: self-consistency with as many calls as the matching debate ACTUALLY made
  on the same question, each sample's completion budget its mean completion tokens per call
  (both budgets are in the record); majority vote;
* ``hier``, ``hier_nodebate``, ``hier_flat``, ``hier_norag``: the hierarchical debate and its
  ablations (:mod:`disputatio.eval.protocols_hier`).

Numeric questions (GSM8K) are answered by the no-retrieval protocols ``cot``, ``sc``,
``medrag_norag`` (the two-agent debate in its numeric answer mode: a boxed number, agreement on
the same number; Du et al.'s anchor) and ``hier_norag``, each with a numeric prompt and
:func:`~disputatio.parsing.numbers.parse_number`; ``sc`` matches ``medrag_norag``'s actual
budget. The retrieval protocols take no numeric question: a medical knowledge base has nothing
to say about arithmetic. The older ``PROTOCOLS`` registry (``debate``, ``cot``, ``rag``, ``sc``,
``sc_rag`` at a static budget) serves ``disputatio bench``.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage
from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import BaseCheckpointSaver

from disputatio.eval.datasets import Question
from disputatio.eval.numeric import NUMERIC_SYSTEM, NUMERIC_USER, is_numeric
from disputatio.models.accounting import invoke_with_usage
from disputatio.nodes.medrag.context import MedragConfig, MedragContext, resolve
from disputatio.nodes.medrag.text import answer_hint, format_options, message_text, render_sections
from disputatio.nodes.medrag.turns import retrieve
from disputatio.parsing.answers import majority_vote, parse_answer
from disputatio.parsing.numbers import canonical_numbers, parse_number
from disputatio.prompts import medrag as P
from disputatio.state.reducers import merge_usage
from disputatio.state.retrieval import Section

Protocol = Callable[..., dict[str, Any]]
BASELINE_TEMPERATURE = 0.0


def debate_call_budget(cfg: MedragConfig) -> int:
    """Most model calls one debate can make: turns, summaries between rounds, one verifier."""
    agents = len(cfg.temperatures)
    summaries = agents * (cfg.rounds - 1) if cfg.use_summaries else 0
    return agents * cfg.rounds + summaries + (1 if cfg.use_verifier else 0)


def run_debate(
    question: Question,
    ctx: MedragContext,
    *,
    checkpointer: BaseCheckpointSaver[Any] | None = None,
    thread_id: str | None = None,
) -> dict[str, Any]:
    """Run the debate graph; with a checkpointer, a thread left unfinished is resumed."""
    from disputatio.graphs.medrag_debate.graph import build_graph, graph

    start: dict[str, Any] = {
        "question": question.question,
        "options": question.options,
        "question_id": question.id,
    }
    if is_numeric(question):  # no options: the debate answers a free number
        start["answer_mode"] = "numeric"
    inputs: dict[str, Any] | None = start
    config: RunnableConfig | None = None
    runnable = graph
    finished: dict[str, Any] | None = None
    if checkpointer is not None:
        runnable = build_graph().compile(checkpointer=checkpointer, name="medrag_debate")
        config = {"configurable": {"thread_id": thread_id or f"medrag:{question.id}"}}
        snapshot = runnable.get_state(config)
        if snapshot.next:
            inputs = None  # resume the unfinished run on this thread
        elif snapshot.values.get("log"):
            finished = dict(snapshot.values)  # this thread already finished: reuse it
    t0 = time.perf_counter()
    if finished is not None:
        out = finished
    else:
        out = runnable.invoke(
            inputs,
            config=config,
            context=ctx,
            durability="sync" if checkpointer is not None else None,
        )
    log = out.get("log", {})
    wall_ms = (
        float(log.get("timings", {}).get("total_ms", 0.0))
        if finished is not None
        else (time.perf_counter() - t0) * 1000.0
    )
    verdict = out.get("verdict") or {}
    return {
        "question_id": question.id,
        "answer": out.get("answer"),
        "status": "OK" if out.get("answer") else "FAILED",
        "consensus_type": out.get("consensus_type"),
        "agreement_round": out.get("agreement_round"),
        "rounds_run": log.get("rounds_run", 1),
        "answers_per_round": log.get("answers_per_round", []),
        "verifier_status": verdict.get("status"),
        "usage": out.get("usage", {}),
        "wall_ms": wall_ms,
        "log": log,
    }


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


def _run_samples(
    question: Question,
    ctx: MedragContext,
    *,
    samples: int,
    temperatures: Sequence[float],
    with_retrieval: bool,
    parallel: int,
    max_tokens: int | None = None,
) -> dict[str, Any]:
    cfg = resolve(ctx)
    budget = max_tokens if max_tokens is not None else cfg.max_tokens
    t0 = time.perf_counter()
    sections: list[Section] | None = None
    retrieval: list[dict[str, Any]] = []
    if with_retrieval:
        sections, rlog = retrieve(ctx, cfg, question.question, [])
        retrieval.append({"agent": "baseline", "round": 1, **rlog})
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


def run_cot(question: Question, ctx: MedragContext, **_: Any) -> dict[str, Any]:
    """Single-agent chain of thought, no retrieval."""
    return _run_samples(
        question,
        ctx,
        samples=1,
        temperatures=[BASELINE_TEMPERATURE],
        with_retrieval=False,
        parallel=1,
    )


def run_rag(question: Question, ctx: MedragContext, **_: Any) -> dict[str, Any]:
    """Single-agent RAG: retrieve with the question, answer once."""
    return _run_samples(
        question,
        ctx,
        samples=1,
        temperatures=[BASELINE_TEMPERATURE],
        with_retrieval=True,
        parallel=1,
    )


def make_self_consistency(with_retrieval: bool, samples: int | None = None) -> Protocol:
    """Self-consistency at the debate's call budget (or ``samples`` samples)."""

    def run(question: Question, ctx: MedragContext, **_: Any) -> dict[str, Any]:
        cfg = resolve(ctx)
        return _run_samples(
            question,
            ctx,
            samples=samples or debate_call_budget(cfg),
            temperatures=cfg.temperatures,
            with_retrieval=with_retrieval,
            parallel=len(cfg.temperatures),
        )

    return run


PROTOCOLS: dict[str, Callable[[int | None], Protocol]] = {
    "debate": lambda _: run_debate,
    "cot": lambda _: run_cot,
    "rag": lambda _: run_rag,
    "sc": lambda n: make_self_consistency(False, n),
    "sc_rag": lambda n: make_self_consistency(True, n),
}


# --- protocols of `disputatio eval run` --------------------------------------------------------


@dataclass
class ProtocolEnv:
    """What every protocol of an evaluation run gets: the same models, retriever and settings.

    Attributes:
        medrag: Context of the baselines and the MedRAG-style debates.
        hier: Context of the hierarchical debate (same model, retriever and settings).
        checkpointer: Checkpointer of the debate graphs (resumes a question killed mid-debate).
    """

    medrag: MedragContext
    hier: Any = None
    checkpointer: BaseCheckpointSaver[Any] | None = None


@dataclass(frozen=True)
class ProtocolSpec:
    """One protocol of ``eval run``.

    Attributes:
        name: CLI name.
        description: One line for reports.
        run: ``(question, env, thread_id, target) -> record``; ``target`` is the record of the
            protocol named by ``matched_to`` on the same question (or None).
        retrieval: Whether it searches the corpus (not offered for numeric questions).
        numeric: Whether it can answer numeric questions (GSM8K).
        matched_to: Debate protocols whose actual calls and tokens this one matches, in order of
            preference (self-consistency).
    """

    name: str
    description: str
    run: Callable[[Question, ProtocolEnv, str, dict[str, Any] | None], dict[str, Any]]
    retrieval: bool
    numeric: bool = False
    matched_to: tuple[str, ...] = ()

    @property
    def answers_numbers(self) -> bool:
        """Whether it takes numeric questions: a numeric parser and no retrieval."""
        return self.numeric and not self.retrieval


def _totals(record: dict[str, Any] | None) -> tuple[int, int, int]:
    usage = (record or {}).get("usage") or {}
    calls = sum(int(u.get("calls", 0)) for u in usage.values())
    tokens_in = sum(int(u.get("input_tokens", 0)) for u in usage.values())
    tokens_out = sum(int(u.get("output_tokens", 0)) for u in usage.values())
    return calls, tokens_in, tokens_out


def run_matched_sc(
    question: Question, ctx: MedragContext, target: dict[str, Any] | None, *, with_retrieval: bool
) -> dict[str, Any]:
    """Self-consistency with the calls the target debate ACTUALLY made on this question.

    Each sample's completion budget is the debate's mean completion tokens per call (so the
    total completion tokens are about the debate's). Without a usable target (not run, or it
    failed before any call) the static budget of :func:`debate_call_budget` is used. The
    record's ``budget`` says which, with the target's and its own calls and tokens.
    """
    cfg = resolve(ctx)
    calls, t_in, t_out = _totals(target)
    matched = calls > 0
    samples = calls if matched else debate_call_budget(cfg)
    per_call = max(16, -(-t_out // calls)) if matched else cfg.max_tokens
    record = _run_samples(
        question,
        ctx,
        samples=samples,
        temperatures=cfg.temperatures,
        with_retrieval=with_retrieval,
        parallel=len(cfg.temperatures),
        max_tokens=per_call,
    )
    own_calls, own_in, own_out = _totals(record)
    record["budget"] = {
        "matched": matched,
        "target_calls": calls,
        "target_input_tokens": t_in,
        "target_output_tokens": t_out,
        "max_tokens_per_sample": per_call,
        "calls": own_calls,
        "input_tokens": own_in,
        "output_tokens": own_out,
    }
    return record


def _debate(use_retrieval: bool) -> Callable[..., dict[str, Any]]:
    def run(
        question: Question, env: ProtocolEnv, thread_id: str, _target: dict[str, Any] | None
    ) -> dict[str, Any]:
        ctx = dataclasses.replace(env.medrag, use_retrieval=use_retrieval)
        record = run_debate(question, ctx, checkpointer=env.checkpointer, thread_id=thread_id)
        first = (record.get("answers_per_round") or [{}])[0].get("answers", {})
        record["initial_answers"] = list(first.values())
        return record

    return run


def _baseline(with_retrieval: bool) -> Callable[..., dict[str, Any]]:
    def run(
        question: Question, env: ProtocolEnv, _thread: str, _target: dict[str, Any] | None
    ) -> dict[str, Any]:
        return (run_rag if with_retrieval else run_cot)(question, env.medrag)

    return run


def _sc(with_retrieval: bool) -> Callable[..., dict[str, Any]]:
    def run(
        question: Question, env: ProtocolEnv, _thread: str, target: dict[str, Any] | None
    ) -> dict[str, Any]:
        return run_matched_sc(question, env.medrag, target, with_retrieval=with_retrieval)

    return run


def eval_protocols() -> dict[str, ProtocolSpec]:
    """Every protocol ``eval run`` knows, by name (debates first: SC reads their records)."""
    from disputatio.eval.protocols_hier import hierarchical

    specs = [
        ProtocolSpec("medrag", "MedRAG-style 2-agent debate with retrieval", _debate(True), True),
        ProtocolSpec("medrag_norag", "2-agent debate, no retrieval", _debate(False), False, True),
        ProtocolSpec("hier", "hierarchical debate", hierarchical(), True),
        ProtocolSpec("hier_nodebate", "hierarchical, one worker", hierarchical("no_debate"), True),
        ProtocolSpec("hier_flat", "hierarchical, no decomposition", hierarchical("flat"), True),
        ProtocolSpec(
            "hier_norag", "hierarchical, no retrieval", hierarchical("no_rag"), False, True
        ),
        ProtocolSpec("cot", "single agent, chain of thought", _baseline(False), False, True),
        ProtocolSpec("rag", "single agent, MedRAG-style RAG", _baseline(True), True),
        ProtocolSpec(
            "sc",
            "self-consistency at the no-retrieval debate's actual budget",
            _sc(False),
            False,
            True,
            ("medrag_norag", "hier_norag"),
        ),
        ProtocolSpec(
            "sc_rag",
            "self-consistency with retrieval at the MedRAG debate's actual budget",
            _sc(True),
            True,
            False,
            ("medrag",),
        ),
    ]
    return {s.name: s for s in specs}
