"""The graph outbox: how an external graph store (Neo4j) stays consistent with Postgres.

Ingestion never writes the external store directly. Each document's Postgres transaction
appends the document's graph (and a delete for every document it replaces) to the
``graph_outbox`` table (:func:`enqueue_write`, :func:`enqueue_delete`); after the commit,
:func:`replay_outbox` applies the rows to the store in id order and deletes them, stopping at
the first failure (kept with its error, retried by the next replay, so order is preserved). A
crash or an unreachable store thus delays the graph, never leaves it with a document Postgres
does not hold, and replaced or deleted documents leave nothing behind once replayed.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from disputatio.ingest.types import DocumentGraph
from disputatio.retrievers.graphstore import GraphStore
from disputatio.settings import Settings
from disputatio.storage import graph_outbox as outbox_sql

logger = logging.getLogger(__name__)


def enqueue_write(conn: Any, tenant: str, document_id: str, graph: DocumentGraph) -> None:
    """Append a document's graph to the outbox (in the caller's transaction)."""
    outbox_sql.enqueue_write(conn, tenant, document_id, json.dumps(graph.to_payload()))


def enqueue_delete(conn: Any, tenant: str, document_id: str) -> None:
    """Append the removal of a document's graph to the outbox (in the caller's transaction)."""
    outbox_sql.enqueue_delete(conn, tenant, document_id)


def _apply(store: GraphStore, tenant: str, document_id: str, op: str, payload: Any) -> None:
    if op == "delete":
        store.delete_document(document_id)
        return
    store.write_document(tenant, document_id, DocumentGraph.from_payload(payload))


def replay_outbox(settings: Settings, store: GraphStore, *, limit: int = 1000) -> dict[str, Any]:
    """Apply pending outbox rows to ``store`` in id order; delete each row once applied.

    Stops at the first failure: that row keeps its place with ``attempts`` and ``last_error``,
    and the next replay starts from it. One replayer runs at a time (advisory lock).

    Args:
        settings: Settings naming the database.
        store: The external graph store.
        limit: Most rows applied by this call (the rest wait for the next replay).

    Returns:
        ``{"applied": n, "pending": rows left, "error": the failure or None}``.
    """
    from disputatio.storage.db import connect

    applied, error = 0, None
    with connect(settings) as conn:
        with conn.transaction():
            outbox_sql.lock_replay(conn)
            for row_id, tenant, document_id, op, payload in outbox_sql.pending(conn, limit):
                try:
                    _apply(store, tenant, str(document_id), op, payload)
                except Exception as exc:
                    error = f"{type(exc).__name__}: {exc}".splitlines()[0]
                    logger.warning("graph outbox row %s (%s) not applied: %s", row_id, op, error)
                    outbox_sql.record_failure(conn, row_id, error)
                    break
                outbox_sql.delete_row(conn, row_id)
                applied += 1
        left = outbox_sql.count_pending(conn)
    return {"applied": applied, "pending": left, "error": error}
