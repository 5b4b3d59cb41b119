"""What the database server says about itself: its version and pgvector's (for health checks)."""

from __future__ import annotations

from typing import Any

import psycopg
from psycopg.rows import tuple_row

Conn = psycopg.Connection[Any]


def server_version(conn: Conn) -> str:
    """The server's version number (``server_version``, e.g. ``18.1``)."""
    with conn.cursor(row_factory=tuple_row) as cur:
        row = cur.execute("SELECT current_setting('server_version')").fetchone()
    return str(row[0]) if row else "?"


def versions(conn: Conn) -> tuple[str, str | None]:
    """The server's ``version()`` line and the installed pgvector version (None: not installed)."""
    with conn.cursor(row_factory=tuple_row) as cur:
        row = cur.execute(
            "SELECT version(), (SELECT extversion FROM pg_extension WHERE extname = 'vector')"
        ).fetchone()
    if row is None:  # a SELECT without FROM always returns its one row
        raise RuntimeError("the database answered no row to SELECT version()")
    return str(row[0]), None if row[1] is None else str(row[1])
