"""The three Postgres channels: BM25, pgvector, and the entity graph, over a search's filters.

Each channel returns ``(child_id, score)`` best first, honouring tenant/collection/tag filters.
Their SQL is in :mod:`disputatio.storage.retrieval_channels`; this module turns a search's
:class:`~disputatio.retrievers.base.RetrievalFilters` into its scope and holds the channels'
defaults.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import psycopg

from disputatio.retrievers.base import RetrievalFilters
from disputatio.storage import retrieval_channels as sql


def scope_params(filters: RetrievalFilters) -> sql.Scope:
    """SQL parameters of a filter scope."""
    return sql.scope(filters.tenant, filters.collections, filters.tags)


def lexical(
    conn: psycopg.Connection[Any],
    keywords: Sequence[str],
    filters: RetrievalFilters,
    k: int,
    *,
    k1: float = 0.9,
    b: float = 0.4,
    per_term: int = 1000,
) -> list[tuple[str, float]]:
    """BM25 channel over the in-database index of migration 0003.

    The query is analysed with the text-search configuration of ``filters.language`` when
    given, else every configuration the tenant uses; the best ``max(4k, 200)`` candidates are
    scored exactly (the formula: :func:`disputatio.storage.retrieval_channels.bm25`).

    Args:
        conn: A connection.
        keywords: Query words (the planner's keywords; stop words are dropped by Postgres).
        filters: Tenant/collection/tag scope.
        k: Results wanted.
        k1: Term-frequency saturation.
        b: Length normalisation.
        per_term: Postings read per query term.
    """
    text = " ".join(keywords).strip()
    if not text:
        return []
    return sql.bm25(
        conn,
        text,
        scope_params(filters),
        k,
        language=filters.language,
        k1=k1,
        b=b,
        per_term=per_term,
        rescore=max(4 * k, 200),
    )


def semantic(
    conn: psycopg.Connection[Any], vector: Sequence[float], filters: RetrievalFilters, k: int
) -> list[tuple[str, float]]:
    """Vector channel: HNSW cosine search (iterative scan so filters don't starve it)."""
    return sql.nearest(conn, vector, scope_params(filters), k)


def graph(
    conn: psycopg.Connection[Any],
    seeds: Sequence[str],
    filters: RetrievalFilters,
    k: int,
    hops: int = 1,
    *,
    neighbour_cap: int = 20,
    decay: float = 0.5,
) -> list[tuple[str, float]]:
    """Graph channel: whole-key seed entities, one hop over counted edges, back to chunks.

    A chunk scores the sum of the distinct *seeds* it names (bounded by the query's entities)
    plus its best neighbour's weight, so naming many entities earns nothing by itself (the
    weights: :func:`disputatio.storage.retrieval_channels.entity_graph`).

    Args:
        conn: A connection.
        seeds: Normalised entity keys (exact matches only).
        filters: Tenant/collection/tag scope.
        k: Results wanted.
        hops: 0 (seeds only) or 1 (one hop; more hops are treated as one).
        neighbour_cap: Neighbours kept per seed.
        decay: Weight of a neighbour relative to a seed.
    """
    if not seeds:
        return []
    return sql.entity_graph(
        conn, seeds, scope_params(filters), k, hops, neighbour_cap=neighbour_cap, decay=decay
    )
