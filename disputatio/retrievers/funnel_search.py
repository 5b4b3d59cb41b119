"""The ``search`` every funnel retriever shares: its parts handed to :func:`run_funnel`.

:class:`~disputatio.retrievers.postgres.PostgresFunnel` and
:class:`~disputatio.retrievers.memory.InMemoryFunnel` differ in their backend, their planner and
how they build their parts; a search is the same call for both, so both inherit it from
:class:`FunnelSearch`.
"""

from __future__ import annotations

from typing import Protocol

from langchain_core.embeddings import Embeddings

from disputatio.models.rerank import Reranker
from disputatio.retrievers.base import RetrievalFilters, in_scope
from disputatio.retrievers.funnel import FunnelBackend, FunnelConfig, run_funnel
from disputatio.retrievers.plan import QueryPlan
from disputatio.state.retrieval import RetrievalResult


class FunnelParts(Protocol):
    """What a funnel retriever holds for :meth:`FunnelSearch.search`.

    Attributes:
        embeddings: Embeds the query for the semantic channel.
        reranker: Scores the fused candidates.
        config: The funnel's knobs.
    """

    embeddings: Embeddings
    reranker: Reranker
    config: FunnelConfig

    @property
    def backend(self) -> FunnelBackend:
        """Where the channels run (Postgres or in-process indexes)."""
        ...

    @property
    def default_filters(self) -> RetrievalFilters:
        """The scope of a search that passes none (always with a tenant)."""
        ...

    def plan(self, query: str) -> QueryPlan:
        """Keywords, semantic query and graph seeds of ``query``."""
        ...


class FunnelSearch:
    """Mixin: the :class:`~disputatio.retrievers.base.CorpusRetriever` search of a funnel."""

    def search(
        self: FunnelParts,
        query: str,
        *,
        k: int | None = None,
        threshold: float | None = None,
        filters: RetrievalFilters | None = None,
    ) -> RetrievalResult:
        """Run the funnel for ``query`` (scope: ``filters`` in this funnel's tenant by default)."""
        return run_funnel(
            query,
            self.backend,
            self.embeddings,
            self.reranker,
            self.config,
            in_scope(filters, self.default_filters),
            k=k,
            threshold=threshold,
            planner=self.plan,
        )
