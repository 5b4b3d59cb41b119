"""The ``api_runs`` table: the API's debate runs, or sessions (migrations ``0006``, ``0008``).

A run and its queue task (:mod:`disputatio.storage.queue`) are written in one transaction. A
run keeps its own status, which says more than the queue's (``interrupted`` waits for the
user; ``done`` is written with the verdict). Reads by a client take the owner ``tenant``, so a
query can never return another tenant's row; :func:`run_owner` tells "missing" (404) from
"someone else's" (403).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from disputatio.settings import Settings
from disputatio.storage import api_events, queue
from disputatio.storage.api_db import Conn, db, fetch_all, fetch_one, insert_within_limit, jsonb

#: Run statuses after which nothing more will be streamed.
TERMINAL = ("done", "failed", "cancelled")


def count_active(conn: Conn, tenant: str) -> int:
    """Runs of ``tenant`` queued or running, read on ``conn``.

    Interrupted runs wait for the user: they are not counted.
    """
    row = conn.execute(
        "SELECT count(*) AS n FROM api_runs WHERE tenant = %s AND status IN ('queued', 'running')",
        (tenant,),
    ).fetchone()
    return int(row["n"]) if row else 0


def create_run(settings: Settings, run: dict[str, Any], *, limit: int | None = None) -> int | None:
    """Insert a queued run (``id, tenant, protocol, question, request``) and its queue task.

    Both are written in one transaction.

    With ``limit``, nothing is inserted when the tenant already has that many runs queued or
    running: the count is returned (None when the run was inserted).
    """
    tenant = run["tenant"]

    def insert(conn: Conn) -> None:
        conn.execute(
            "INSERT INTO api_runs (id, tenant, protocol, question, request, status)"
            " VALUES (%s, %s, %s, %s, %s, 'queued')",
            (run["id"], tenant, run["protocol"], run["question"], jsonb(run["request"])),
        )
        _defer_run(conn, settings, run["id"], tenant)

    return insert_within_limit(settings, "api_runs", tenant, limit, count_active, insert)


def _defer_run(conn: Conn, settings: Settings, run_id: str, tenant: str) -> None:
    args = {"tenant": tenant, "run_id": run_id}
    # one lock per case: two tasks of a debate (a resume queued while it runs) never overlap
    queue_id = queue.defer(conn, settings, queue.TASK_DEBATE, args, lock=f"run:{run_id}")
    conn.execute("UPDATE api_runs SET queue_job_id = %s WHERE id = %s", (queue_id, run_id))


def requeue_run(settings: Settings, run_id: str, tenant: str, resume: Any) -> None:
    """Queue an interrupted run again with the user's answer (``resume``)."""
    with db(settings) as conn:
        conn.execute(
            "UPDATE api_runs SET status = 'queued', resume = %s WHERE id = %s",
            (jsonb(resume), run_id),
        )
        _defer_run(conn, settings, run_id, tenant)


def reset_for_retry(conn: Conn, run_id: str) -> None:
    """Put a failed run back to ``queued`` (no error, not finished), in the caller's transaction.

    Used when its queue task is retried (:func:`disputatio.storage.api_queue.retry_task`).
    """
    conn.execute(
        "UPDATE api_runs SET status = 'queued', error = NULL, finished_at = NULL WHERE id = %s",
        (run_id,),
    )


def load_run(settings: Settings, run_id: str) -> dict[str, Any] | None:
    """A run as its task reads it (any tenant), or None.

    Its keys: ``id, tenant, protocol, request, resume, status, queue_job_id``.
    """
    return fetch_one(
        settings,
        "SELECT id::text, tenant, protocol, request, resume, status, queue_job_id"
        " FROM api_runs WHERE id = %s",
        (run_id,),
    )


def update_run(settings: Settings, run_id: str, **fields: Any) -> bool:
    """Set columns of a run (``result``/``resume`` as JSON; finished when terminal).

    A cancelled run stays cancelled (a task that finishes a step after the cancellation writes
    nothing). Returns whether the row was updated.
    """
    with db(settings) as conn:
        return _update_in(conn, run_id, fields)


def update_run_with_events(
    settings: Settings,
    run_id: str,
    events: Sequence[tuple[str, str, dict[str, Any]]],
    **fields: Any,
) -> bool:
    """Append ``events`` (``(key, type, data)``) and set ``fields`` of a run, in one transaction.

    A client that reads an event and then the run sees the status the event announces: an
    ``interrupt`` event and ``interrupted``, the ``final`` event and ``done``. Written apart,
    the status lagged the event (a client polled ``running`` after the interrupt). A cancelled
    run gets neither. Returns whether the row was updated.
    """
    with db(settings) as conn:
        conn.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (run_id,))
        row = conn.execute(
            "SELECT status FROM api_runs WHERE id = %s FOR UPDATE", (run_id,)
        ).fetchone()
        if row is None or row["status"] == "cancelled":
            return False
        for key, type_, data in events:  # the events first, as everywhere
            api_events.append_in(conn, run_id, key, type_, data)
        return _update_in(conn, run_id, fields)


def _update_in(conn: Conn, run_id: str, fields: dict[str, Any]) -> bool:
    """:func:`update_run` on ``conn``, in the caller's transaction."""
    sets, args = [], []
    for key, value in fields.items():
        sets.append(f"{key} = %s")
        args.append(jsonb(value) if key in ("result", "resume") else value)
    if fields.get("status") in TERMINAL:
        sets.append("finished_at = now()")
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
        api_events.append_in(conn, run_id, "cancelled", "cancelled", {"status": "cancelled"})
        conn.execute(
            "UPDATE api_runs SET status = 'cancelled', finished_at = now() WHERE id = %s",
            (run_id,),
        )
        if row["queue_job_id"] is not None:
            queue.cancel(conn, settings, int(row["queue_job_id"]))
    return True


def run_owner(settings: Settings, run_id: str) -> str | None:
    """The tenant owning a run, or None when there is no such run."""
    row = fetch_one(settings, "SELECT tenant FROM api_runs WHERE id = %s", (run_id,))
    return row["tenant"] if row else None


def run_status(settings: Settings, run_id: str) -> str | None:
    """Status of a run (any tenant; callers checked ownership), or None."""
    row = fetch_one(settings, "SELECT status FROM api_runs WHERE id = %s", (run_id,))
    return row["status"] if row else None


def get_run(settings: Settings, tenant: str, run_id: str) -> dict[str, Any] | None:
    """The tenant's run with its count of ``events``, or None."""
    return fetch_one(
        settings,
        "SELECT id::text AS case_id, protocol, question, request, status, error, result,"
        " created_at, finished_at, (SELECT count(*) FROM api_events e WHERE e.run_id = r.id)"
        " AS events FROM api_runs r WHERE id = %s AND tenant = %s",
        (run_id, tenant),
    )


def list_runs(settings: Settings, tenant: str, limit: int) -> list[dict[str, Any]]:
    """The tenant's runs, newest first."""
    return fetch_all(
        settings,
        "SELECT id::text AS case_id, protocol, question, status, error, created_at,"
        " finished_at FROM api_runs WHERE tenant = %s ORDER BY created_at DESC LIMIT %s",
        (tenant, limit),
    )


def delete_run(settings: Settings, tenant: str, run_id: str) -> bool:
    """Delete the tenant's run and its events; True when one was deleted."""
    with db(settings) as conn:
        cur = conn.execute("DELETE FROM api_runs WHERE id = %s AND tenant = %s", (run_id, tenant))
        return cur.rowcount > 0
