"""Reads of ``documents`` and ``parent_chunks`` by tenant, for the API and the evaluation.

Ingestion writes these tables (:mod:`disputatio.storage.documents`); the functions here only
read them, and every one takes the owner ``tenant`` so a query never returns another tenant's
row. The API's take ``settings`` and return dict rows; :func:`document_hashes`,
:func:`documents_per_collection` and :func:`document_sources` read on the caller's connection.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from disputatio.settings import Settings
from disputatio.storage.api_db import Conn, db, fetch_all, fetch_one


def document_for_hash(settings: Settings, tenant: str, sha256: str) -> str | None:
    """Id of the tenant's document with this content hash, if already ingested."""
    with db(settings) as conn:
        row = conn.execute(
            "SELECT id::text AS id FROM documents WHERE tenant = %s AND sha256 = %s",
            (tenant, sha256),
        ).fetchone()
    return row["id"] if row else None


def list_documents(settings: Settings, tenant: str, limit: int) -> list[dict[str, Any]]:
    """The tenant's documents, newest first (no text)."""
    return fetch_all(
        settings,
        "SELECT id::text AS document_id, title, source_uri, collection, kind, tags,"
        " metadata, n_pages, created_at FROM documents WHERE tenant = %s"
        " ORDER BY created_at DESC LIMIT %s",
        (tenant, limit),
    )


def get_document(settings: Settings, tenant: str, document_id: str) -> dict[str, Any] | None:
    """One of the tenant's documents with its text (``markdown``), or None."""
    return fetch_one(
        settings,
        "SELECT id::text AS document_id, title, source_uri, collection, kind, tags, metadata,"
        " n_pages, markdown FROM documents WHERE id = %s AND tenant = %s",
        (document_id, tenant),
    )


def get_parent_chunk(settings: Settings, tenant: str, chunk_id: str) -> dict[str, Any] | None:
    """One of the tenant's parent sections (the source of a citation), or None."""
    return fetch_one(
        settings,
        "SELECT p.id AS parent_chunk_id, p.document_id::text AS document_id, p.text,"
        " p.page, p.heading_path, d.title, d.source_uri FROM parent_chunks p"
        " JOIN documents d ON d.id = p.document_id WHERE p.id = %s AND p.tenant = %s",
        (chunk_id, tenant),
    )


def document_hashes(conn: Conn, tenant: str, collection: str | None = None) -> list[str]:
    """Content hashes (``documents.sha256``) of the tenant's documents, in no given order.

    Args:
        conn: An open connection returning tuple rows (``disputatio.storage.db.connect``).
        tenant: The tenant.
        collection: Only this collection's documents (None: every collection of the tenant).
    """
    sql = "SELECT sha256 FROM documents WHERE tenant = %s"
    params: list[Any] = [tenant]
    if collection is not None:
        sql += " AND collection = %s"
        params.append(collection)
    return [str(row[0]) for row in conn.execute(sql, params).fetchall()]


def documents_per_collection(conn: Conn, tenant: str) -> dict[str, int]:
    """Documents stored per collection of ``tenant`` (tuple rows)."""
    rows = conn.execute(
        "SELECT collection, count(*) FROM documents WHERE tenant = %s GROUP BY collection",
        (tenant,),
    ).fetchall()
    return {str(r[0]): int(r[1]) for r in rows}


def document_sources(
    conn: Conn, tenant: str | None, collections: Sequence[str] | None = None
) -> list[tuple[str, str, str]]:
    """``(id, source_uri, markdown)`` of the tenant's documents, by source (tuple rows).

    Args:
        conn: An open connection returning tuple rows.
        tenant: The tenant (None matches no document).
        collections: Only these collections (None or empty: every collection of the tenant).
    """
    sql = "SELECT id, source_uri, markdown FROM documents WHERE tenant = %s"
    params: list[Any] = [tenant]
    if collections:
        sql += " AND collection = ANY(%s)"
        params.append(list(collections))
    rows = conn.execute(sql + " ORDER BY source_uri", params).fetchall()
    return [(str(r[0]), str(r[1]), str(r[2])) for r in rows]
