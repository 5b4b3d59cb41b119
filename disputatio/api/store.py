"""The API's own tables: ingestion jobs, debate runs and their events.

Migrations ``0006_api`` and ``0008_queue_jobs``; each job or run is tied to the queue task that
runs it.

Every function takes the owner ``tenant`` where a row is read by a client, so a query can never
return another tenant's row; :func:`run_owner` tells "missing" (404) from "someone else's" (403).

A job or run and its queue task (:mod:`disputatio.storage.queue`) are written in one
transaction. The queue owns the state of a job (queued, running, failed, cancelled: derived
from ``procrastinate_jobs``, see :data:`JOB_STATUS`); ``api_jobs`` keeps what the API answers
besides (file, outcome, document, last error). A run keeps its own status, which says more
than the queue's (``interrupted`` waits for the user; ``done`` is written with the verdict).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Literal

import psycopg
from psycopg.rows import dict_row
from psycopg.types.json import Jsonb

from disputatio.settings import Settings
from disputatio.storage import queue
from disputatio.storage.db import get_pool

#: Run statuses after which nothing more will be streamed.
TERMINAL = ("done", "failed", "cancelled")

#: The API status of an ingestion job, from its queue job ``q`` and its row ``a`` (a row with no
#: queue job yet, or from before the queue, keeps the status it has).
JOB_STATUS = (
    "CASE q.status::text WHEN 'todo' THEN 'queued' WHEN 'doing' THEN 'running'"
    " WHEN 'failed' THEN 'failed' WHEN 'cancelled' THEN 'cancelled' WHEN 'aborted' THEN"
    " 'cancelled' ELSE a.status END"
)
_JOBS = "api_jobs a LEFT JOIN procrastinate_jobs q ON q.id = a.queue_job_id"


@contextmanager
def db(settings: Settings) -> Iterator[psycopg.Connection[Any]]:
    """A pooled connection returning dict rows; commits when the block succeeds."""
    with get_pool(settings).connection() as conn:
        conn.row_factory = dict_row
        try:
            yield conn
        finally:
            conn.row_factory = psycopg.rows.tuple_row


def _json(value: Any) -> Jsonb:
    return Jsonb(json.loads(json.dumps(value, default=str)))


# --- ingestion jobs -------------------------------------------------------------------------


def _over_limit(
    conn: psycopg.Connection[Any],
    table: Literal["api_jobs", "api_runs"],
    tenant: str,
    limit: int | None,
) -> int | None:
    """The tenant's queued or running rows of ``table`` when they reach ``limit``, else None.

    Takes a transaction-scoped advisory lock on (table, tenant) first, so that the count and the
    insert that follows in the same transaction are one step: concurrent requests of a tenant
    cannot all see room for one more and together exceed the limit.
    """
    if limit is None:
        return None
    conn.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (f"{table}:{tenant}",))
    active = _count_active(conn, table, tenant)
    return active if active >= limit else None


def _count_active(
    conn: psycopg.Connection[Any], table: Literal["api_jobs", "api_runs"], tenant: str
) -> int:
    if table == "api_jobs":
        sql = (
            f"SELECT count(*) AS n FROM {_JOBS} WHERE a.tenant = %s"
            f" AND ({JOB_STATUS}) IN ('queued', 'running')"
        )
    else:
        sql = (
            "SELECT count(*) AS n FROM api_runs WHERE tenant = %s"
            " AND status IN ('queued', 'running')"
        )
    row = conn.execute(sql, (tenant,)).fetchone()
    return int(row["n"]) if row else 0


def create_job(settings: Settings, job: dict[str, Any], *, limit: int | None = None) -> int | None:
    """Insert a queued job and its queue task, in one transaction.

    ``job`` holds ``id, tenant, collection, file_name, path, sha256, request``.

    With ``limit``, nothing is inserted when the tenant already has that many jobs queued or
    running: the count is returned (None when the job was inserted).
    """
    with db(settings) as conn:
        if (active := _over_limit(conn, "api_jobs", job["tenant"], limit)) is not None:
            return active
        conn.execute(
            "INSERT INTO api_jobs (id, tenant, collection, file_name, path, sha256, request,"
            " status, document_id) VALUES (%s, %s, %s, %s, %s, %s, %s, 'queued', %s)",
            (
                job["id"],
                job["tenant"],
                job["collection"],
                job["file_name"],
                job["path"],
                job["sha256"],
                _json(job["request"]),
                job.get("document_id"),
            ),
        )
        args = {"tenant": job["tenant"], "job_id": job["id"]}
        queue_id = queue.defer(conn, settings, queue.TASK_INGEST, args)
        conn.execute("UPDATE api_jobs SET queue_job_id = %s WHERE id = %s", (queue_id, job["id"]))
    return None


def update_job(settings: Settings, job_id: str, **fields: Any) -> None:
    """Set ``status``, ``document_id``, ``error``, ``result`` of a job (finished when terminal)."""
    sets, args = [], []
    for key, value in fields.items():
        sets.append(f"{key} = %s")
        args.append(_json(value) if key == "result" else value)
    if fields.get("status") in ("succeeded", "skipped", "failed"):
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
    """A job as its task reads it (any tenant), or None."""
    with db(settings) as conn:
        return conn.execute(
            "SELECT id::text, tenant, collection, path, request FROM api_jobs WHERE id = %s",
            (job_id,),
        ).fetchone()


def _active(settings: Settings, table: Literal["api_jobs", "api_runs"], tenant: str) -> int:
    """Rows of ``table`` for the tenant that are queued or running."""
    with db(settings) as conn:
        return _count_active(conn, table, tenant)


def active_jobs(settings: Settings, tenant: str) -> int:
    """Jobs of the tenant queued or running."""
    return _active(settings, "api_jobs", tenant)


# --- documents ------------------------------------------------------------------------------


def document_for_hash(settings: Settings, tenant: str, sha256: str) -> str | None:
    """Id of the tenant's document with this content hash, if already ingested."""
    with db(settings) as conn:
        row = conn.execute(
            "SELECT id::text AS id FROM documents WHERE tenant = %s AND sha256 = %s",
            (tenant, sha256),
        ).fetchone()
    return row["id"] if row else None


