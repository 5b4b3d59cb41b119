"""The queue's tasks (``procrastinate_jobs``) joined with the API rows they run.

A task is an ingestion job (its ``api_jobs`` row: ``ingestion_job_id``, ``file_name``) or a
debate run (its ``api_runs`` row: ``case_id``, ``protocol``); each row read here has the
task's ``id, task_name, state, attempts, scheduled_at, tenant`` and the ``error`` of its API
row. :mod:`disputatio.storage.queue` owns the queue itself; this module only reads it and
retries through it.
"""

from __future__ import annotations

from typing import Any, Literal

from disputatio.settings import Settings
from disputatio.storage import api_runs, queue
from disputatio.storage.api_db import db, fetch_all

_SELECT = (
    "SELECT q.id, q.task_name, q.status::text AS state, q.attempts, q.scheduled_at,"
    " q.args->>'tenant' AS tenant, a.id::text AS ingestion_job_id, a.file_name,"
    " r.id::text AS case_id, r.protocol, coalesce(a.error, r.error) AS error"
    " FROM procrastinate_jobs q"
    " LEFT JOIN api_jobs a ON q.task_name = %(ingest)s AND a.id::text = q.args->>'job_id'"
    " LEFT JOIN api_runs r ON q.task_name = %(debate)s AND r.id::text = q.args->>'run_id'"
    " WHERE q.queue_name = %(queue)s"
)

#: What :func:`retry_task` did.
RetryOutcome = Literal["queued", "missing", "forbidden", "not_failed"]


def _params(settings: Settings, **extra: Any) -> dict[str, Any]:
    return {
        "ingest": queue.TASK_INGEST,
        "debate": queue.TASK_DEBATE,
        "queue": settings.server.queue_name,
        **extra,
    }


def list_tasks(
    settings: Settings, tenant: str | None, state: str | None, limit: int
) -> list[dict[str, Any]]:
    """Tasks of the queue, newest first: the tenant's (every tenant's when None), in ``state``.

    ``state`` is one of :data:`disputatio.storage.queue.STATES` (None: any); callers check it.
    """
    queue.ensure_schema(settings)
    sql = _SELECT
    if tenant is not None:
        sql += " AND q.args->>'tenant' = %(tenant)s"
    if state is not None:
        sql += " AND q.status::text = %(state)s"
    sql += " ORDER BY q.id DESC LIMIT %(limit)s"
    return fetch_all(
        settings,
        sql,  # composed of constants only
        _params(settings, tenant=tenant, state=state, limit=limit),
    )


def retry_task(settings: Settings, job_id: int, tenant: str | None) -> RetryOutcome:
    """Put a failed task back in the queue (its run, if a debate, back to ``queued``).

    Args:
        settings: Settings.
        job_id: The queue job's id.
        tenant: The caller's tenant (None: an operator, any tenant).
    """
    queue.ensure_schema(settings)
    with db(settings) as conn:
        row = conn.execute(
            _SELECT + " AND q.id = %(id)s FOR UPDATE OF q",
            _params(settings, id=job_id),
        ).fetchone()
        if row is None:
            return "missing"
        if tenant is not None and row["tenant"] != tenant:
            return "forbidden"
        if not queue.retry(conn, job_id):
            return "not_failed"
        if row["case_id"] is not None:
            api_runs.reset_for_retry(conn, row["case_id"])
    return "queued"
