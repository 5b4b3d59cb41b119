"""The SQL of the three Postgres retrieval channels: BM25, pgvector and the entity graph.

The channels read ``child_chunks`` with the index tables built at ingestion (``bm25_postings``,
``bm25_stats``, ``bm25_configs`` of migration 0003; ``entities``, ``entity_mentions`` and
``relations`` of migration 0001). Each query returns ``(child_id, score)`` best first, inside a
:class:`Scope` (tenant, collections, tags); :mod:`disputatio.retrievers.pg_channels` turns a
search's filters into that scope and :mod:`disputatio.retrievers.postgres` runs each channel in
a :func:`channel_connection`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TypedDict

import psycopg
from psycopg_pool import ConnectionPool


class Scope(TypedDict):
    """The SQL parameters of a search's scope (``None``: no filter on that column).

    Attributes:
        tenant: Tenant searched.
        collections: Only these collections.
        tags: Only chunks carrying all of these tags.
    """

    tenant: str | None
    collections: list[str] | None
    tags: list[str] | None


_SCOPE = (
    " c.tenant = %(tenant)s"
    " AND (%(collections)s::text[] IS NULL OR c.collection = ANY(%(collections)s))"
    " AND (%(tags)s::text[] IS NULL OR c.tags @> %(tags)s)"
)


def scope(
    tenant: str | None, collections: Sequence[str] | None, tags: Sequence[str] | None
) -> Scope:
    """The scope parameters of a tenant, its collections and tags (empty or None: no filter)."""
    return {
        "tenant": tenant,
        "collections": list(collections) if collections else None,
        "tags": list(tags) if tags else None,
    }


@contextmanager
def channel_connection(
    pool: ConnectionPool[Any], timeout_s: float | None
) -> Iterator[psycopg.Connection[Any]]:
    """A pooled connection in a transaction whose statements stop after ``timeout_s``.

    ``statement_timeout`` is set for the transaction only, so a late channel is cancelled by
    the database (``None``: no limit).
    """
    with pool.connection() as conn, conn.transaction():
        if timeout_s is not None:
            conn.execute(f"SET LOCAL statement_timeout = {max(1, int(timeout_s * 1000))}")
        yield conn


LEXICAL_SQL = (
    """
WITH cf AS (
    -- the query's language's configuration, else every one the tenant's chunks use
    SELECT bm25_regconfig(%(language)s::text) AS config WHERE %(language)s::text IS NOT NULL
    UNION
    SELECT config FROM bm25_configs WHERE tenant = %(tenant)s AND %(language)s::text IS NULL
), qt AS (
    SELECT DISTINCT u.lexeme AS term
    FROM cf, unnest(to_tsvector(cf.config, bm25_unaccent(%(q)s))) u
), st AS (
    SELECT greatest(sum(n_docs), 1)::float8 AS n,
           greatest(sum(total_len)::float8 / greatest(sum(n_docs), 1), 1.0) AS avgdl
    FROM bm25_stats WHERE tenant = %(tenant)s
), tw AS (
    SELECT qt.term, ln(1 + (st.n - d.df + 0.5) / (d.df + 0.5)) AS idf
    FROM qt CROSS JOIN st
    CROSS JOIN LATERAL (
        SELECT count(*) AS df FROM bm25_postings p
        WHERE p.tenant = %(tenant)s AND p.term = qt.term
    ) d
    WHERE d.df > 0
), hits AS MATERIALIZED (
    -- each term's best postings by impact (bounded), scored exactly
    SELECT h.chunk_id, tw.idf * h.tf * (%(k1)s + 1)
           / (h.tf + %(k1)s * (1 - %(b)s + %(b)s * h.dl / st.avgdl)) AS part
    FROM tw CROSS JOIN st
    CROSS JOIN LATERAL (
        SELECT p.chunk_id, p.tf, p.dl FROM bm25_postings p
        WHERE p.tenant = %(tenant)s AND p.term = tw.term
          AND (%(collections)s::text[] IS NULL OR p.collection = ANY(%(collections)s))
        ORDER BY p.impact DESC
        LIMIT %(per_term)s
    ) h
), approx AS (
    SELECT chunk_id, sum(part) AS score FROM hits GROUP BY chunk_id
    ORDER BY score DESC, chunk_id LIMIT %(rescore)s
)
-- exact BM25 of the best candidates: every query term, also where its list was cut
SELECT a.chunk_id, sum(tw.idf * p.tf * (%(k1)s + 1)
       / (p.tf + %(k1)s * (1 - %(b)s + %(b)s * p.dl / st.avgdl))) AS score
