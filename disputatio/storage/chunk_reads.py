"""Reads of ``child_chunks`` and ``parent_chunks`` by id, for the retrieval funnel and its tools.

Ingestion writes these tables (:mod:`disputatio.storage.documents`); the functions here only read
them, on the caller's connection (tuple rows), by ids a search of the caller's scope returned.
Ids not stored are left out of every answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import psycopg

from disputatio.state.retrieval import Section

#: A connection returning tuple rows.
Conn = psycopg.Connection[Any]


def child_vectors(conn: Conn, child_ids: Sequence[str]) -> dict[str, Sequence[float]]:
    """Child id → stored embedding (children without one are left out)."""
    rows = conn.execute(
        "SELECT id, embedding FROM child_chunks WHERE id = ANY(%s) AND embedding IS NOT NULL",
        (list(child_ids),),
    ).fetchall()
    return {r[0]: r[1] for r in rows}


def parents_of(conn: Conn, child_ids: Sequence[str]) -> dict[str, str]:
    """Child id → parent id."""
    rows = conn.execute(
        "SELECT id, parent_id FROM child_chunks WHERE id = ANY(%s)", (list(child_ids),)
    ).fetchall()
    return {r[0]: r[1] for r in rows}


def child_texts(conn: Conn, child_ids: Sequence[str]) -> dict[str, str]:
    """Child id → text (with its heading on the line before, as embedded)."""
    rows = conn.execute(
        "SELECT id, heading, text FROM child_chunks WHERE id = ANY(%s)",
        (list(child_ids),),
    ).fetchall()
    return {r[0]: f"{r[1]}\n{r[2]}" if r[1] else r[2] for r in rows}


def sections(conn: Conn, parent_ids: Sequence[str]) -> dict[str, Section]:
    """Parent id → its section, with the provenance of its document."""
    rows = conn.execute(
        "SELECT p.id, p.document_id, d.source_uri, d.title, p.page, p.heading_path,"
        " p.text FROM parent_chunks p JOIN documents d ON d.id = p.document_id"
        " WHERE p.id = ANY(%s)",
        (list(parent_ids),),
    ).fetchall()
    return {
        r[0]: Section(
            id=r[0],
            document_id=str(r[1]),
            source=r[2],
            title=r[3],
            page=r[4],
            heading_path=list(r[5] or []),
            text=r[6],
        )
        for r in rows
    }


def child_documents(conn: Conn, child_ids: Sequence[str]) -> dict[str, str]:
    """Child id → id of its document."""
    rows = conn.execute(
        "SELECT id, document_id FROM child_chunks WHERE id = ANY(%s)", (list(child_ids),)
    ).fetchall()
    return {str(r[0]): str(r[1]) for r in rows}


def parent_documents(conn: Conn, parent_ids: Sequence[str]) -> dict[str, str]:
    """Parent (section) id → id of its document."""
    rows = conn.execute(
        "SELECT id, document_id FROM parent_chunks WHERE id = ANY(%s)",
        (list(parent_ids),),
    ).fetchall()
    return {str(r[0]): str(r[1]) for r in rows}


def sample_children(conn: Conn, tenant: str, n: int) -> list[tuple[str, str]]:
    """``n`` of the tenant's chunks as ``(text, parent_id)``, the same ones every time."""
    rows = conn.execute(
        "SELECT text, parent_id FROM child_chunks WHERE tenant = %s ORDER BY md5(id) LIMIT %s",
        (tenant, n),
    ).fetchall()
    return [(r[0], r[1]) for r in rows]
