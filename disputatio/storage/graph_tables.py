"""Removing one document's rows of the entity graph (``entity_mentions`` and ``relations``).

Ingestion writes the graph with its document (:func:`disputatio.storage.documents.write_graph`)
and :func:`disputatio.storage.documents.delete_orphan_entities` drops entities left without a
mention; :func:`delete_graph_rows` clears a document's own graph rows so that it can be written
again, and :func:`document_tenant` names the tenant whose orphan entities to drop afterwards.
"""

from __future__ import annotations

from typing import Any

import psycopg


def delete_graph_rows(conn: psycopg.Connection[Any], document_id: str) -> None:
    """Delete the document's relations and entity mentions (its entities stay)."""
    conn.execute("DELETE FROM relations WHERE document_id = %s", (document_id,))
    conn.execute("DELETE FROM entity_mentions WHERE document_id = %s", (document_id,))


def document_tenant(conn: psycopg.Connection[Any], document_id: str) -> str | None:
    """The tenant owning a document (``documents.tenant``), or None when it is not stored."""
    row = conn.execute("SELECT tenant FROM documents WHERE id = %s", (document_id,)).fetchone()
    return str(row[0]) if row else None