FROM approx a
JOIN child_chunks c ON c.id = a.chunk_id
CROSS JOIN tw CROSS JOIN st
JOIN bm25_postings p ON p.chunk_id = a.chunk_id AND p.term = tw.term
WHERE"""
    + _SCOPE
    + """
GROUP BY a.chunk_id
ORDER BY score DESC, a.chunk_id
LIMIT %(k)s
"""
)


def bm25(
    conn: psycopg.Connection[Any],
    text: str,
    where: Scope,
    k: int,
    *,
    language: str | None,
    k1: float,
    b: float,
    per_term: int,
    rescore: int,
) -> list[tuple[str, float]]:
    """The ``k`` best chunks of ``where`` for ``text`` by BM25 (:data:`LEXICAL_SQL`).

    ``score(d) = Σ_t idf(t) · tf·(k1+1) / (tf + k1·(1 − b + b·dl/avgdl))`` with
    ``idf(t) = ln(1 + (N − df + 0.5)/(df + 0.5))`` (Lucene's), over the tenant's chunks. The
    query is analysed like the chunks: unaccent, then the text-search configuration of
    ``language`` when given, else every configuration the tenant uses. Candidates are each
    term's ``per_term`` highest-impact postings (the index is ordered by impact, so no query
    scores every match); the best ``rescore`` of them are then scored exactly with all terms.

    Args:
        conn: A connection.
        text: The query text (not empty).
        where: Tenant/collection/tag scope.
        k: Results wanted.
        language: Language or text-search configuration of the query (None: every one).
        k1: Term-frequency saturation.
        b: Length normalisation.
        per_term: Postings read per query term.
        rescore: Candidates scored exactly.
    """
    rows = conn.execute(
        LEXICAL_SQL,
        {
            "q": text,
            "k": k,
            "k1": k1,
            "b": b,
            "per_term": per_term,
            "rescore": rescore,
            "language": language,
            **where,
        },
    ).fetchall()
    return [(r[0], float(r[1])) for r in rows]


def nearest(
    conn: psycopg.Connection[Any], vector: Sequence[float], where: Scope, k: int
) -> list[tuple[str, float]]:
    """The ``k`` chunks of ``where`` nearest to ``vector``: HNSW cosine search.

    The scan is iterative (``relaxed_order``) so filters do not starve it, with
    ``ef_search = max(40, 2k)``; both settings hold for this query's transaction only.
    """
    import numpy as np

    with conn.transaction():
        conn.execute(f"SET LOCAL hnsw.ef_search = {max(40, 2 * k)}")
        conn.execute("SET LOCAL hnsw.iterative_scan = relaxed_order")
        rows = conn.execute(
            "SELECT c.id, 1 - (c.embedding <=> %(v)s) AS score FROM child_chunks c"
            " WHERE" + _SCOPE + " ORDER BY c.embedding <=> %(v)s LIMIT %(k)s",
            {"v": np.asarray(vector, dtype=np.float32), "k": k, **where},
        ).fetchall()
    return [(r[0], float(r[1])) for r in rows]


GRAPH_SQL = (
    """