def list_documents(settings: Settings, tenant: str, limit: int) -> list[dict[str, Any]]:
    """The tenant's documents, newest first (no text)."""
    with db(settings) as conn:
        return conn.execute(
            "SELECT id::text AS document_id, title, source_uri, collection, kind, tags,"
            " metadata, n_pages, created_at FROM documents WHERE tenant = %s"
            " ORDER BY created_at DESC LIMIT %s",
            (tenant, limit),
        ).fetchall()


def get_document(settings: Settings, tenant: str, document_id: str) -> dict[str, Any] | None:
    """One of the tenant's documents with its text, or None."""
    with db(settings) as conn:
        return conn.execute(
            "SELECT id::text AS document_id, title, source_uri, collection, kind, tags, metadata,"
            " n_pages, markdown FROM documents WHERE id = %s AND tenant = %s",
            (document_id, tenant),
        ).fetchone()


def get_parent_chunk(settings: Settings, tenant: str, chunk_id: str) -> dict[str, Any] | None:
    """One of the tenant's parent sections (the source of a citation), or None."""
    with db(settings) as conn:
        return conn.execute(
            "SELECT p.id AS parent_chunk_id, p.document_id::text AS document_id, p.text,"
            " p.page, p.heading_path, d.title, d.source_uri FROM parent_chunks p"
            " JOIN documents d ON d.id = p.document_id WHERE p.id = %s AND p.tenant = %s",
            (chunk_id, tenant),
        ).fetchone()


# --- runs (sessions) ------------------------------------------------------------------------


def create_run(settings: Settings, run: dict[str, Any], *, limit: int | None = None) -> int | None:
    """Insert a queued run (``id, tenant, protocol, question, request``) and its queue task.

    Both are written in one transaction.

    With ``limit``, nothing is inserted when the tenant already has that many runs queued or
    running: the count is returned (None when the run was inserted).
    """
    with db(settings) as conn:
        if (active := _over_limit(conn, "api_runs", run["tenant"], limit)) is not None:
            return active
        conn.execute(
            "INSERT INTO api_runs (id, tenant, protocol, question, request, status)"
            " VALUES (%s, %s, %s, %s, %s, 'queued')",
            (run["id"], run["tenant"], run["protocol"], run["question"], _json(run["request"])),
        )
        _defer_run(conn, settings, run["id"], run["tenant"])
    return None


def _defer_run(conn: psycopg.Connection[Any], settings: Settings, run_id: str, tenant: str) -> None:
    args = {"tenant": tenant, "run_id": run_id}
    # one lock per case: two tasks of a debate (a resume queued while it runs) never overlap
    queue_id = queue.defer(conn, settings, queue.TASK_DEBATE, args, lock=f"run:{run_id}")
    conn.execute("UPDATE api_runs SET queue_job_id = %s WHERE id = %s", (queue_id, run_id))


def requeue_run(settings: Settings, run_id: str, tenant: str, resume: Any) -> None:
    """Queue an interrupted run again with the user's answer (``resume``)."""
    with db(settings) as conn:
        conn.execute(
            "UPDATE api_runs SET status = 'queued', resume = %s WHERE id = %s",
            (_json(resume), run_id),
        )
        _defer_run(conn, settings, run_id, tenant)


def load_run(settings: Settings, run_id: str) -> dict[str, Any] | None:
    """A run as its task reads it (any tenant), or None."""
    with db(settings) as conn:
        return conn.execute(
            "SELECT id::text, tenant, protocol, request, resume, status, queue_job_id"
            " FROM api_runs WHERE id = %s",
            (run_id,),
        ).fetchone()


