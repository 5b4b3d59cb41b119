"""The retrieval funnel, stage by stage, over any storage backend.

plan → lexical ‖ semantic ‖ graph → fusion (convex or weighted RRF) → child→parent expansion
(best child + a small share of the rest) → rerank → guard → trim. The stages are plain functions
so the ``rag`` graph can run each as a node, while :func:`run_funnel` composes them for the
retrievers (channels in threads there, each under a deadline). A failing or late channel is
logged, dropped and recorded in the trace; the others go on.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Protocol

from langchain_core.embeddings import Embeddings

from disputatio.errors import RetrievalError
from disputatio.models.rerank import Reranker
from disputatio.retrievers.base import RetrievalFilters
from disputatio.retrievers.fusion import (
    aggregate_parents,
    alpha_trim,
    convex_fusion,
    weighted_rrf,
)
from disputatio.retrievers.plan import QueryPlan, deterministic_plan
from disputatio.retrievers.relevance import query_vector, rerank_sections
from disputatio.settings import Settings
from disputatio.state.retrieval import RetrievalResult, RetrievalTrace, Section

logger = logging.getLogger(__name__)

CHANNELS = ("lexical", "semantic", "graph")


class ChannelDeadlineError(RetrievalError):
    """A channel did not answer within its deadline (it is dropped from the fusion)."""


class FunnelBackend(Protocol):
    """Storage a funnel searches (Postgres or in-process)."""

    def lexical(
        self, keywords: Sequence[str], filters: RetrievalFilters, k: int
    ) -> list[tuple[str, float]]:
        """Full-text search: ``(child_id, score)`` best first."""
        ...

    def semantic(
        self, vector: Sequence[float], filters: RetrievalFilters, k: int
    ) -> list[tuple[str, float]]:
        """Vector search: ``(child_id, score)`` best first."""
        ...

    def graph(
        self, seeds: Sequence[str], filters: RetrievalFilters, k: int, hops: int
    ) -> list[tuple[str, float]]:
        """Entity-graph search: ``(child_id, score)`` best first."""
        ...

    def parents_of(self, child_ids: Sequence[str]) -> dict[str, str]:
        """Child id → parent id."""
        ...

    def sections(self, parent_ids: Sequence[str]) -> dict[str, Section]:
        """Parent id → section (score unset)."""
        ...

    def child_texts(self, child_ids: Sequence[str]) -> dict[str, str]:
        """Child id → text."""
        ...

    def child_vectors(self, child_ids: Sequence[str]) -> dict[str, Sequence[float]]:
        """Child id → its stored embedding."""
        ...


@dataclass(frozen=True)
class FunnelConfig:
    """Knobs of one funnel run (see :class:`disputatio.settings.RetrievalSettings`)."""

    k_lexical: int = 100
    k_semantic: int = 100
    k_graph: int = 50
    k_final: int = 8
    fusion: str = "convex"
    rrf_k: int = 60
    weights: Mapping[str, float] = field(
        default_factory=lambda: {"graph": 0.0, "semantic": 0.55, "lexical": 0.45}
    )
    graph_hops: int = 1
    parent_rest_share: float = 0.1
    threshold: float = 0.25
    trim_alpha: float = 0.5
    calibrated_threshold: float | None = None
    relevance_platt: tuple[float, float] | None = (12.0, -6.0)
    rerank_platt: tuple[float, float] | None = None
    rerank_candidates: int = 24
    children_per_parent: int = 2
    channel_timeout_s: float | None = 5.0
    channels: tuple[str, ...] = CHANNELS

    @classmethod
    def from_settings(cls, settings: Settings, **overrides: Any) -> FunnelConfig:
        """Build from settings, with keyword overrides."""
        r = settings.retrieval
        values: dict[str, Any] = {
            "k_lexical": r.k_lexical,
            "k_semantic": r.k_semantic,
            "k_graph": r.k_graph,
            "k_final": r.k_final,
            "fusion": r.fusion,
            "rrf_k": r.rrf_k,
            "weights": {
                "graph": r.weight_graph,
                "semantic": r.weight_semantic,
                "lexical": r.weight_lexical,
            },
            "graph_hops": r.graph_hops,
            "parent_rest_share": r.parent_rest_share,
            "threshold": r.rerank_threshold,
            "trim_alpha": r.trim_alpha,
            "relevance_platt": (r.relevance_platt_a, r.relevance_platt_b),
            "rerank_candidates": max(3 * r.k_final, 24),
            "channel_timeout_s": r.channel_timeout_s,
        }
        values.update(overrides)
        return cls(**values)


def run_channel(
    name: str,
    backend: FunnelBackend,
    plan: QueryPlan,
    embeddings: Embeddings,
    filters: RetrievalFilters,
    cfg: FunnelConfig,
) -> list[tuple[str, float]]:
    """Run one channel of the funnel."""
    if name == "lexical":
        return backend.lexical(plan.keywords, filters, cfg.k_lexical)
    if name == "semantic":
        vector = query_vector(embeddings, plan.semantic_query)
        return backend.semantic(vector, filters, cfg.k_semantic)
    if name == "graph":
        return backend.graph(plan.graph_seeds, filters, cfg.k_graph, cfg.graph_hops)
    raise ValueError(f"unknown channel {name!r}")


def run_channel_with_deadline(
    name: str,
    backend: FunnelBackend,
    plan: QueryPlan,
    embeddings: Embeddings,
    filters: RetrievalFilters,
    cfg: FunnelConfig,
) -> list[tuple[str, float]]:
    """:func:`run_channel`, abandoned after ``cfg.channel_timeout_s``.

    Raises:
        ChannelDeadlineError: When the channel has not answered in time.
    """
    if cfg.channel_timeout_s is None:
        return run_channel(name, backend, plan, embeddings, filters, cfg)
    pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"channel-{name}")
    future = pool.submit(run_channel, name, backend, plan, embeddings, filters, cfg)
    try:
        done, _ = wait([future], timeout=cfg.channel_timeout_s)
    finally:
        pool.shutdown(wait=False, cancel_futures=True)
    if not done:
        raise ChannelDeadlineError(
            f"deadline: no answer within {cfg.channel_timeout_s * 1000:.0f} ms"
        )
    return future.result()


def fuse(
    channel_hits: Mapping[str, Sequence[tuple[str, float]]], cfg: FunnelConfig
) -> list[tuple[str, float]]:
    """Fuse the channels' child rankings (``cfg.fusion``: ``convex`` or ``rrf``)."""
    hits = {name: list(h) for name, h in channel_hits.items() if cfg.weights.get(name, 1.0) > 0}
    if cfg.fusion == "convex":
        return convex_fusion(hits, cfg.weights)
    rankings = {name: [cid for cid, _ in h] for name, h in hits.items()}
    return weighted_rrf(rankings, cfg.weights, cfg.rrf_k)


