"""Any registered graph as an ``eval run`` protocol: a generic adapter over the graph registry.

A graph's registry entry names its eval protocols (``GraphSpec.eval_names``). The shipped
debates have their own adapters (:mod:`disputatio.eval.protocols` and
:mod:`~disputatio.eval.protocols_hier`: ablations, their answer formats); a name without one
runs through :func:`graph_protocol`:

* the input is the graph's input builder on ``{"question", "options"}`` (the question's id as
  the case id);
* the context is the graph's context class with the fields it shares with the run's
  :class:`~disputatio.graphs.context.AgentContext` (models, retriever, settings, tenant,
  collection) taken from ``env.medrag``;
* the answer is the output's ``answer``, parsed into an option label (or a number) as the
  baselines' replies are;
* with the run's checkpointer, a thread left unfinished is resumed and a finished one reused.

The adapter counts as a retrieval protocol (the graph may search the corpus): it is not offered
for numeric questions, nor on the oracle corpus for questions without their own context.
"""

from __future__ import annotations

import dataclasses
import time
from typing import Any

from langchain_core.runnables import RunnableConfig

from disputatio.eval.protocols import ProtocolEnv, ProtocolSpec
from disputatio.eval.question import Question
from disputatio.graphs.context import AgentContext
from disputatio.graphs.registry import GraphSpec


def graph_context(spec: GraphSpec, env: ProtocolEnv) -> Any:
    """The graph's context with the run's shared agent settings (None without a context)."""
    cls = spec.context_class()
    if cls is None or not dataclasses.is_dataclass(cls):
        return None
    names = {f.name for f in dataclasses.fields(cls)}
    shared = {
        f.name: getattr(env.medrag, f.name)
        for f in dataclasses.fields(AgentContext)
        if f.name in names
    }
    return cls(**shared)


def _invoke(
    spec: GraphSpec, question: Question, env: ProtocolEnv, thread_id: str
) -> tuple[dict[str, Any], bool]:
    """The graph's output on ``question`` and whether it continued an earlier run."""
    request = {"question": question.question, "options": question.options}
    inputs: dict[str, Any] | None = spec.graph_input(request, question.id)
    graph = spec.build().compile(checkpointer=env.checkpointer, name=spec.name)
    config: RunnableConfig | None = None
    if env.checkpointer is not None:
        from disputatio.storage.checkpoint import unfinished

        config = {"configurable": {"thread_id": thread_id}}
        snapshot = graph.get_state(config)
        if unfinished(snapshot):
            inputs = None  # resume the unfinished run on this thread
        elif snapshot.values:
            return dict(snapshot.values), True  # finished earlier: reuse it
    out = graph.invoke(
        inputs,
        config=config,
        context=graph_context(spec, env),
        durability="sync" if env.checkpointer is not None else None,
    )
    return dict(out), inputs is None


def graph_protocol(name: str, spec: GraphSpec) -> ProtocolSpec:
    """The ``eval run`` protocol ``name`` running the registered graph ``spec``."""

    def run(
        question: Question, env: ProtocolEnv, thread_id: str, _target: dict[str, Any] | None
    ) -> dict[str, Any]:
        from disputatio.eval.baselines import parse_reply

        t0 = time.perf_counter()
        out, resumed = _invoke(spec, question, env, thread_id)
        text = str(out.get("answer") or "")
        choice, status, pattern = parse_reply(text, question)
        return {
            "question_id": question.id,
            "answer": choice,
            "status": status,
            "consensus_type": spec.name,
            "rounds_run": 1,
            "answers_per_round": [],
            "usage": out.get("usage") or {},
            "wall_ms": (time.perf_counter() - t0) * 1000.0,
            "resumed": resumed,
            "log": {"question_id": question.id, "answer_text": text, "pattern": pattern},
        }

    description = spec.description or f"the {spec.name} graph"
    return ProtocolSpec(name, description, run, retrieval=True)


def graph_protocols(dedicated: set[str]) -> list[ProtocolSpec]:
    """Generic protocols for the registry's eval names that have no ``dedicated`` adapter."""
    from disputatio.graphs.registry import eval_graphs

    return [graph_protocol(n, s) for n, s in eval_graphs().items() if n not in dedicated]
