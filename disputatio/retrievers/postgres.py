"""The triple-hybrid funnel over Postgres (BM25 + pgvector + entity graph, all in SQL)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

import psycopg
from langchain_core.embeddings import Embeddings

from disputatio.models.rerank import Reranker
from disputatio.retrievers import pg_channels
from disputatio.retrievers.base import RetrievalFilters
from disputatio.retrievers.funnel import FunnelConfig
from disputatio.retrievers.funnel_search import FunnelSearch
from disputatio.retrievers.plan import (
    QueryPlan,
    deterministic_plan,
    llm_plan,
    with_query_entities,
)
from disputatio.settings import Settings, get_settings
from disputatio.state.retrieval import Section
from disputatio.storage import chunk_reads, retrieval_channels
from disputatio.storage.calibrations import latest_calibration
from disputatio.storage.db import get_pool


class PostgresBackend:
    """:class:`~disputatio.retrievers.funnel.FunnelBackend` over the disputatio schema.

    Each channel runs in its own transaction with ``statement_timeout`` set to the channel
    deadline, so a late channel is cancelled by the database, not only abandoned by the funnel.

    Args:
        settings: Settings naming the database (``DATABASE_URL`` or the embedded server).
    """

    def __init__(self, settings: Settings) -> None:
        self.pool = get_pool(settings)
        self.retrieval = settings.retrieval

    @contextmanager
    def _channel_conn(self) -> Iterator[psycopg.Connection[Any]]:
        with retrieval_channels.channel_connection(
            self.pool, self.retrieval.channel_timeout_s
        ) as conn:
            yield conn

    def lexical(
        self, keywords: Sequence[str], filters: RetrievalFilters, k: int
    ) -> list[tuple[str, float]]:
        """BM25 channel."""
        r = self.retrieval
        with self._channel_conn() as conn:
            return pg_channels.lexical(
                conn,
                keywords,
                filters,
                k,
                k1=r.bm25_k1,
                b=r.bm25_b,
                per_term=r.bm25_postings_per_term,
            )

    def semantic(
        self, vector: Sequence[float], filters: RetrievalFilters, k: int
    ) -> list[tuple[str, float]]:
        """Vector channel."""
        with self._channel_conn() as conn:
            return pg_channels.semantic(conn, vector, filters, k)

    def graph(
        self, seeds: Sequence[str], filters: RetrievalFilters, k: int, hops: int
    ) -> list[tuple[str, float]]:
        """Graph channel."""
        with self._channel_conn() as conn:
            return pg_channels.graph(
                conn, seeds, filters, k, hops, neighbour_cap=self.retrieval.graph_neighbour_cap
            )

    def child_vectors(self, child_ids: Sequence[str]) -> dict[str, Sequence[float]]:
        """Child id → stored embedding (for the rerank stage; nothing is embedded again)."""
        with self.pool.connection() as conn:
            return chunk_reads.child_vectors(conn, child_ids)

    def parents_of(self, child_ids: Sequence[str]) -> dict[str, str]:
        """Child id → parent id."""
        with self.pool.connection() as conn:
            return chunk_reads.parents_of(conn, child_ids)

    def sections(self, parent_ids: Sequence[str]) -> dict[str, Section]:
        """Parent sections with their document provenance."""
        with self.pool.connection() as conn:
            return chunk_reads.sections(conn, parent_ids)

    def child_texts(self, child_ids: Sequence[str]) -> dict[str, str]:
        """Child id → text (with its heading, as embedded)."""
        with self.pool.connection() as conn:
            return chunk_reads.child_texts(conn, child_ids)

    def calibration(self, tenant: str, reranker: str, alpha: float) -> dict[str, Any] | None:
        """The latest calibration of this tenant/reranker/α, if any.

        Returns:
            ``trim_threshold`` and, when fitted, ``refusal_threshold`` and the Platt
            parameters (``relevance_platt``, ``rerank_platt``).
        """
        with self.pool.connection() as conn:
            found = latest_calibration(conn, tenant, reranker, alpha)
        if found is None:
            return None
        threshold, details = found
        return {"trim_threshold": threshold, **(details or {})}

    def calibrated_threshold(self, tenant: str, reranker: str, alpha: float) -> float | None:
        """The latest conformal trim threshold for this tenant/reranker/α, if calibrated."""
        found = self.calibration(tenant, reranker, alpha)
        return found["trim_threshold"] if found else None


class PostgresFunnel(FunnelSearch):
    """A :class:`~disputatio.retrievers.base.CorpusRetriever` over Postgres.

    Args:
        settings: Settings (default: process settings).
        default_filters: Scope used when a search passes none (without a tenant: the settings'
            tenant, resolved here once; a search naming no tenant gets this scope's).
        embeddings: Embedding model (default: from settings).
        reranker: Reranker (default: from settings).
        planner_model: Chat model for the LLM planner (when ``retrieval.planner == "llm"``).
        config: Funnel knobs (default: from settings, with the calibrated trim if any).
    """

    def __init__(
        self,
        settings: Settings | None = None,
        *,
        default_filters: RetrievalFilters | None = None,
        embeddings: Embeddings | None = None,
        reranker: Reranker | None = None,
        planner_model: Any = None,
        config: FunnelConfig | None = None,
    ) -> None:
        from disputatio.models import get_embeddings, get_reranker

        self.settings = settings or get_settings()
        self.backend = PostgresBackend(self.settings)
        scope = default_filters or RetrievalFilters()
        self.tenant: str = self.settings.run_tenant(scope.tenant)
        self.default_filters = replace(scope, tenant=self.tenant)
        self.embeddings = embeddings or get_embeddings(settings=self.settings)
        self.reranker = reranker or get_reranker(settings=self.settings)
        self.planner_model = planner_model
        if config is None:
            config = FunnelConfig.from_settings(self.settings, **self._calibrated())
        self.config = config

    def _calibrated(self) -> dict[str, Any]:
        """Funnel overrides from the latest ``disputatio calibrate`` of this tenant/reranker."""
        found = self.backend.calibration(
            self.tenant,
            self.settings.models.reranker,
            self.settings.retrieval.conformal_alpha,
        )
        if not found:
            return {}
        overrides: dict[str, Any] = {"calibrated_threshold": found["trim_threshold"]}
        if found.get("refusal_threshold") is not None:
            overrides["threshold"] = float(found["refusal_threshold"])
        if found.get("relevance_platt"):
            overrides["relevance_platt"] = tuple(found["relevance_platt"])
        if found.get("rerank_platt"):
            overrides["rerank_platt"] = tuple(found["rerank_platt"])
        return overrides

    def plan(self, query: str) -> QueryPlan:
        """Plan the query (LLM planner when configured, else deterministic)."""
        if self.settings.retrieval.planner == "llm":
            if self.planner_model is None:
                from disputatio.models import get_chat_model

                self.planner_model = get_chat_model(role="planner", settings=self.settings)
            planned = llm_plan(query, self.planner_model)
        else:
            planned = deterministic_plan(query)
        if self.settings.retrieval.graph_query_ner and "graph" in self.config.active_channels:
            planned = with_query_entities(planned, query, self.settings)
        return planned
