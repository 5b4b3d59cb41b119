"""The hierarchical debate (and its ablations) as an ``eval run`` protocol: a thin adapter.

The graph answers in free text; the final answer is parsed into an option label (or a number
for GSM8K) with the same parsers as the baselines. Initial answers (for change-of-answer) are
the workers' first answers on the root question, which exist when the root is a leaf (flat
tree); a decomposed question has none at the root and is left out of that metric.
"""

from __future__ import annotations

import dataclasses
import string
import time
from collections.abc import Callable, Mapping
from typing import Any

from langchain_core.runnables import RunnableConfig

from disputatio.eval.question import Question
from disputatio.state.debate import ROOT


def is_first_root_answer(move: Mapping[str, Any]) -> bool:
    """Whether a transcript move is a worker's first answer to the question itself (root, round 0).

    These are the initial answers of change-of-answer and the report's first answers by role.
    """
    return move.get("node") == ROOT and move.get("kind") == "answer" and move.get("round") == 0


def _invoke(
    question: Question, ctx: Any, checkpointer: Any, thread_id: str
) -> tuple[dict[str, Any], bool]:
    """The graph's output on ``question`` and whether it continued an earlier process's run.

    With a checkpointer, a thread left unfinished by a killed process is resumed, and one that
    finished before its record was written is reused: either way this process's wall time is
    not the question's (``resumed``).
    """
    from disputatio.graphs.debate.graph import build_graph, graph

    options: dict[str, str] | None
    if isinstance(question.options, dict):
        options = question.options
    else:  # labels (yes/no): letters A, B... which parse back
        options = dict(zip(string.ascii_uppercase, question.options, strict=False)) or None
    inputs: dict[str, Any] | None = {"question": question.question, "options": options}
    if checkpointer is None:
        return dict(graph.invoke(inputs, context=ctx)), False
    from disputatio.storage.checkpoint import unfinished

    runnable = build_graph().compile(checkpointer=checkpointer, name="debate")
    config: RunnableConfig = {"configurable": {"thread_id": thread_id}}
    snapshot = runnable.get_state(config)
    if unfinished(snapshot):
        inputs = None  # resume the unfinished run on this thread
    elif snapshot.values.get("answer") is not None:
        return dict(snapshot.values), True  # finished earlier: reuse it
    out = runnable.invoke(inputs, config=config, context=ctx, durability="sync")
    return dict(out), inputs is None


def parse_graph_answer(text: str, question: Question) -> tuple[str | None, str, str | None]:
    """``(choice, status, pattern)`` of a debate answer: its ``Verdict:`` line decides.

    The graph's answers open with a verdict line (a decomposed multiple-choice question's
    composed answer too: the aggregator's choice heads it), and the lines below may hold the
    sub-questions' own verdicts, so the opening line is read first (pattern ``verdict``); an
    answer without one, or whose verdict names no option, is parsed whole, as the baselines'.
    The graph reads an option with the same rule when it decides whether to choose one
    (:func:`~disputatio.nodes.debate.agreement.parse_verdict_first`).
    """
    from disputatio.eval.baselines import parse_reply
    from disputatio.tools.answer_text import parse_verdict_first

    return parse_verdict_first(text, lambda reply: parse_reply(reply, question))


def record_of(
    question: Question, out: dict[str, Any], wall_ms: float, *, resumed: bool = False
) -> dict[str, Any]:
    """The harness record of one hierarchical-debate output.

    ``resumed``: the output continued an earlier, killed process's run, so ``wall_ms`` (this
    process's part) is not the question's wall time and the report leaves it out of latency.
    """
    text = str(out.get("answer") or "")
    choice, status, pattern = parse_graph_answer(text, question)
    transcript = list(out.get("transcript") or [])
    initial = [
        parse_graph_answer(str(m.get("content", "")), question)[0]
        for m in transcript
        if is_first_root_answer(m)
    ]
    tree = list(out.get("tree") or [])
    leaves = [n for n in tree if not n.get("children")]
    debated = [n for n in leaves if n.get("debated")]
    return {
        "question_id": question.id,
        "answer": choice,
        "status": status,
        "consensus_type": "hierarchical",
        "rounds_run": max((int(n.get("rounds") or 0) for n in leaves), default=0),
        "converged": all(bool(n.get("agreement")) for n in leaves) if leaves else None,
        "debated_leaves": len(debated),
        "initial_answers": initial,
        "answers_per_round": [],
        "usage": out.get("usage") or {},
        "wall_ms": wall_ms,
        "resumed": resumed,
        "log": {
            "question_id": question.id,
            "answer_text": text,
            "pattern": pattern,
            "citations": out.get("citations") or [],
            "confidence": out.get("confidence"),
            "tree": tree,
            "transcript": transcript,
            "validation": out.get("validation") or [],
            "notes": out.get("notes") or [],
        },
    }


def hierarchical(ablation: str | None = None) -> Callable[..., dict[str, Any]]:
    """A protocol running the hierarchical debate with ``ablation``.

    Args:
        ablation: ``flat``, ``no_debate``, ``no_rag`` or None for the full protocol.
    """

    def run(
        question: Question, env: Any, thread_id: str, _target: dict[str, Any] | None
    ) -> dict[str, Any]:
        from disputatio.graphs.debate import DebateContext

        ctx = env.hier if env.hier is not None else DebateContext()
        if ctx.final_verdict is None:  # every question here wants one short answer
            ctx = dataclasses.replace(ctx, final_verdict=True)
        if ablation is not None:
            ctx = dataclasses.replace(ctx, **{ablation: True})
        t0 = time.perf_counter()
        out, resumed = _invoke(question, ctx, env.checkpointer, thread_id)
        return record_of(question, out, (time.perf_counter() - t0) * 1000.0, resumed=resumed)

    return run