def fuse_and_expand(
    backend: FunnelBackend,
    channel_hits: Mapping[str, Sequence[tuple[str, float]]],
    cfg: FunnelConfig,
) -> list[Section]:
    """Fuse the channels, then child → parent sections ranked by their best child."""
    fused = fuse(channel_hits, cfg)
    parent_of = backend.parents_of([cid for cid, _ in fused])
    ranked = aggregate_parents(fused, parent_of, cfg.parent_rest_share)[: cfg.rerank_candidates]
    found = backend.sections([pid for pid, _, _ in ranked])
    by_child = {name: {cid for cid, _ in hits} for name, hits in channel_hits.items()}
    out = []
    for pid, score, children in ranked:
        if pid not in found:
            continue
        channels = sorted({n for n, ids in by_child.items() if any(c in ids for c in children)})
        out.append(
            found[pid].model_copy(
                update={"score": score, "child_ids": children, "channels": channels}
            )
        )
    return out


def trim_threshold(sections: Sequence[Section], cfg: FunnelConfig) -> float:
    """The calibrated threshold when there is one, else ``α · s_max``."""
    if cfg.calibrated_threshold is not None:
        return cfg.calibrated_threshold
    return alpha_trim([s.score for s in sections], cfg.trim_alpha)


def run_funnel(
    query: str,
    backend: FunnelBackend,
    embeddings: Embeddings,
    reranker: Reranker,
    cfg: FunnelConfig,
    filters: RetrievalFilters,
    *,
    k: int | None = None,
    threshold: float | None = None,
    planner: Callable[[str], QueryPlan] = deterministic_plan,
) -> RetrievalResult:
    """Run the whole funnel and return sections (or a refusal) with a trace."""
    trace = RetrievalTrace()
    threshold = cfg.threshold if threshold is None else threshold
    with _timed(trace, "plan"):
        plan = planner(query)
    if cfg.weights.get("semantic", 1.0) > 0 and "semantic" in cfg.channels:
        # embed before the channels: a cold model load must not count against the deadline
        with _timed(trace, "embed"):
            query_vector(embeddings, plan.semantic_query)
    hits = _channels(query, backend, plan, embeddings, filters, cfg, trace)
    with _timed(trace, "fuse"):
        sections = fuse_and_expand(backend, hits, cfg)
    with _timed(trace, "rerank"):
        sections = rerank_sections(backend, reranker, query, sections, cfg, embeddings, trace)
    best = max((s.score for s in sections), default=0.0)
    trace.scores["rerank"] = best
    if best < threshold:
        return RetrievalResult(
            query=query, refused=True, best_score=best, threshold=threshold, trace=trace
        )
    cut = trim_threshold(sections, cfg)
    kept = [s for s in sections if s.score >= cut][: k or cfg.k_final]
    trace.trimmed = len(sections) - len(kept)
    trace.extra["trim_threshold"] = cut
    return RetrievalResult(
        query=query, sections=kept, best_score=best, threshold=threshold, trace=trace
    )


