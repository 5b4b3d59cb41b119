"""Labelled retrieval evaluation: every stage of the Postgres funnel, and plain peers beside it.

For each question the funnel's public stages run one after another (so each has its own time):
``plan`` → :func:`~disputatio.retrievers.funnel.run_channel` for each channel →
:func:`~disputatio.retrievers.funnel.fuse_and_expand` →
:func:`~disputatio.retrievers.funnel.rerank_sections`. Every ranking (child chunks for a
channel, parent sections after fusion and reranking) is mapped to the ids of the documents its
chunks come from (file names without extension), de-duplicated in order, and scored against the
question's relevant ids (:mod:`disputatio.eval.retrieval_metrics`).

The per-channel ``k`` and the fused candidate list are raised to at least ``depth`` (32) so
recall@32 is defined for every stage; everything else is the configured funnel. Latency: a
channel's row is its own time; ``fused`` is plan + the slowest channel + fusion (the funnel
runs channels in parallel); ``reranked`` adds reranking. Refusal follows the funnel's rule
(best rerank score below ``retrieval.rerank_threshold``), on the labelled questions and on
off-topic ones. Beside the stages, the public path: each question through the call users get,
``search(q, k=32)`` of the default funnel (:mod:`disputatio.eval.retrieval_public`).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import os
import platform
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from disputatio.errors import ConfigError
from disputatio.eval.retrieval_data import LabelledQuery, label_of
from disputatio.eval.retrieval_metrics import dedupe, ndcg_at, percentiles, quality
from disputatio.eval.retrieval_report import config_row
from disputatio.retrievers.base import RetrievalFilters
from disputatio.retrievers.funnel import (
    FunnelConfig,
    fuse_and_expand,
    rerank_sections,
    run_channel,
)
from disputatio.settings import Settings
from disputatio.state.retrieval import Section
from disputatio.storage.chunk_reads import child_documents, parent_documents
from disputatio.storage.document_reads import document_sources

#: Rows of the report, in order: the channels, the funnel after fusion and after reranking.
FUNNEL_STAGES = ("lexical", "semantic", "graph", "fused", "reranked")
PEERS = ("bm25s", "cosine", "bm25s+cosine RRF")
#: Callback after each question: ``(done, total, phase)``.
Tick = Callable[[int, int, str], None]


@dataclass(frozen=True)
class EvalOptions:
    """Knobs of one evaluation.

    Attributes:
        depth: Minimum per-channel k and fused candidates (recall@32 needs 32).
        rerank: Run the reranking stage.
        reranker: Reranker string (default: ``settings.models.reranker``).
        baselines: Compute the plain peers on the same texts.
        peer_cache: ``.npz`` cache of the peers' document vectors.
        public: Also run the public path, ``search(q, k=32)`` of the default funnel
            (:mod:`disputatio.eval.retrieval_public`).
    """

    depth: int = 32
    rerank: bool = True
    reranker: str | None = None
    baselines: bool = True
    peer_cache: Path | None = None
    public: bool = True


@dataclass
class _Rankings:
    ranks: dict[str, list[list[str]]]
    times: dict[str, list[float]]
    failures: dict[str, int]
    best: list[float]


class RetrievalEvaluation:
    """Runs labelled questions through the funnel's stages over one scope of the database.

    Args:
        settings: Settings naming the database and models.
        filters: Tenant and collections searched.
        options: Evaluation knobs.
    """

    def __init__(
        self, settings: Settings, filters: RetrievalFilters, options: EvalOptions | None = None
    ) -> None:
        from disputatio.models import get_embeddings, get_reranker
        from disputatio.models.rerank import NoReranker
        from disputatio.retrievers.postgres import PostgresFunnel

        self.settings = settings
        self.filters = filters
        self.options = options or EvalOptions()
        self.embeddings = get_embeddings(settings=settings)
        reranker = (
            get_reranker(self.options.reranker, settings=settings)
            if self.options.rerank
            else NoReranker()
        )
        self.funnel = PostgresFunnel(
            settings, default_filters=filters, embeddings=self.embeddings, reranker=reranker
        )
        self.config = deeper(self.funnel.config, self.options.depth)
        self.labels, self.texts = self._documents()
        if not self.labels:
            raise ConfigError(
                f"nothing ingested in tenant {filters.tenant!r}"
                + (f" collections {', '.join(filters.collections)}" if filters.collections else "")
            )

    def _documents(self) -> tuple[dict[str, str], dict[str, str]]:
        """Document uuid → label, and label → text, for the documents in scope."""
        with self.funnel.backend.pool.connection() as conn:
            rows = document_sources(conn, self.filters.tenant, self.filters.collections)
        labels = {doc_id: label_of(source) for doc_id, source, _ in rows}
        texts = {label_of(source): text for _, source, text in rows}
        return labels, texts

    def _child_labels(self, child_ids: Sequence[str]) -> dict[str, str]:
        if not child_ids:
            return {}
        with self.funnel.backend.pool.connection() as conn:
            documents = child_documents(conn, child_ids)
        return {child: self.labels.get(doc, "") for child, doc in documents.items()}

    def labels_of_sections(self, section_ids: Sequence[str]) -> dict[str, str]:
        """Parent section id → label of its document (ids not stored are left out)."""
        if not section_ids:
            return {}
        with self.funnel.backend.pool.connection() as conn:
            documents = parent_documents(conn, section_ids)
        return {s: self.labels[doc] for s, doc in documents.items() if doc in self.labels}

    def _section_labels(self, sections: Sequence[Section]) -> list[str]:
        return dedupe(self.labels.get(s.document_id) or label_of(s.source) for s in sections)

    def run_one(
        self, query: str
    ) -> tuple[dict[str, list[str]], dict[str, float], float, list[str]]:
        """One question through every stage.

        Returns:
            Rankings (document ids) per stage, milliseconds per stage, the best rerank score,
            and the channels that failed.
        """
        cfg, backend = self.config, self.funnel.backend
        times: dict[str, float] = {}
        t0 = time.perf_counter()
        plan = self.funnel.plan(query)
        times["plan"] = (time.perf_counter() - t0) * 1000
        hits: dict[str, list[tuple[str, float]]] = {}
        failed = []
        for name in cfg.channels:
            t0 = time.perf_counter()
            try:
                hits[name] = run_channel(name, backend, plan, self.embeddings, self.filters, cfg)
            except Exception:  # the funnel drops a failing channel; so does its evaluation
                failed.append(name)
            times[name] = (time.perf_counter() - t0) * 1000
        t0 = time.perf_counter()
        sections = fuse_and_expand(backend, hits, cfg)
        times["fuse"] = (time.perf_counter() - t0) * 1000
        t0 = time.perf_counter()
        reranked = rerank_sections(backend, self.funnel.reranker, query, sections, cfg)
        times["rerank"] = (time.perf_counter() - t0) * 1000
        slowest = max((times[n] for n in cfg.channels), default=0.0)
        times["fused"] = times["plan"] + slowest + times["fuse"]
        times["reranked"] = times["fused"] + times["rerank"]
        child_map = self._child_labels([c for h in hits.values() for c, _ in h])
        ranks = {
            name: dedupe(child_map[c] for c, _ in hits.get(name, []) if child_map.get(c))
            for name in cfg.channels
        }
        ranks["fused"] = self._section_labels(sections)
        ranks["reranked"] = self._section_labels(reranked)
        # the funnel's rule: the best score, not the first section's (local:hybrid at blend 0
        # orders by fusion, so the first is not always the best)
        best = max((s.score for s in reranked), default=0.0)
        return ranks, times, best, failed

    def run(self, queries: Sequence[str], tick: Tick | None = None, phase: str = "") -> _Rankings:
        """Every question through every stage."""
        out = _Rankings({}, {}, {}, [])
        for i, query in enumerate(queries):
            ranks, times, best, failed = self.run_one(query)
            for stage, ranking in ranks.items():
                out.ranks.setdefault(stage, []).append(ranking)
            for stage, ms in times.items():
                if stage not in failed:
                    out.times.setdefault(stage, []).append(ms)
            for name in failed:
                out.failures[name] = out.failures.get(name, 0) + 1
            out.best.append(best)
            if tick:
                tick(i + 1, len(queries), phase)
        return out


def evaluate(
    settings: Settings,
    filters: RetrievalFilters,
    queries: Sequence[LabelledQuery],
    *,
    options: EvalOptions | None = None,
    off_topic: Sequence[str] = (),
    tick: Tick | None = None,
    meta: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Evaluate the funnel (and the plain peers) on labelled ``queries``; return the results.

    Raises:
        ConfigError: If nothing is ingested in scope, or no relevant id names a stored document.
    """
    options = options or EvalOptions()
    if not queries:
        raise ConfigError("no questions to evaluate (check --split and --limit-questions)")
    load_start = os.getloadavg()[0]
    ev = RetrievalEvaluation(settings, filters, options)
    stored = set(ev.texts)
    relevant = [q.relevant & stored for q in queries]
    missing = sum(len(q.relevant - stored) for q in queries)
    if not any(relevant):
        raise ConfigError(
            f"no relevant id of the {len(queries)} questions names a document in tenant"
            f" {filters.tenant!r}; ids are file names without extension, e.g."
            f" {next(iter(sorted(stored)))!r}"
        )
    got = ev.run([q.query for q in queries], tick, "questions")
    stages = _stage_rows(got, relevant, options)
    steps = {stage: percentiles(got.times.get(stage, [])) for stage in ("plan", "fuse", "rerank")}
    peers = _peers(ev, queries, relevant, options, tick) if options.baselines else {}
    public = _public(ev, queries, relevant, tick) if options.public else {}
    refusal = _refusal(ev, got, options, off_topic, tick)
    per_query = _per_query(got, queries, relevant, stages)
    cfg = config_row(ev.config)
    return {
        **(meta or {}),
        "date": dt.datetime.now().strftime("%Y-%m-%d %H:%M"),
        "machine": f"{platform.machine()}, {os.cpu_count()} CPUs",
        "load": [round(load_start, 2), round(os.getloadavg()[0], 2)],
        "tenant": filters.tenant,
        "collections": list(filters.collections or []),
        "documents": len(ev.labels),
        "questions": len(queries),
        "relevant_per_question": sum(map(len, relevant)) / len(relevant),
        "relevant_missing": missing,
        "embeddings": settings.models.embeddings,
        "config": cfg,
        "stages": stages,
        "steps": steps,
        "peers": peers,
        "public": public,
        "refusal": refusal,
        "per_query": per_query,
    }


