"""Assembly of the Tech Referee graph.

::

    START → plan ─┬─(questions)→ clarify (interrupt) → plan
                  ├─(error)────→ finalize
                  └─(Send ×N)──→ advocate ∥ → join_advocates ─┬─(error)→ finalize
                                                              └─(Send ×N)→ examine ∥
    examine → join_examinations ─┬─(error)→ finalize
                                 └────────→ referee → finalize → END

Model nodes carry a ``RetryPolicy`` (exponential backoff, retrying only transient errors; rate
limits ``rate_limit_retries`` times); once its attempts are spent a node records a typed error
(the seed's codes, with ``retryable``) and the run ends in ``finalize`` with the phases
completed so far. Search failures never end a run: they are listed in ``warnings``.
"""

from __future__ import annotations

from typing import Any

from langgraph.graph import END, START, StateGraph
from langgraph.types import RetryPolicy

from disputatio.nodes import referee as nodes
from disputatio.settings import get_settings
from disputatio.state.referee import RefereeInput, RefereeOutput, RefereeState


def build_graph(
    *,
    max_attempts: int | None = None,
    initial_interval: float = 1.0,
    max_interval: float = 30.0,
    rate_limit_retries: int | None = None,
) -> StateGraph[Any, Any, Any, Any]:
    """Return the uncompiled referee graph.

    Args:
        max_attempts: Attempts per model node after transient errors (default:
            ``referee.max_retries + 1``).
        initial_interval: Seconds before the first retry (doubled each retry, with jitter).
        max_interval: Longest wait between retries, in seconds.
        rate_limit_retries: Retries after a rate limit (default: ``referee.rate_limit_retries``),
            whatever ``max_attempts`` is.
    """
    settings = get_settings().referee
    attempts = max_attempts if max_attempts is not None else settings.max_retries + 1
    attempts = max(attempts, 1)
    rate = rate_limit_retries if rate_limit_retries is not None else settings.rate_limit_retries
    policy = RetryPolicy(
        max_attempts=max(attempts, rate + 1),
        initial_interval=initial_interval,
        backoff_factor=2.0,
        max_interval=max_interval,
        retry_on=nodes.is_retryable,
    )
    builder = StateGraph(
        RefereeState,
        context_schema=nodes.RefereeContext,
        input_schema=RefereeInput,
        output_schema=RefereeOutput,
    )
    builder.add_node("plan", nodes.make_plan_node(attempts, rate), retry_policy=policy)
    builder.add_node("clarify", nodes.clarify)
    builder.add_node("advocate", nodes.make_advocate_node(attempts, rate), retry_policy=policy)
    builder.add_node("join_advocates", nodes.join_advocates)
    builder.add_node("examine", nodes.make_examiner_node(attempts, rate), retry_policy=policy)
    builder.add_node("join_examinations", nodes.join_examinations)
    builder.add_node("referee", nodes.make_referee_node(attempts, rate), retry_policy=policy)
    builder.add_node("finalize", nodes.finalize)

    builder.add_edge(START, "plan")
    builder.add_conditional_edges(
        "plan", nodes.route_after_plan, ["clarify", "advocate", "finalize"]
    )
    builder.add_edge("clarify", "plan")
    builder.add_edge("advocate", "join_advocates")
    builder.add_conditional_edges(
        "join_advocates", nodes.route_after_advocates, ["examine", "finalize"]
    )
    builder.add_edge("examine", "join_examinations")
    builder.add_conditional_edges(
        "join_examinations", nodes.route_after_examinations, ["referee", "finalize"]
    )
    builder.add_edge("referee", "finalize")
    builder.add_edge("finalize", END)
    return builder


graph = build_graph().compile(name="referee")