def _channels(
    query: str,
    backend: FunnelBackend,
    plan: QueryPlan,
    embeddings: Embeddings,
    filters: RetrievalFilters,
    cfg: FunnelConfig,
    trace: RetrievalTrace,
) -> dict[str, list[tuple[str, float]]]:
    def timed(name: str) -> tuple[str, list[tuple[str, float]] | Exception, float]:
        # elapsed is taken here, in the worker: pool.map hands results back in channel order,
        # so timing at hand-back would charge a fast channel with a slower one's time
        t0 = time.perf_counter()
        try:
            got: list[tuple[str, float]] | Exception = run_channel(
                name, backend, plan, embeddings, filters, cfg
            )
        except Exception as exc:  # recorded in the trace; the funnel goes on without it
            got = exc
        return name, got, (time.perf_counter() - t0) * 1000

    hits: dict[str, list[tuple[str, float]]] = {}
    active = [c for c in cfg.channels if cfg.weights.get(c, 1.0) > 0]
    if not active:
        return hits
    pool = ThreadPoolExecutor(max_workers=len(active), thread_name_prefix="channel")
    futures: dict[Future[Any], str] = {pool.submit(timed, name): name for name in active}
    try:
        done, late = wait(futures, timeout=cfg.channel_timeout_s)
    finally:
        # never wait for a late channel: its statement_timeout ends it on the database side
        pool.shutdown(wait=False, cancel_futures=True)
    for future in late:
        name = futures[future]
        limit_ms = (cfg.channel_timeout_s or 0) * 1000
        logger.warning("channel %s missed its %.0f ms deadline for %r", name, limit_ms, query)
        trace.failed_channels[name] = f"deadline: no answer within {limit_ms:.0f} ms"
        trace.timings_ms[name] = limit_ms
    for future in done:
        name, got, elapsed_ms = future.result()
        trace.timings_ms[name] = elapsed_ms
        if isinstance(got, Exception):
            logger.warning("channel %s failed for %r: %s", name, query, got)
            trace.failed_channels[name] = f"{type(got).__name__}: {got}".splitlines()[0]
            continue
        hits[name] = got
        trace.channels[name] = len(got)
    trace.channels_used = [c for c in active if c in hits]
    # `done` is a set: hand the hits back in channel order, so fusion's tie order (first seen)
    # does not depend on which thread finished first
    return {c: hits[c] for c in trace.channels_used}


@contextmanager
def _timed(trace: RetrievalTrace, stage: str) -> Iterator[None]:
    t0 = time.perf_counter()
    yield
    trace.timings_ms[stage] = (time.perf_counter() - t0) * 1000
