"""The ``calibrations`` table (migration 0002): what ``disputatio calibrate`` fitted, per tenant.

A row holds one fit for a tenant, reranker and miscoverage ``alpha``: the conformal trim
``threshold``, the number of examples ``n`` and the rest of the fit in ``details`` (JSON: the
refusal threshold, the Platt parameters...). Rows are only added; the latest one counts.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import psycopg

#: A connection returning tuple rows.
Conn = psycopg.Connection[Any]


def latest_calibration(
    conn: Conn, tenant: str, reranker: str, alpha: float
) -> tuple[float, dict[str, Any] | None] | None:
    """The latest ``(threshold, details)`` of this tenant, reranker and ``alpha``, or None.

    ``alpha`` matches within 1e-6; of equal creation times the last inserted row wins.
    """
    row = conn.execute(
        "SELECT threshold, details FROM calibrations WHERE tenant = %s AND reranker = %s"
        " AND abs(alpha - %s) < 1e-6 ORDER BY created_at DESC, id DESC LIMIT 1",
        (tenant, reranker, alpha),
    ).fetchone()
    return None if row is None else (float(row[0]), row[1])


def insert_calibration(
    conn: Conn,
    tenant: str,
    reranker: str,
    alpha: float,
    threshold: float,
    n: int,
    details: Mapping[str, Any],
) -> None:
    """Add a fit (``details`` is written as JSON)."""
    conn.execute(
        "INSERT INTO calibrations (tenant, reranker, alpha, threshold, n, details)"
        " VALUES (%s, %s, %s, %s, %s, %s)",
        (tenant, reranker, alpha, threshold, n, json.dumps(details)),
    )
