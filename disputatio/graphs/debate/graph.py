"""Assembly of the hierarchical debate graph.

::

    START → decompose → schedule ─┬─▶ worker_turn ×(leaves × workers) ─▶ schedule
                                  ├─▶ review ×(debated leaves) ─▶ summarize ─▶ schedule
                                  ├─▶ aggregate ×(ready internal nodes) ─▶ schedule
                                  ├─▶ choose (a flat root that named no option) ─▶ schedule
                                  └─▶ finalize → END

``schedule`` is the hub: it assesses agreement and sends the next phase (see
:mod:`disputatio.nodes.debate.schedule`). Run settings and ablations are the context
(:class:`~disputatio.nodes.debate.context.DebateContext`).
"""

from __future__ import annotations

from typing import Any

from langgraph.graph import END, START, StateGraph
from langgraph.types import RetryPolicy, default_retry_on

from disputatio.errors import DisputatioError, ModelError
from disputatio.nodes.debate.aggregate import aggregate, choose
from disputatio.nodes.debate.context import DebateContext
from disputatio.nodes.debate.finalize import finalize
from disputatio.nodes.debate.orchestrator import decompose
from disputatio.nodes.debate.review import review, summarize
from disputatio.nodes.debate.schedule import schedule
from disputatio.nodes.debate.workers import worker_turn
from disputatio.state.debate import DebateInput, DebateOutput, DebateState


def retry_on(exc: Exception) -> bool:
    """Retry transient failures; never a user error or a failed test assertion."""
    if isinstance(exc, DisputatioError):
        return isinstance(exc, ModelError)
    if isinstance(exc, AssertionError):
        return False
    return default_retry_on(exc)


def build_graph() -> StateGraph[Any, Any, Any, Any]:
    """Return the uncompiled hierarchical debate graph."""
    builder = StateGraph(
        DebateState,
        context_schema=DebateContext,
        input_schema=DebateInput,
        output_schema=DebateOutput,
    )
    retry = RetryPolicy(max_attempts=3, retry_on=retry_on)
    builder.add_node("decompose", decompose, retry_policy=retry)
    builder.add_node("schedule", schedule)
    builder.add_node("worker_turn", worker_turn, retry_policy=retry)
    builder.add_node("review", review, retry_policy=retry)
    builder.add_node("summarize", summarize, retry_policy=retry)
    builder.add_node("aggregate", aggregate, retry_policy=retry)
    builder.add_node("choose", choose, retry_policy=retry)
    builder.add_node("finalize", finalize)
    builder.add_edge(START, "decompose")
    builder.add_edge("decompose", "schedule")
    builder.add_edge("worker_turn", "schedule")
    builder.add_edge("summarize", "schedule")
    builder.add_edge("aggregate", "schedule")
    builder.add_edge("choose", "schedule")
    builder.add_edge("finalize", END)
    return builder


graph = build_graph().compile(name="debate")
