"""The connection the API's tables are read and written through (migrations ``0006``, ``0008``).

:func:`db` lends a pooled connection returning dict rows, :func:`jsonb` adapts a value for a
``jsonb`` column, and :func:`over_limit` is the per-tenant quota check that ``api_jobs`` and
``api_runs`` share. The queries themselves live in the module of their table
(:mod:`~disputatio.storage.api_jobs`, :mod:`~disputatio.storage.api_runs`,
:mod:`~disputatio.storage.api_events`, :mod:`~disputatio.storage.api_queue`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
from psycopg.rows import dict_row, tuple_row
from psycopg.types.json import Jsonb

from disputatio.settings import Settings
from disputatio.storage.db import get_pool

#: A connection whose rows are dicts (what :func:`db` lends).
Conn = psycopg.Connection[Any]


@contextmanager
def db(settings: Settings) -> Iterator[Conn]:
    """A pooled connection returning dict rows; commits when the block succeeds."""
    with get_pool(settings).connection() as conn:
        conn.row_factory = dict_row
        try:
            yield conn
        finally:
            conn.row_factory = tuple_row


def jsonb(value: Any) -> Jsonb:
    """``value`` as a ``jsonb`` parameter (what JSON cannot hold is written as its ``str``)."""
    return Jsonb(json.loads(json.dumps(value, default=str)))


def over_limit(
    conn: Conn, key: str, limit: int | None, count_active: Callable[[], int]
) -> int | None:
    """The active rows counted by ``count_active`` when they reach ``limit``, else None.

    Takes a transaction-scoped advisory lock on ``key`` (table and tenant) first, so that the
    count and the insert that follows in the same transaction are one step: concurrent requests
    of a tenant cannot all see room for one more and together exceed the limit.
    """
    if limit is None:
        return None
    conn.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (key,))
    active = count_active()
    return active if active >= limit else None
