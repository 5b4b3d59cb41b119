"""Retrievers: the Postgres triple-hybrid funnel, the in-process funnel, LangChain adapters.

None of them needs a graph: ``from disputatio.retrievers import default_retriever``.
"""

from __future__ import annotations

from disputatio.retrievers.base import CorpusRetriever, RetrievalFilters, format_sections
from disputatio.settings import Settings, get_settings


def default_retriever(
    settings: Settings | None = None, *, tenant: str | None = None, collection: str | None = None
) -> CorpusRetriever:
    """The Postgres funnel over the configured database, scoped to ``tenant``/``collection``.

    ``tenant=None``: the settings' tenant (the funnel resolves it).
    """
    from disputatio.retrievers.postgres import PostgresFunnel

    filters = RetrievalFilters(tenant=tenant, collections=(collection,) if collection else None)
    return PostgresFunnel(settings=settings or get_settings(), default_filters=filters)


__all__ = ["CorpusRetriever", "RetrievalFilters", "default_retriever", "format_sections"]
