"""The ``graph_outbox`` table (migration 0004): graph writes waiting for an external store.

A document's transaction appends its graph (``op = 'write'``, the payload as JSON) or the removal
of a document it replaced (``op = 'delete'``); the replayer reads the rows in id order under
:func:`lock_replay`, deletes each one applied and counts a failure on the row that failed.
The replay itself (what a row does to the store) is
:func:`disputatio.retrievers.graph_outbox.replay_outbox`.
"""

from __future__ import annotations

from typing import Any

import psycopg

#: A connection returning tuple rows.
Conn = psycopg.Connection[Any]

#: Advisory lock key of the replayer ("outb"): one replayer at a time keeps the id order.
REPLAY_LOCK = 0x6F75_7462


def enqueue_write(conn: Conn, tenant: str, document_id: str, payload: str) -> None:
    """Append a document's graph (``payload``: its JSON text) in the caller's transaction."""
    conn.execute(
        "INSERT INTO graph_outbox (tenant, document_id, op, payload) VALUES (%s, %s, 'write', %s)",
        (tenant, document_id, payload),
    )


def enqueue_delete(conn: Conn, tenant: str, document_id: str) -> None:
    """Append the removal of a document's graph in the caller's transaction."""
    conn.execute(
        "INSERT INTO graph_outbox (tenant, document_id, op) VALUES (%s, %s, 'delete')",
        (tenant, document_id),
    )


def lock_replay(conn: Conn) -> None:
    """Wait for, then hold until the transaction ends, the replayer's advisory lock."""
    conn.execute("SELECT pg_advisory_xact_lock(%s)", (REPLAY_LOCK,))


def pending(conn: Conn, limit: int) -> list[tuple[int, str, Any, str, Any]]:
    """The first ``limit`` rows in id order: ``(id, tenant, document_id, op, payload)``."""
    rows = conn.execute(
        "SELECT id, tenant, document_id, op, payload FROM graph_outbox ORDER BY id LIMIT %s",
        (limit,),
    ).fetchall()
    return [(r[0], r[1], r[2], r[3], r[4]) for r in rows]


def record_failure(conn: Conn, row_id: int, error: str) -> None:
    """Count a failed attempt on a row and keep its error."""
    conn.execute(
        "UPDATE graph_outbox SET attempts = attempts + 1, last_error = %s WHERE id = %s",
        (error, row_id),
    )


def delete_row(conn: Conn, row_id: int) -> None:
    """Remove an applied row."""
    conn.execute("DELETE FROM graph_outbox WHERE id = %s", (row_id,))


def count_pending(conn: Conn) -> int:
    """Rows still waiting, of every tenant."""
    found = conn.execute("SELECT count(*) FROM graph_outbox").fetchone()
    return int(found[0]) if found else 0