def deeper(cfg: FunnelConfig, depth: int) -> FunnelConfig:
    """``cfg`` with each channel returning, and the reranker taking, at least ``depth``."""
    deep = cfg.tuned(k={name: max(spec.k, depth) for name, spec in cfg.channels.items()})
    return dataclasses.replace(deep, rerank_candidates=max(cfg.rerank_candidates, depth))


def _stage_rows(
    got: _Rankings, relevant: Sequence[frozenset[str]], options: EvalOptions
) -> dict[str, Any]:
    """Quality, latency and failures of each funnel stage (no ``reranked`` row without rerank)."""
    stages: dict[str, Any] = {}
    for stage in FUNNEL_STAGES:
        if stage == "reranked" and not options.rerank:
            continue
        row: dict[str, Any] = quality(got.ranks.get(stage, []), relevant)
        row |= percentiles(got.times.get(stage, []))
        row["failed"] = got.failures.get(stage, 0)
        stages[stage] = row
    return stages


def _refusal(
    ev: RetrievalEvaluation,
    got: _Rankings,
    options: EvalOptions,
    off_topic: Sequence[str],
    tick: Tick | None,
) -> dict[str, Any]:
    """The refusal threshold and how often it refuses on- (and off-) topic questions.

    With reranking, the off-topic questions run through the funnel here.
    """
    threshold = ev.config.threshold
    refusal: dict[str, Any] = {"threshold": threshold, "reranker": _reranker_name(ev, options)}
    if options.rerank:
        refusal["on_topic"] = _refusals(got.best, threshold)
        if off_topic:
            far = ev.run(list(off_topic), tick, "off-topic")
            refusal["off_topic"] = _refusals(far.best, threshold)
    return refusal


