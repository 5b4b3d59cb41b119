"""The ``api_jobs`` table: ingestion jobs of the API (migrations ``0006_api``, ``0008``).

A job and its queue task (:mod:`disputatio.storage.queue`) are written in one transaction. The
queue owns the state of a job (queued, running, failed, cancelled: derived from
``procrastinate_jobs``, see :data:`JOB_STATUS`); ``api_jobs`` keeps what the API answers besides
(file, outcome, document, last error). Reads by a client take the owner ``tenant``.
"""

from __future__ import annotations

from typing import Any

from disputatio.settings import Settings
from disputatio.storage import queue
from disputatio.storage.api_db import Conn, db, jsonb, over_limit

#: The API status of an ingestion job, from its queue job ``q`` and its row ``a`` (a row with no
#: queue job yet, or from before the queue, keeps the status it has).
JOB_STATUS = (
    "CASE q.status::text WHEN 'todo' THEN 'queued' WHEN 'doing' THEN 'running'"
    " WHEN 'failed' THEN 'failed' WHEN 'cancelled' THEN 'cancelled' WHEN 'aborted' THEN"
    " 'cancelled' ELSE a.status END"
)
_JOBS = "api_jobs a LEFT JOIN procrastinate_jobs q ON q.id = a.queue_job_id"

#: Statuses after which a job is finished (``finished_at`` is set with them).
FINISHED = ("succeeded", "skipped", "failed")


def count_active(conn: Conn, tenant: str) -> int:
    """Jobs of ``tenant`` queued or running, read on ``conn``."""
    row = conn.execute(
        f"SELECT count(*) AS n FROM {_JOBS} WHERE a.tenant = %s"
        f" AND ({JOB_STATUS}) IN ('queued', 'running')",
        (tenant,),
    ).fetchone()
    return int(row["n"]) if row else 0


def create_job(settings: Settings, job: dict[str, Any], *, limit: int | None = None) -> int | None:
    """Insert a queued job and its queue task, in one transaction.

    ``job`` holds ``id, tenant, collection, file_name, path, sha256, request`` (and optionally
    ``document_id``).

    With ``limit``, nothing is inserted when the tenant already has that many jobs queued or
    running: the count is returned (None when the job was inserted).
    """
    tenant = job["tenant"]
    with db(settings) as conn:
        active = over_limit(conn, f"api_jobs:{tenant}", limit, lambda: count_active(conn, tenant))
        if active is not None:
            return active
        conn.execute(
            "INSERT INTO api_jobs (id, tenant, collection, file_name, path, sha256, request,"
            " status, document_id) VALUES (%s, %s, %s, %s, %s, %s, %s, 'queued', %s)",
            (
                job["id"],
                tenant,
                job["collection"],
                job["file_name"],
                job["path"],
                job["sha256"],
                jsonb(job["request"]),
                job.get("document_id"),
            ),
        )
        args = {"tenant": tenant, "job_id": job["id"]}
        queue_id = queue.defer(conn, settings, queue.TASK_INGEST, args)
        conn.execute("UPDATE api_jobs SET queue_job_id = %s WHERE id = %s", (queue_id, job["id"]))
    return None


def update_job(settings: Settings, job_id: str, **fields: Any) -> None:
    """Set ``status``, ``document_id``, ``error``, ``result`` of a job (finished when terminal)."""
    sets, args = [], []
    for key, value in fields.items():
        sets.append(f"{key} = %s")
        args.append(jsonb(value) if key == "result" else value)
    if fields.get("status") in FINISHED:
        sets.append("finished_at = now()")
    with db(settings) as conn:
        conn.execute(f"UPDATE api_jobs SET {', '.join(sets)} WHERE id = %s", (*args, job_id))


def get_job(settings: Settings, tenant: str, job_id: str) -> dict[str, Any] | None:
    """The tenant's job (its status from the queue, ``attempts`` made so far), or None."""
    with db(settings) as conn:
        return conn.execute(
            f"SELECT a.id::text, {JOB_STATUS} AS status, a.document_id::text, a.file_name,"
            " a.collection, a.error, a.result, a.created_at, a.finished_at,"
            f" coalesce(q.attempts, 0) AS attempts FROM {_JOBS} WHERE a.id = %s AND a.tenant = %s",
            (job_id, tenant),
        ).fetchone()


def load_job(settings: Settings, job_id: str) -> dict[str, Any] | None:
    """A job as its task reads it (``id, tenant, collection, path, request``; any tenant)."""
    with db(settings) as conn:
        return conn.execute(
            "SELECT id::text, tenant, collection, path, request FROM api_jobs WHERE id = %s",
            (job_id,),
        ).fetchone()


def active_jobs(settings: Settings, tenant: str) -> int:
    """Jobs of the tenant queued or running."""
    with db(settings) as conn:
        return count_active(conn, tenant)
