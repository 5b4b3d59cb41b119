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
from collections.abc import Sequence
from typing import Any

from disputatio.ingest.types import Entity, Mention, Relation
from disputatio.retrievers.graphstore import GraphStore
from disputatio.settings import Settings

logger = logging.getLogger(__name__)

_OUTBOX_LOCK = 0x6F75_7462  # "outb": one replayer at a time keeps the id order


def enqueue_write(
    conn: Any,
    tenant: str,
    document_id: str,
    entities: Sequence[Entity],
    mentions: Sequence[Mention],
    relations: Sequence[Relation],
) -> None:
    """Append a document's graph to the outbox (in the caller's transaction)."""
    payload = {
        "entities": [[e.key, e.name, e.label] for e in entities],
        "mentions": [[m.entity_key, m.chunk_id, m.start, m.end, m.text] for m in mentions],
        "relations": [
            [r.source, r.target, r.type, r.weight, r.evidence_chunk_id] for r in relations
        ],
    }
    conn.execute(
        "INSERT INTO graph_outbox (tenant, document_id, op, payload) VALUES (%s, %s, 'write', %s)",
        (tenant, document_id, json.dumps(payload)),
    )


def enqueue_delete(conn: Any, tenant: str, document_id: str) -> None:
    """Append the removal of a document's graph to the outbox (in the caller's transaction)."""
    conn.execute(
        "INSERT INTO graph_outbox (tenant, document_id, op) VALUES (%s, %s, 'delete')",
        (tenant, document_id),
    )


def _apply(store: GraphStore, tenant: str, document_id: str, op: str, payload: Any) -> None:
    if op == "delete":
        store.delete_document(document_id)
        return
    store.write_document(
        tenant,
        document_id,
        [Entity(*e) for e in payload.get("entities", [])],
        [Mention(*m) for m in payload.get("mentions", [])],
        [Relation(*r) for r in payload.get("relations", [])],
    )


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
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_OUTBOX_LOCK,))
            rows = conn.execute(
                "SELECT id, tenant, document_id, op, payload FROM graph_outbox"
                " ORDER BY id LIMIT %s",
                (limit,),
            ).fetchall()
            for row_id, tenant, document_id, op, payload in rows:
                try:
                    _apply(store, tenant, str(document_id), op, payload)
                except Exception as exc:
                    error = f"{type(exc).__name__}: {exc}".splitlines()[0]
                    logger.warning("graph outbox row %s (%s) not applied: %s", row_id, op, error)
                    conn.execute(
                        "UPDATE graph_outbox SET attempts = attempts + 1, last_error = %s"
                        " WHERE id = %s",
                        (error, row_id),
                    )
                    break
                conn.execute("DELETE FROM graph_outbox WHERE id = %s", (row_id,))
                applied += 1
        found = conn.execute("SELECT count(*) FROM graph_outbox").fetchone()
    return {"applied": applied, "pending": int(found[0]) if found else 0, "error": error}