def _per_query(
    got: _Rankings,
    queries: Sequence[LabelledQuery],
    relevant: Sequence[frozenset[str]],
    stages: Mapping[str, Any],
) -> list[dict[str, Any]]:
    """Each question's nDCG@10 at every stage that ranked it."""
    return [
        {
            "id": q.id,
            "ndcg@10": {
                stage: round(ndcg_at(got.ranks[stage][i], relevant[i], 10), 4)
                for stage in stages
                if stage in got.ranks
            },
        }
        for i, q in enumerate(queries)
    ]


def _reranker_name(ev: RetrievalEvaluation, options: EvalOptions) -> str:
    if not options.rerank:
        return "none (--no-rerank)"
    return options.reranker or ev.settings.models.reranker


def _refusals(best: Sequence[float], threshold: float) -> dict[str, Any]:
    refused = sum(1 for b in best if b < threshold)
    return {
        "n": len(best),
        "refused": refused,
        "rate": refused / len(best) if best else None,
        "mean_best_score": sum(best) / len(best) if best else None,
    }


def _public(
    ev: RetrievalEvaluation,
    queries: Sequence[LabelledQuery],
    relevant: Sequence[frozenset[str]],
    tick: Tick | None,
) -> dict[str, Any]:
    """The public path: each question through ``search(q, k=32)`` of the default funnel."""
    from disputatio.eval.retrieval_public import public_rows, run_public
    from disputatio.retrievers.postgres import PostgresFunnel

    # what `default_retriever` builds (settings' models, calibration and funnel defaults), over
    # the evaluation's scope; its own embeddings object, so its query vectors are not the
    # stage rows' cached ones (the call's time includes embedding the question)
    retriever = PostgresFunnel(ev.settings, default_filters=ev.filters)
    run = run_public(retriever, [q.query for q in queries], ev.labels_of_sections, tick=tick)
    return public_rows(run, relevant)


