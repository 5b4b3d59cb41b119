"""What a benchmark compares: the debates and single-agent baselines on the same models.

Every protocol takes a :class:`~disputatio.eval.datasets.Question` and its context (models,
retriever, settings) and returns one record (a JSON-ready dict): ``answer``, ``status``,
``consensus_type``, ``answers_per_round``, ``usage``, ``wall_ms`` and a ``log`` (the debate's
own seed-shaped log, or ``history``/``retrieval``/``timings`` for the baselines).

Protocols of ``disputatio eval run`` (:func:`eval_protocols`; thin adapters over the graphs'
public ``build_graph()``/inputs; the single-agent baselines are in
:mod:`disputatio.eval.baselines`):

* ``cot``: one chain-of-thought call, no retrieval (temperature 0, MedRAG's CoT baseline);
* ``rag``: one retrieval with the question, one call (MedRAG-style, temperature 0);
* ``medrag`` / ``medrag_norag``: the ``medrag_debate`` graph with / without retrieval;
* ``sc`` / ``sc_rag``: self-consistency with as many calls as the matching debate ACTUALLY made
  on the same question, each sample's completion budget its mean completion tokens per call
  (both budgets are in the record); majority vote;
* ``hier``, ``hier_nodebate``, ``hier_flat``, ``hier_norag``: the hierarchical debate and its
  ablations (:mod:`disputatio.eval.protocols_hier`);
* any other eval protocol a graph's registry entry names (``GraphSpec.eval_names``): a generic
  adapter over that graph (:mod:`disputatio.eval.protocols_graph`); the graph registry also
  decides which of the debates above are offered;
* ``du_debate`` / ``sc_du`` (Du et al.'s GSM8K debate), ``rag_found`` / ``rag_read`` (evidence
  found without the leak / read), and the log-probability verdicts ``<s>_logprob``,
  ``<s>_calibrated``, ``<s>_calibrated_fit`` (:mod:`disputatio.eval.protocols_extra`).

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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from langchain_core.messages import BaseMessage
from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import BaseCheckpointSaver

from disputatio.errors import ConfigError
from disputatio.eval.baselines import (
    Protocol,
    debate_call_budget,
    make_self_consistency,
    run_cot,
    run_rag,
    run_samples,
    run_single,
)
from disputatio.eval.datasets import Question
from disputatio.eval.numeric import is_numeric
from disputatio.graphs.medrag_debate import MedragContext, resolve


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
        from disputatio.storage.checkpoint import unfinished

        runnable = build_graph().compile(checkpointer=checkpointer, name="medrag_debate")
        config = {"configurable": {"thread_id": thread_id or f"medrag:{question.id}"}}
        snapshot = runnable.get_state(config)
        if unfinished(snapshot):
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
        # continued a killed process's run: wall_ms is only this process's part
        "resumed": inputs is None,
        "log": log,
    }


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
        run_dir: The run's folder (set by the runner): where per-run parameters are kept
            (the calibrations of the log-probability verdicts).
        calibration_questions: ``dataset -> questions`` of its calibration split (default:
            :func:`~disputatio.eval.mirage.calibration_questions` for MIRAGE sets).
        cache: Per-run state of protocols (in memory).
    """

    medrag: MedragContext
    hier: Any = None
    checkpointer: BaseCheckpointSaver[Any] | None = None
    run_dir: Path | None = None
    calibration_questions: Callable[[str], Sequence[Question]] | None = None
    cache: dict[str, Any] = field(default_factory=dict)


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
            preference (self-consistency), or whose record it reads (``target``).
        needs_context: Answers only questions that ship their own context (evidence read).
        numeric_only: Answers only numeric questions (Du et al.'s GSM8K debate).
    """

    name: str
    description: str
    run: Callable[[Question, ProtocolEnv, str, dict[str, Any] | None], dict[str, Any]]
    retrieval: bool
    numeric: bool = False
    matched_to: tuple[str, ...] = ()
    needs_context: bool = False
    numeric_only: bool = False

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
    question: Question,
    ctx: MedragContext,
    target: dict[str, Any] | None,
    *,
    with_retrieval: bool,
    temperatures: Sequence[float] | None = None,
    messages: list[BaseMessage] | None = None,
    default_samples: int | None = None,
    parallel: int | None = None,
) -> dict[str, Any]:
    """Self-consistency with the calls the target debate ACTUALLY made on this question.

    Each sample's completion budget is the debate's mean completion tokens per call (so the
    total completion tokens are about the debate's). Without a usable target (not run, or it
    failed before any call) the static budget (``default_samples``, else
    :func:`debate_call_budget`) is used. The record's ``budget`` says which, with the target's
    and its own calls and tokens. ``temperatures`` (default: the debate agents'),
    ``messages`` (default: the baseline prompt) and ``parallel`` (samples in flight; default:
    one per temperature) are the samples'.
    """
    cfg = resolve(ctx)
    calls, t_in, t_out = _totals(target)
    matched = calls > 0
    samples = calls if matched else (default_samples or debate_call_budget(cfg))
    per_call = max(16, -(-t_out // calls)) if matched else cfg.max_tokens
    temps = list(temperatures) if temperatures is not None else list(cfg.temperatures)
    record = run_samples(
        question,
        ctx,
        samples=samples,
        temperatures=temps,
        with_retrieval=with_retrieval,
        parallel=parallel or len(temps),
        max_tokens=per_call,
        messages=messages,
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
        return run_single(question, env.medrag, with_retrieval=with_retrieval)

    return run


def _sc(with_retrieval: bool) -> Callable[..., dict[str, Any]]:
    def run(
        question: Question, env: ProtocolEnv, _thread: str, target: dict[str, Any] | None
    ) -> dict[str, Any]:
        return run_matched_sc(question, env.medrag, target, with_retrieval=with_retrieval)

    return run


def eval_protocols() -> dict[str, ProtocolSpec]:
    """Every protocol ``eval run`` knows, by name (debates first: SC reads their records).

    The protocols that run a graph are those the graph registry names
    (:func:`disputatio.graphs.registry.eval_graphs`): the shipped debates' own adapters
    (below) where the registry names them, and a generic adapter for any other
    (:mod:`disputatio.eval.protocols_graph`).
    """
    from disputatio.eval.protocols_graph import graph_protocols
    from disputatio.eval.protocols_hier import hierarchical
    from disputatio.graphs.registry import eval_graphs

    debates = [
        ProtocolSpec("medrag", "MedRAG-style 2-agent debate with retrieval", _debate(True), True),
        ProtocolSpec("medrag_norag", "2-agent debate, no retrieval", _debate(False), False, True),
        ProtocolSpec("hier", "hierarchical debate", hierarchical(), True),
        ProtocolSpec("hier_nodebate", "hierarchical, one worker", hierarchical("no_debate"), True),
        ProtocolSpec("hier_flat", "hierarchical, no decomposition", hierarchical("flat"), True),
        ProtocolSpec(
            "hier_norag", "hierarchical, no retrieval", hierarchical("no_rag"), False, True
        ),
    ]
    graphs = eval_graphs()
    debates = [s for s in debates if s.name in graphs]
    debates += graph_protocols({s.name for s in debates})
    specs = [
        *debates,
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
    from disputatio.eval.protocols_extra import extra_protocols

    every = [*specs, *extra_protocols()]
    taken = sorted({s.name for s in every if [t.name for t in every].count(s.name) > 1})
    if taken:  # a registered graph named an eval protocol that exists already
        raise ConfigError(f"eval protocol {', '.join(taken)} is defined twice")
    return {s.name: s for s in every}
