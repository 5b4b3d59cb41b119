"""Funnel stages as nodes: plan → channels (Send) → fuse → rerank → guard → trim."""

from __future__ import annotations

import time
from typing import Any, Literal

from langgraph.runtime import Runtime
from langgraph.types import Send

from disputatio.nodes.context import context_of
from disputatio.nodes.rag.context import RagContext
from disputatio.retrievers.funnel import (
    for_k,
    fuse_and_expand,
    run_channel_with_deadline,
    trim_threshold,
)
from disputatio.retrievers.plan import QueryPlan
from disputatio.retrievers.relevance import query_vector, rerank_sections
from disputatio.state.claims import Claim
from disputatio.state.rag import RagState
from disputatio.state.retrieval import NO_SUITABLE_CONTEXT, NOTHING_IN_SCOPE, Section
from disputatio.validators.claims import NOT_FOUND_ANSWER


def plan(state: RagState, runtime: Runtime[RagContext]) -> dict[str, Any]:
    """Plan keywords, the semantic query and graph seeds; embed the semantic query."""
    t0 = time.perf_counter()
    funnel = context_of(runtime, RagContext).funnel()
    planned = funnel.plan(state["question"])
    t1 = time.perf_counter()
    # embed here, once: the semantic channel and the rerank stage reuse the vector, and a cold
    # model load does not count against the semantic channel's deadline
    query_vector(funnel.embeddings, planned.semantic_query)
    return {
        "plan": planned.model_dump(),
        "timings_ms": {
            "plan": (t1 - t0) * 1000,
            "embed": (time.perf_counter() - t1) * 1000,
        },
    }


def fan_out(state: RagState, runtime: Runtime[RagContext]) -> list[Send]:
    """One branch per channel with a fusion weight above 0."""
    return [
        Send("channel", {**state, "hits": {}, "plan": {**state["plan"], "_channel": c}})
        for c in context_of(runtime, RagContext).funnel().config.active_channels
    ]


def channel(state: RagState, runtime: Runtime[RagContext]) -> dict[str, Any]:
    """Run one channel under its deadline; a failure or a miss is recorded, the funnel goes on."""
    ctx = context_of(runtime, RagContext)
    funnel = ctx.funnel()
    name = state["plan"]["_channel"]
    query_plan = QueryPlan.model_validate(
        {k: v for k, v in state["plan"].items() if k != "_channel"}
    )
    filters = ctx.retrieval_filters(state)
    t0 = time.perf_counter()
    try:
        hits = run_channel_with_deadline(
            name, funnel.backend, query_plan, funnel.embeddings, filters, funnel.config
        )
    except Exception as exc:  # recorded, not raised: the other channels still count
        return {
            "failed_channels": {name: f"{type(exc).__name__}: {exc}".splitlines()[0]},
            "timings_ms": {name: (time.perf_counter() - t0) * 1000},
        }
    return {
        "hits": {name: [[cid, score] for cid, score in hits]},
        "timings_ms": {name: (time.perf_counter() - t0) * 1000},
    }


def fuse(state: RagState, runtime: Runtime[RagContext]) -> dict[str, Any]:
    """Weighted RRF and child → parent expansion."""
    funnel = context_of(runtime, RagContext).funnel()
    t0 = time.perf_counter()
    hits = {
        name: [(c, float(s)) for c, s in pairs] for name, pairs in state.get("hits", {}).items()
    }
    sections = fuse_and_expand(funnel.backend, hits, for_k(funnel.config, state.get("k")))
    return {
        "candidates": [s.model_dump() for s in sections],
        "timings_ms": {"fuse": (time.perf_counter() - t0) * 1000},
    }


def rerank(state: RagState, runtime: Runtime[RagContext]) -> dict[str, Any]:
    """Rerank the candidate sections."""
    funnel = context_of(runtime, RagContext).funnel()
    t0 = time.perf_counter()
    sections = [Section.model_validate(s) for s in state.get("candidates", [])]
    ranked = rerank_sections(
        funnel.backend,
        funnel.reranker,
        state["question"],
        sections,
        for_k(funnel.config, state.get("k")),  # a search asking for k reranks at least k
        funnel.embeddings,
    )
    return {
        "candidates": [s.model_dump() for s in ranked],
        "best_score": max((s.score for s in ranked), default=0.0),
        "timings_ms": {"rerank": (time.perf_counter() - t0) * 1000},
    }


def route_guard(state: RagState, runtime: Runtime[RagContext]) -> Literal["trim", "refuse"]:
    """Refuse when the best rerank score is below the threshold."""
    threshold = state.get("threshold")
    if threshold is None:
        threshold = context_of(runtime, RagContext).funnel().config.threshold
    return "trim" if state.get("best_score", 0.0) >= threshold else "refuse"


def refuse(state: RagState, runtime: Runtime[RagContext]) -> dict[str, Any]:
    """Answer NO_SUITABLE_CONTEXT without calling any model.

    A search whose channels all ran and found no candidate at all had nothing in scope to
    search (an empty tenant, a collection or tag no document has): the refusal says so, where
    a low score says only that nothing was relevant enough.
    """
    best = state.get("best_score", 0.0)
    empty = not state.get("candidates") and not state.get("failed_channels")
    low = f"no section scored above the refusal threshold (best {best:.2f})"
    why = NOTHING_IN_SCOPE if empty else low
    return {
        "refused": True,
        "sections": [],
        "citations": [],
        "invalid_citations": [],
        "answer": f"{NO_SUITABLE_CONTEXT} ({why if empty else f'best score {best:.2f}'})",
        "claims": [
            Claim(text=NOT_FOUND_ANSWER, verdict="not_found", reason=why).model_dump(mode="json")
        ],
        "grounded": True,
        "not_found": True,
    }


def trim(state: RagState, runtime: Runtime[RagContext]) -> dict[str, Any]:
    """Drop low-conformity sections, keep the best ``k``."""
    funnel = context_of(runtime, RagContext).funnel()
    sections = [Section.model_validate(s) for s in state.get("candidates", [])]
    cut = trim_threshold(sections, funnel.config)
    k = state.get("k") or funnel.config.k_final
    kept = [s for s in sections if s.score >= cut][:k]
    return {"refused": False, "sections": [s.model_dump() for s in kept]}


def route_answer(state: RagState, runtime: Runtime[RagContext]) -> Literal["answer", "__end__"]:
    """Skip the answerer when the context says retrieval only."""
    return "answer" if context_of(runtime, RagContext).answer else "__end__"