def _peers(
    ev: RetrievalEvaluation,
    queries: Sequence[LabelledQuery],
    relevant: Sequence[frozenset[str]],
    options: EvalOptions,
    tick: Tick | None,
) -> dict[str, Any]:
    from disputatio.eval.retrieval_baselines import PlainPeers

    ids = list(ev.texts)
    peers = PlainPeers(
        ids, [ev.texts[i] for i in ids], ev.embeddings, cache=options.peer_cache, depth=100
    )
    ranks: dict[str, list[list[str]]] = {name: [] for name in PEERS}
    times: dict[str, list[float]] = {name: [] for name in PEERS}
    for i, q in enumerate(queries):
        lexical, lexical_ms = peers.bm25_search(q.query)
        vector, vector_ms = peers.cosine_search(q.query)
        t0 = time.perf_counter()
        fused = peers.fuse(lexical, vector)
        fuse_ms = (time.perf_counter() - t0) * 1000
        for name, ranking, ms in (
            ("bm25s", lexical, lexical_ms),
            ("cosine", vector, vector_ms),
            ("bm25s+cosine RRF", fused, lexical_ms + vector_ms + fuse_ms),
        ):
            ranks[name].append(ranking)
            times[name].append(ms)
        if tick:
            tick(i + 1, len(queries), "plain peers")
    return {n: quality(ranks[n], relevant) | percentiles(times[n]) for n in PEERS}
