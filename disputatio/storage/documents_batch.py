"""Writing a batch of new documents in one transaction (the fast path of ingestion).

:func:`write_new_documents` (defined in :mod:`disputatio.storage.documents`, re-exported here)
stores many documents with a fixed handful of statements per batch and one commit, where
:func:`~disputatio.storage.documents.write_document` writes one document with the same
statements in its own transaction (and its round trips and commit). What is stored is the same:

- the document rows, parents, mentions and relations are inserted from arrays, one statement
  per table for the whole batch, in document order;
- children are inserted one statement per document, in document order, so the BM25 posting
  trigger (statement level) sees the tenant's statistics exactly as it would document by
  document;
- entities are upserted once for the batch, sorted by key (so concurrent writers lock them in
  the same order), each with the name and label of its first mention in batch order (as
  one-by-one writes would have left it).

Callers take :func:`lock_batch` first (advisory locks on every (tenant, content hash), in sorted
order) and pass only documents that replace nothing (:func:`previous_by_item`); the whole batch
commits or nothing of it does, so a caller can fall back to one transaction per document when
the batch fails.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import psycopg

from disputatio.storage.documents import NewDocument, write_new_documents

__all__ = ["NewDocument", "lock_batch", "previous_by_item", "write_new_documents"]


def lock_batch(conn: psycopg.Connection[Any], tenant: str, hashes: Sequence[str]) -> None:
    """Take the per-content advisory locks of :func:`lock_content` for many hashes, sorted."""
    keys = sorted({f"doc:{tenant}:{sha}" for sha in hashes})
    conn.execute(
        "SELECT count(pg_advisory_xact_lock(hashtextextended(k, 0)))"
        " FROM (SELECT k FROM unnest(%s::text[]) AS k ORDER BY k) AS s",
        (keys,),
    )


def previous_by_item(
    conn: psycopg.Connection[Any],
    tenant: str,
    collection: str,
    items: Sequence[tuple[str, str]],
) -> list[list[tuple[str, str]]]:
    """For each ``(sha256, source_uri)``: the ``(id, sha256)`` of stored documents it replaces.

    The same rule as :func:`~disputatio.storage.documents.previous_versions` (same content in
    the tenant, or an older version of the same file in the collection), in one query.
    """
    if not items:
        return []
    rows = conn.execute(
        "SELECT id, sha256, collection, source_uri FROM documents WHERE tenant = %s"
        " AND (sha256 = ANY(%s) OR (collection = %s AND source_uri = ANY(%s)))",
        (tenant, [sha for sha, _ in items], collection, [uri for _, uri in items]),
    ).fetchall()
    out: list[list[tuple[str, str]]] = []
    for sha, uri in items:
        out.append(
            [
                (str(r[0]), str(r[1]))
                for r in rows
                if r[1] == sha or (r[2] == collection and r[3] == uri)
            ]
        )
    return out
