"""The ``api_events`` table: the events of a debate run, in order (migration ``0006_api``).

Each event has a ``seq`` (1, 2, … per run) and a ``key`` unique per run, so an event written
twice (a step re-executed after a crash) is stored once. Appends to a run are serialised by an
advisory lock on the run id, the same lock :func:`disputatio.storage.api_runs.cancel_run` takes.
"""

from __future__ import annotations

from typing import Any

from disputatio.settings import Settings
from disputatio.storage.api_db import Conn, db, fetch_all, jsonb

_APPEND = (
    "INSERT INTO api_events (run_id, seq, key, type, data)"
    " SELECT %s, coalesce(max(seq), 0) + 1, %s, %s, %s FROM api_events WHERE run_id = %s"
    " ON CONFLICT (run_id, key) DO NOTHING RETURNING seq"
)


def append_in(conn: Conn, run_id: str, key: str, type_: str, data: dict[str, Any]) -> int | None:
    """Append an event on ``conn`` (in the caller's transaction, which holds the run's lock).

    Returns:
        Its seq, or None when the run already has an event with ``key``.
    """
    row = conn.execute(_APPEND, (run_id, key, type_, jsonb(data), run_id)).fetchone()
    return int(row["seq"]) if row else None


def append_event(
    settings: Settings, run_id: str, key: str, type_: str, data: dict[str, Any]
) -> int | None:
    """Append an event unless one with ``key`` exists; return its seq (None when a duplicate)."""
    with db(settings) as conn:
        conn.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (run_id,))
        return append_in(conn, run_id, key, type_, data)


def events_after(
    settings: Settings, run_id: str, after: int, limit: int = 200
) -> list[dict[str, Any]]:
    """Events of a run with ``seq > after`` (``seq, type, data``), in order."""
    return fetch_all(
        settings,
        "SELECT seq, type, data FROM api_events WHERE run_id = %s AND seq > %s"
        " ORDER BY seq LIMIT %s",
        (run_id, after, limit),
    )


def event_keys(settings: Settings, run_id: str) -> set[str]:
    """Keys of the events already stored for a run."""
    with db(settings) as conn:
        rows = conn.execute("SELECT key FROM api_events WHERE run_id = %s", (run_id,)).fetchall()
    return {r["key"] for r in rows}