def update_run(settings: Settings, run_id: str, **fields: Any) -> bool:
    """Set columns of a run (``result``/``resume`` as JSON; finished when terminal).

    A cancelled run stays cancelled (a task that finishes a step after the cancellation writes
    nothing). Returns whether the row was updated.
    """
    sets, args = [], []
    for key, value in fields.items():
        sets.append(f"{key} = %s")
        args.append(_json(value) if key in ("result", "resume") else value)
    if fields.get("status") in TERMINAL:
        sets.append("finished_at = now()")
    with db(settings) as conn:
        cur = conn.execute(
            f"UPDATE api_runs SET {', '.join(sets)} WHERE id = %s AND status <> 'cancelled'",
            (*args, run_id),
        )
        return cur.rowcount > 0


def cancel_run(settings: Settings, run_id: str) -> bool:
    """Cancel a run that has not finished; False when it has.

    Writes its ``cancelled`` event and status and cancels its queue task (dropped, or aborted at
    its next step), in one transaction.
    """
    with db(settings) as conn:
        conn.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (run_id,))
        row = conn.execute(
            "SELECT status, queue_job_id FROM api_runs WHERE id = %s FOR UPDATE", (run_id,)
        ).fetchone()
        if row is None or row["status"] in TERMINAL:
            return False
        # the event first, as everywhere: a stream that sees the status has the event to send
        conn.execute(
            "INSERT INTO api_events (run_id, seq, key, type, data)"
            " SELECT %s, coalesce(max(seq), 0) + 1, 'cancelled', 'cancelled', %s"
            " FROM api_events WHERE run_id = %s ON CONFLICT (run_id, key) DO NOTHING",
            (run_id, _json({"status": "cancelled"}), run_id),
        )
        conn.execute(
            "UPDATE api_runs SET status = 'cancelled', finished_at = now() WHERE id = %s",
            (run_id,),
        )
        if row["queue_job_id"] is not None:
            queue.cancel(conn, settings, int(row["queue_job_id"]))
    return True


def run_owner(settings: Settings, run_id: str) -> str | None:
    """The tenant owning a run, or None when there is no such run."""
    with db(settings) as conn:
        row = conn.execute("SELECT tenant FROM api_runs WHERE id = %s", (run_id,)).fetchone()
    return row["tenant"] if row else None


def get_run(settings: Settings, tenant: str, run_id: str) -> dict[str, Any] | None:
    """The tenant's run, or None."""
    with db(settings) as conn:
        return conn.execute(
            "SELECT id::text AS case_id, protocol, question, request, status, error, result,"
            " created_at, finished_at, (SELECT count(*) FROM api_events e WHERE e.run_id = r.id)"
            " AS events FROM api_runs r WHERE id = %s AND tenant = %s",
            (run_id, tenant),
        ).fetchone()


def list_runs(settings: Settings, tenant: str, limit: int) -> list[dict[str, Any]]:
    """The tenant's runs, newest first."""
    with db(settings) as conn:
        return conn.execute(
            "SELECT id::text AS case_id, protocol, question, status, error, created_at,"
            " finished_at FROM api_runs WHERE tenant = %s ORDER BY created_at DESC LIMIT %s",
            (tenant, limit),
        ).fetchall()


def active_runs(settings: Settings, tenant: str) -> int:
    """Runs of the tenant queued or running (interrupted ones wait for the user: not counted)."""
    return _active(settings, "api_runs", tenant)


def delete_run(settings: Settings, tenant: str, run_id: str) -> bool:
    """Delete the tenant's run and its events; True when one was deleted."""
    with db(settings) as conn:
        cur = conn.execute("DELETE FROM api_runs WHERE id = %s AND tenant = %s", (run_id, tenant))
        return cur.rowcount > 0


# --- events ---------------------------------------------------------------------------------


def append_event(
    settings: Settings, run_id: str, key: str, type_: str, data: dict[str, Any]
) -> int | None:
    """Append an event unless one with ``key`` exists; return its seq (None when a duplicate)."""
    with db(settings) as conn:
        conn.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (run_id,))
        row = conn.execute(
            "INSERT INTO api_events (run_id, seq, key, type, data)"
            " SELECT %s, coalesce(max(seq), 0) + 1, %s, %s, %s FROM api_events WHERE run_id = %s"
            " ON CONFLICT (run_id, key) DO NOTHING RETURNING seq",
            (run_id, key, type_, _json(data), run_id),
        ).fetchone()
    return int(row["seq"]) if row else None


def events_after(settings: Settings, run_id: str, after: int, limit: int = 200) -> list[Any]:
    """Events of a run with ``seq > after``, in order."""
    with db(settings) as conn:
        return conn.execute(
            "SELECT seq, type, data FROM api_events WHERE run_id = %s AND seq > %s"
            " ORDER BY seq LIMIT %s",
            (run_id, after, limit),
        ).fetchall()


def event_keys(settings: Settings, run_id: str) -> set[str]:
    """Keys of the events already stored for a run."""
    with db(settings) as conn:
        rows = conn.execute("SELECT key FROM api_events WHERE run_id = %s", (run_id,)).fetchall()
    return {r["key"] for r in rows}


def run_status(settings: Settings, run_id: str) -> str | None:
    """Status of a run (any tenant; callers checked ownership), or None."""
    with db(settings) as conn:
        row = conn.execute("SELECT status FROM api_runs WHERE id = %s", (run_id,)).fetchone()
    return row["status"] if row else None