WITH seed AS MATERIALIZED (
    -- whole-key matches only: the query's entities (NER) and its word n-grams equal to a key
    SELECT e.id, 1.0 / ln(2.0 + (SELECT count(DISTINCT m.chunk_id) FROM entity_mentions m
                                 WHERE m.entity_id = e.id)) AS w
    FROM entities e
    WHERE e.tenant = %(tenant)s AND e.key = ANY(%(seeds)s::text[])
), edge AS (
    -- de-duplicated edges with their counts, the strongest per seed (neighbour cap)
    SELECT s.id AS seed_id, s.w AS seed_w, x.other, x.n,
           row_number() OVER (PARTITION BY s.id ORDER BY x.n DESC, x.other) AS rk
    FROM seed s
    CROSS JOIN LATERAL (
        SELECT y.other, count(*) AS n FROM (
            SELECT r.target_id AS other FROM relations r
            WHERE r.source_id = s.id AND r.tenant = %(tenant)s
            UNION ALL
            SELECT r.source_id FROM relations r
            WHERE r.target_id = s.id AND r.tenant = %(tenant)s
        ) y
        WHERE y.other NOT IN (SELECT id FROM seed)
        GROUP BY y.other
    ) x
    WHERE %(hops)s >= 1
), neighbour AS MATERIALIZED (
    SELECT other AS id, max(seed_w * n / (n + 1.0)) * %(decay)s
           / ln(2.0 + (SELECT count(DISTINCT m.chunk_id) FROM entity_mentions m
                       WHERE m.entity_id = other)) AS w
    FROM edge WHERE rk <= %(cap)s
    GROUP BY other
), per_chunk AS (
    SELECT m.chunk_id,
           sum(s.w) FILTER (WHERE s.id IS NOT NULL) AS seed_score,
           max(nb.w) AS neighbour_score
    FROM (SELECT DISTINCT entity_id, chunk_id FROM entity_mentions
          WHERE entity_id IN (SELECT id FROM seed UNION ALL SELECT id FROM neighbour)) m
    LEFT JOIN seed s ON s.id = m.entity_id
    LEFT JOIN neighbour nb ON nb.id = m.entity_id
    GROUP BY m.chunk_id
)
SELECT c.id, coalesce(p.seed_score, 0) + coalesce(p.neighbour_score, 0) AS score
FROM per_chunk p
JOIN child_chunks c ON c.id = p.chunk_id
WHERE"""
    + _SCOPE
    + """
ORDER BY score DESC, c.id
LIMIT %(k)s
"""
)


def entity_graph(
    conn: psycopg.Connection[Any],
    seeds: Sequence[str],
    where: Scope,
    k: int,
    hops: int,
    *,
    neighbour_cap: int,
    decay: float,
) -> list[tuple[str, float]]:
    """The ``k`` best chunks of ``where`` reached from ``seeds`` (:data:`GRAPH_SQL`).

    A seed weighs ``1 / ln(2 + chunks mentioning it)`` (rare entities count more). Each seed
    keeps its ``neighbour_cap`` neighbours with the most (de-duplicated) relation rows ``n``; a
    neighbour weighs ``decay · max_seed(w_seed · n/(n+1)) / ln(2 + its chunks)``. A chunk scores
    the sum of the distinct *seeds* it names plus its best neighbour's weight.

    Args:
        conn: A connection.
        seeds: Normalised entity keys (exact matches only; not empty).
        where: Tenant/collection/tag scope.
        k: Results wanted.
        hops: 0 (seeds only) or 1 (one hop; more hops are treated as one).
        neighbour_cap: Neighbours kept per seed.
        decay: Weight of a neighbour relative to a seed.
    """
    rows = conn.execute(
        GRAPH_SQL,
        {
            "seeds": list(seeds),
            "hops": hops,
            "k": k,
            "cap": neighbour_cap,
            "decay": decay,
            **where,
        },
    ).fetchall()
    return [(r[0], float(r[1])) for r in rows]
