"""The connection the API's tables are read and written through (migrations ``0006``, ``0008``).

:func:`db` lends a pooled connection returning dict rows (:func:`fetch_one` and
:func:`fetch_all` read one query on one), :func:`jsonb` adapts a value for a
``jsonb`` column, and :func:`insert_within_limit` is the per-tenant quota check that ``api_jobs``
and ``api_runs`` share. The queries themselves live in the module of their table
(:mod:`~disputatio.storage.api_jobs`, :mod:`~disputatio.storage.api_runs`,
:mod:`~disputatio.storage.api_events`, :mod:`~disputatio.storage.api_queue`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
from psycopg.abc import Params
from psycopg.rows import dict_row, tuple_row
from psycopg.types.json import Jsonb

from disputatio.settings import Settings
from disputatio.storage.db import get_pool

#: A connection whose rows are dicts (what :func:`db` lends).
Conn = psycopg.Connection[Any]

#: A row read through :func:`db`.
Row = dict[str, Any]


@contextmanager
def db(settings: Settings) -> Iterator[Conn]:
    """A pooled connection returning dict rows; commits when the block succeeds."""
    with get_pool(settings).connection() as conn:
        conn.row_factory = dict_row
        try:
            yield conn
        finally:
            conn.row_factory = tuple_row


def fetch_one(settings: Settings, query: str, params: Params | None = None) -> Row | None:
    """The first row of ``query`` (dict), read on a connection of its own, or None."""
    with db(settings) as conn:
        row: Row | None = conn.execute(query, params).fetchone()
        return row


def fetch_all(settings: Settings, query: str, params: Params | None = None) -> list[Row]:
    """Every row of ``query`` (dicts), read on a connection of its own."""
    with db(settings) as conn:
        rows: list[Row] = conn.execute(query, params).fetchall()
        return rows


def jsonb(value: Any) -> Jsonb:
    """``value`` as a ``jsonb`` parameter (what JSON cannot hold is written as its ``str``)."""
    return Jsonb(json.loads(json.dumps(value, default=str)))


def insert_within_limit(
    settings: Settings,
    table: str,
    tenant: str,
    limit: int | None,
    count_active: Callable[[Conn, str], int],
    insert: Callable[[Conn], None],
) -> int | None:
    """Run ``insert`` in one transaction unless ``tenant`` has ``limit`` active rows of ``table``.

    With a ``limit``, a transaction-scoped advisory lock on ``table:tenant`` is taken first, so
    that the count and the insert are one step: concurrent requests of a tenant cannot all see
    room for one more and together exceed the limit.

    Args:
        settings: Settings naming the database.
        table: The table written (names the lock).
        tenant: Whose quota.
        limit: Active rows the tenant may have at most (None: no limit).
        count_active: ``(conn, tenant)`` → the tenant's active rows, read on ``conn``.
        insert: Writes the rows on ``conn`` (committed with the lock's transaction).

    Returns:
        The count of active rows when the limit is reached (nothing inserted), else None.
    """
    with db(settings) as conn:
        if limit is not None:
            conn.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (f"{table}:{tenant}",))
            active = count_active(conn, tenant)
            if active >= limit:
                return active
        insert(conn)
    return None
