"""The retrieval funnel, stage by stage, over any storage backend.

plan → channels (lexical ‖ semantic ‖ graph ‖ any added one) → fusion (convex or weighted RRF) →
child→parent expansion (best child + a small share of the rest) → rerank → guard → trim. The
channels are data (:mod:`disputatio.retrievers.channels`): ``FunnelConfig.channels`` maps each
name to its query, depth and weight, and nothing below knows a channel by name. The stages are
plain functions so the ``rag`` graph can run each as a node, while :func:`run_funnel` composes
them for the retrievers (channels in threads there, each under a deadline:
:mod:`disputatio.retrievers.funnel_channels`). A failing or late channel is logged, dropped
and recorded in the trace; the others go on.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from langchain_core.embeddings import Embeddings

from disputatio.models.rerank import Reranker
from disputatio.retrievers.base import RetrievalFilters
from disputatio.retrievers.channels import (
    BUILTIN_CHANNELS,
    ChannelKnobValues,
    ChannelSpec,
    configured,
)

# the channel runners live in funnel_channels; the rag graph, the eval and the API import them
# from here
from disputatio.retrievers.funnel_channels import ChannelDeadlineError as ChannelDeadlineError
from disputatio.retrievers.funnel_channels import run_channel as run_channel
from disputatio.retrievers.funnel_channels import (
    run_channel_with_deadline as run_channel_with_deadline,
)
from disputatio.retrievers.funnel_channels import run_channels
from disputatio.retrievers.fusion import (
    aggregate_parents,
    alpha_trim,
    convex_fusion,
    trimmed,
    weighted_rrf,
)
from disputatio.retrievers.plan import QueryPlan, deterministic_plan
from disputatio.retrievers.relevance import query_vector, rerank_sections
from disputatio.settings import Settings
from disputatio.state.retrieval import RetrievalResult, RetrievalTrace, Section

logger = logging.getLogger(__name__)

#: Names of the built-in channels, in fusion order.
CHANNELS = tuple(BUILTIN_CHANNELS)


class FunnelBackend(Protocol):
    """Storage a funnel searches (Postgres or in-process).

    ``lexical``, ``semantic`` and ``graph`` are the queries of the built-in channels; a channel
    added to a funnel brings its own query (a method of the backends that support it).
    """

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
    """Knobs of one funnel run (see :class:`disputatio.settings.RetrievalSettings`).

    ``channels`` is the one place a channel's depth and weight live (:attr:`weights` reads the
    weights back); :meth:`tuned` changes some of them, ``dataclasses.replace(cfg, channels=...)``
    swaps the channels.

    Attributes:
        k_final: Sections kept after the trim.
        fusion: ``convex`` or ``rrf``.
        rrf_k: RRF constant.
        graph_hops: Relation hops of the graph channel.
        parent_rest_share: A parent's share of its other children's scores.
        threshold: Refusal threshold on the best rerank score.
        trim_alpha: Uncalibrated trim: keep sections scoring at least ``alpha · s_max``.
        calibrated_threshold: Calibrated (conformal) trim threshold, when there is one.
        deep_trim_alpha: A search asking for more than ``k_final`` sections also gets, after
            the trimmed list, the sections scoring at least ``deep_trim_alpha · s_max``
            (None: the trim alone, at every depth; at most ``trim_alpha`` is used). Not used
            once calibrated. Such a search (with the deep trim of its case not None) asks for
            a ranking and is not refused below ``threshold``, as dense search never is; its
            ``best_score`` says so. The answerer's search is.
        calibrated_deep_trim_alpha: With ``calibrated_threshold``, a search asking for more
            than ``k_final`` sections also gets, after the sections at or above it, those
            scoring at least ``calibrated_deep_trim_alpha · s_max`` on the same calibrated
            scores (0: the rest of its reranked list; None: the calibrated list alone). A
            search at ``k_final`` (the answerer's) keeps the calibrated list alone.
        relevance_platt: Platt parameters of the stored-vector relevance.
        rerank_platt: Platt parameters of a model reranker's scores.
        rerank_candidates: Sections reranked at most (a search asking for more raises it to
            its ``k``).
        children_per_parent: Matched children of a section the reranker scores.
        channel_timeout_s: Deadline of each channel (None: none).
        channels: Name → :class:`~disputatio.retrievers.channels.ChannelSpec`, in fusion order.
    """

    k_final: int = 8
    fusion: str = "convex"
    rrf_k: int = 60
    graph_hops: int = 1
    parent_rest_share: float = 0.1
    threshold: float = 0.25
    trim_alpha: float = 0.5
    calibrated_threshold: float | None = None
    deep_trim_alpha: float | None = 0.1
    calibrated_deep_trim_alpha: float | None = 0.0
    relevance_platt: tuple[float, float] | None = (12.0, -6.0)
    rerank_platt: tuple[float, float] | None = None
    rerank_candidates: int = 24
    children_per_parent: int = 2
    channel_timeout_s: float | None = 5.0
    channels: Mapping[str, ChannelSpec] = field(default_factory=lambda: dict(BUILTIN_CHANNELS))

    @property
    def active_channels(self) -> list[str]:
        """The channels that run: those with a fusion weight above 0, in fusion order."""
        return [name for name, spec in self.channels.items() if spec.weight > 0]

    @property
    def weights(self) -> dict[str, float]:
        """Each channel's fusion weight (read from ``channels``)."""
        return {name: spec.weight for name, spec in self.channels.items()}

    def tuned(
        self,
        *,
        k: Mapping[str, int] | None = None,
        weights: Mapping[str, float] | None = None,
    ) -> FunnelConfig:
        """A copy with some channels' depth and/or fusion weight changed.

        Args:
            k: Channel name → candidates it returns.
            weights: Channel name → fusion weight (0: the channel is off).

        Raises:
            ConfigError: If a name is not one of ``channels``.
        """
        k, weights = k or {}, weights or {}
        knobs = {
            name: ChannelKnobValues(k=k.get(name), weight=weights.get(name))
            for name in {*k, *weights}
        }
        return replace(self, channels=configured(self.channels, knobs, "FunnelConfig.tuned"))

    @classmethod
    def from_settings(
        cls,
        settings: Settings,
        *,
        channels: Mapping[str, ChannelSpec] | None = None,
        **overrides: Any,
    ) -> FunnelConfig:
        """Build from settings, with keyword overrides.

        Args:
            settings: Settings; ``retrieval.channels`` sets each channel's ``k`` and weight.
            channels: The funnel's channels (default: the built-in ones).
            **overrides: Field values that win over the settings.

        Raises:
            ConfigError: If ``retrieval.channels`` names a channel the funnel does not have.
        """
        r = settings.retrieval
        values: dict[str, Any] = {
            "channels": configured(BUILTIN_CHANNELS if channels is None else channels, r.channels),
            "k_final": r.k_final,
            "fusion": r.fusion,
            "rrf_k": r.rrf_k,
            "graph_hops": r.graph_hops,
            "parent_rest_share": r.parent_rest_share,
            "threshold": r.rerank_threshold,
            "trim_alpha": r.trim_alpha,
            "deep_trim_alpha": r.deep_trim_alpha,
            "calibrated_deep_trim_alpha": r.calibrated_deep_trim_alpha,
            "relevance_platt": (r.relevance_platt_a, r.relevance_platt_b),
            "rerank_candidates": max(3 * r.k_final, 24),
            "channel_timeout_s": r.channel_timeout_s,
        }
        values.update(overrides)
        return cls(**values)


def fuse(
    channel_hits: Mapping[str, Sequence[tuple[str, float]]], cfg: FunnelConfig
) -> list[tuple[str, float]]:
    """Fuse the channels' child rankings (``cfg.fusion``: ``convex`` or ``rrf``)."""
    weights = cfg.weights
    hits = {name: list(h) for name, h in channel_hits.items() if weights.get(name, 1.0) > 0}
    if cfg.fusion == "convex":
        return convex_fusion(hits, weights)
    rankings = {name: [cid for cid, _ in h] for name, h in hits.items()}
    return weighted_rrf(rankings, weights, cfg.rrf_k)


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


def for_k(cfg: FunnelConfig, k: int | None) -> FunnelConfig:
    """``cfg`` for a search asking for up to ``k`` sections: at least ``k`` candidates reranked."""
    if k is not None and k > cfg.rerank_candidates:
        return replace(cfg, rerank_candidates=k)
    return cfg


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
    cfg = for_k(cfg, k)
    with _timed(trace, "plan"):
        plan = planner(query)
    if any(cfg.channels[name].embeds_query for name in cfg.active_channels):
        # embed before the channels: a cold model load must not count against the deadline
        with _timed(trace, "embed"):
            query_vector(embeddings, plan.semantic_query)
    hits = run_channels(query, backend, plan, embeddings, filters, cfg, trace)
    with _timed(trace, "fuse"):
        sections = fuse_and_expand(backend, hits, cfg)
    with _timed(trace, "rerank"):
        sections = rerank_sections(backend, reranker, query, sections, cfg, embeddings, trace)
    best = max((s.score for s in sections), default=0.0)
    trace.scores["rerank"] = best
    calibrated = cfg.calibrated_threshold is not None
    deep = cfg.calibrated_deep_trim_alpha if calibrated else cfg.deep_trim_alpha
    # a search deeper than the answerer's asks for a ranking: it is not refused (the answerer's
    # search is), as dense search never is; best_score < threshold tells the caller
    ranking = (k or cfg.k_final) > cfg.k_final and deep is not None
    if best < threshold and not ranking:
        return RetrievalResult(
            query=query, refused=True, best_score=best, threshold=threshold, trace=trace
        )
    cut = trim_threshold(sections, cfg)
    scores = [s.score for s in sections]
    low = None  # a search deeper than the answerer's also gets what the trim cut, down to low
    if ranking and deep is not None:
        # on the trim's own scores (calibrated ones after calibrate); uncalibrated, at most α
        low = alpha_trim(scores, deep if calibrated else min(deep, cfg.trim_alpha))
        trace.extra["deep_trim_threshold"] = low
    kept = [sections[i] for i in trimmed(scores, cut, low)]
    kept = located(backend, kept[: k or cfg.k_final])
    trace.trimmed = len(sections) - len(kept)
    trace.extra["trim_threshold"] = cut
    return RetrievalResult(
        query=query, sections=kept, best_score=best, threshold=threshold, trace=trace
    )


def located(backend: FunnelBackend, sections: Sequence[Section]) -> list[Section]:
    """``sections`` with ``spans``: where their matched children sit in their text, best first.

    A child is a slice of its document, as its parent is, so its text is found in the
    parent's (without the heading line its stored text starts with); one that is not (a table
    row given its header) is left out. Without the children's texts (the backend failed) the
    sections are returned as they are: a prompt then shows a long section's head, as it did
    before spans.
    """
    try:
        texts = backend.child_texts([c for s in sections for c in s.child_ids])
    except Exception as exc:  # spans only place an excerpt: the search stands without them
        logger.warning("child texts unavailable (%s); sections without spans", exc)
        return list(sections)
    out = []
    for section in sections:
        spans = []
        for cid in section.child_ids:
            span = _span_in(section.text, texts.get(cid) or "")
            if span is not None:
                spans.append(span)
        out.append(section.model_copy(update={"spans": spans}))
    return out


def _span_in(text: str, child: str) -> tuple[int, int] | None:
    """Where ``child`` (as stored: maybe its heading line, then its text) sits in ``text``."""
    for piece in (child, child.partition("\n")[2]):
        start = text.find(piece) if piece.strip() else -1
        if start >= 0:
            return start, start + len(piece)
    return None


@contextmanager
def _timed(trace: RetrievalTrace, stage: str) -> Iterator[None]:
    t0 = time.perf_counter()
    yield
    trace.timings_ms[stage] = (time.perf_counter() - t0) * 1000
