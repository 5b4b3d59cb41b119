"""The ``api_jobs`` table: ingestion jobs of the API (migrations ``0006_api``, ``0008``).

A job and its queue task (:mod:`disputatio.storage.queue`) are written in one transaction. The
queue owns the state of a job (queued, running, failed, cancelled: derived from
``procrastinate_jobs``, see :data:`JOB_STATUS`); ``api_jobs`` keeps what the API answers besides
(file, outcome, document, last error) and, since ``0009``, which job's task holds it in a
batch (``claimed_by``, ``claimed_at``: :func:`claim_batch`, :func:`finish_batch`, which also
finishes the waiting queue tasks of the jobs a batch recorded). Reads by a client take the owner
``tenant``.
"""

from __future__ import annotations

from typing import Any

from disputatio.settings import Settings
from disputatio.storage import queue
from disputatio.storage.api_db import Conn, db, fetch_one, insert_within_limit, jsonb

#: The API status of an ingestion job, from its queue job ``q`` and its row ``a`` (a row with no
#: queue job yet, or from before the queue, keeps the status it has). A job that another job's
#: task ingested (in its batch) shows its outcome at once, before its own task has run.
JOB_STATUS = (
    "CASE WHEN a.finished_at IS NOT NULL AND a.status IN ('succeeded', 'skipped') THEN a.status"
    " ELSE CASE q.status::text WHEN 'todo' THEN 'queued' WHEN 'doing' THEN 'running'"
    " WHEN 'failed' THEN 'failed' WHEN 'cancelled' THEN 'cancelled' WHEN 'aborted' THEN"
    " 'cancelled' ELSE a.status END END"
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
    ``document_id`` and ``bytes``, the file's size).

    With ``limit``, nothing is inserted when the tenant already has that many jobs queued or
    running: the count is returned (None when the job was inserted).
    """
    tenant = job["tenant"]

    def insert(conn: Conn) -> None:
        conn.execute(
            "INSERT INTO api_jobs (id, tenant, collection, file_name, path, sha256, request,"
            " status, document_id, bytes) VALUES (%s, %s, %s, %s, %s, %s, %s, 'queued', %s, %s)",
            (
                job["id"],
                tenant,
                job["collection"],
                job["file_name"],
                job["path"],
                job["sha256"],
                jsonb(job["request"]),
                job.get("document_id"),
                job.get("bytes"),
            ),
        )
        args = {"tenant": tenant, "job_id": job["id"]}
        queue_id = queue.defer(conn, settings, queue.TASK_INGEST, args)
        conn.execute("UPDATE api_jobs SET queue_job_id = %s WHERE id = %s", (queue_id, job["id"]))

    return insert_within_limit(settings, "api_jobs", tenant, limit, count_active, insert)


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
    return fetch_one(
        settings,
        f"SELECT a.id::text, {JOB_STATUS} AS status, a.document_id::text, a.file_name,"
        " a.collection, a.error, a.result, a.created_at, a.finished_at,"
        f" coalesce(q.attempts, 0) AS attempts FROM {_JOBS} WHERE a.id = %s AND a.tenant = %s",
        (job_id, tenant),
    )


def load_job(settings: Settings, job_id: str) -> dict[str, Any] | None:
    """A job as its task reads it (``id, tenant, collection, path, request``; any tenant)."""
    return fetch_one(
        settings,
        "SELECT id::text, tenant, collection, path, request FROM api_jobs WHERE id = %s",
        (job_id,),
    )


def active_jobs(settings: Settings, tenant: str) -> int:
    """Jobs of the tenant queued or running."""
    with db(settings) as conn:
        return count_active(conn, tenant)


# -- batches of queued jobs (migration 0009) -------------------------------------------------

#: Keys of a job's request that describe its one file: they go on its document alone, so jobs
#: differing only in them can be ingested in one graph run (the rest must be equal).
PER_FILE_KEYS = ("file_name", "mime_type", "url", "file_id")

_SAME_INPUTS = (
    "(a.request - %(per_file)s::text[]) = (SELECT j.request - %(per_file)s::text[]"
    " FROM api_jobs j WHERE j.id = %(id)s)"
)

#: Up to ``more`` queued, unfinished, never-failed jobs of the tenant, collection and inputs of
#: job ``id`` whose queue task waits (``todo``), unclaimed or claimed by ``id`` or by a batch
#: that stopped refreshing its claim (its worker died), oldest first, skipping rows another
#: transaction holds and locking the rest (with their sizes: :func:`claim_batch` claims those
#: its byte budget takes).
_CLAIMABLE = (
    "SELECT a.id::text, coalesce(a.bytes, 0) AS bytes FROM api_jobs a"
    " JOIN procrastinate_jobs q ON q.id = a.queue_job_id"
    " WHERE a.tenant = %(tenant)s AND a.collection = %(collection)s AND a.id <> %(id)s"
    " AND (a.claimed_by IS NULL OR a.claimed_by = %(id)s"
    " OR a.claimed_at < now() - make_interval(secs => %(stalled)s)) AND a.finished_at IS NULL"
    " AND a.error IS NULL AND a.status = 'queued' AND q.status = 'todo' AND " + _SAME_INPUTS +
    " ORDER BY a.created_at LIMIT %(more)s FOR UPDATE OF a SKIP LOCKED"
)  # fmt: skip


def _within(rows: list[dict[str, Any]], budget: int) -> list[str]:
    """Ids of the longest prefix of ``rows`` whose ``bytes`` add up to at most ``budget``."""
    ids, total = [], 0
    for row in rows:
        total += int(row["bytes"])
        if total > budget:
            break
        ids.append(row["id"])
    return ids


def claim_batch(
    settings: Settings, job_id: str, size: int, stalled_s: float, max_bytes: int | None = None
) -> tuple[str, list[dict[str, Any]]]:
    """Claim job ``job_id`` and up to ``size - 1`` jobs to ingest with it, in one transaction.

    With ``max_bytes``, the other jobs are taken oldest first only while the files of the whole
    batch, ``job_id``'s included, add up to at most that many bytes (``job_id`` is always
    claimed, however large).

    Returns:
        ``("done", [])`` when the job is gone or finished; ``("wait", [])`` when another job's
        task holds it (claimed less than ``stalled_s`` ago); else ``("claimed", jobs)``: the
        claimed jobs as :func:`load_job` reads them, ``job_id``'s first.
    """
    with db(settings) as conn, conn.transaction():
        row = conn.execute(
            "SELECT tenant, collection, finished_at, error, claimed_by::text, bytes,"
            " claimed_at < now() - make_interval(secs => %s) AS stale"
            " FROM api_jobs WHERE id = %s FOR UPDATE",
            (stalled_s, job_id),
        ).fetchone()
        if row is None or row["finished_at"] is not None:
            return "done", []
        if row["claimed_by"] not in (None, job_id) and not row["stale"]:
            return "wait", []
        conn.execute(
            "UPDATE api_jobs SET claimed_by = %s, claimed_at = now() WHERE id = %s",
            (job_id, job_id),
        )
        ids = [job_id]
        if size > 1 and row["error"] is None:  # a job that failed once is ingested alone
            args = {
                "id": job_id,
                "tenant": row["tenant"],
                "collection": row["collection"],
                "per_file": list(PER_FILE_KEYS),
                "more": size - 1,
                "stalled": stalled_s,
            }
            claimable = conn.execute(_CLAIMABLE, args).fetchall()
            if max_bytes is not None:
                others = _within(claimable, max_bytes - int(row["bytes"] or 0))
            else:
                others = [r["id"] for r in claimable]
            if others:
                conn.execute(
                    "UPDATE api_jobs SET claimed_by = %s, claimed_at = now()"
                    " WHERE id = ANY(%s::uuid[])",
                    (job_id, others),
                )
            ids += others
        rows = conn.execute(
            "SELECT id::text, tenant, collection, path, request FROM api_jobs"
            " WHERE id = ANY(%s::uuid[])",
            (ids,),
        ).fetchall()
    order = {job: i for i, job in enumerate(ids)}
    return "claimed", sorted(rows, key=lambda r: order[r["id"]])


def refresh_claims(settings: Settings, owner: str, job_ids: list[str]) -> None:
    """Stamp the claims ``owner`` still holds on ``job_ids`` as fresh (the batch is alive)."""
    with db(settings) as conn:
        conn.execute(
            "UPDATE api_jobs SET claimed_at = now() WHERE claimed_by = %s AND id = ANY(%s::uuid[])"
            " AND finished_at IS NULL",
            (owner, job_ids),
        )


#: Finish as ``succeeded`` the queue tasks of the recorded jobs that no worker has taken yet
#: (``todo``), with procrastinate's own ``procrastinate_finish_job_v1`` (the function its worker
#: finishes a job with; it accepts a ``todo`` job, and its trigger logs the event). The rows are
#: locked first, skipping those another transaction holds: ``procrastinate_fetch_job_v2`` takes
#: a task with ``FOR UPDATE SKIP LOCKED`` too, so a task is either finished here or run by a
#: worker (which then finds its job finished), never both.
_FINISH_WAITING_TASKS = (
    "SELECT procrastinate_finish_job_v1(t.id, 'succeeded', false) FROM ("
    " SELECT q.id FROM procrastinate_jobs q JOIN api_jobs a ON a.queue_job_id = q.id"
    " WHERE a.id = ANY(%s::uuid[]) AND q.status = 'todo' FOR UPDATE OF q SKIP LOCKED) t"
)


#: A skipped job's status: ``succeeded`` where the document it found is its own file's,
#: written after the job was submitted (by an earlier run of its own batch whose worker died
#: before recording it: the job did what it asked), else ``skipped`` (the content was there).
_OWN_DOCUMENT = (
    "CASE WHEN %(status)s = 'skipped' AND EXISTS (SELECT 1 FROM documents d"
    " WHERE d.id = %(document_id)s AND d.source_uri = %(source)s"
    " AND d.created_at >= a.created_at) THEN 'succeeded' ELSE %(status)s END"
)


def finish_batch(settings: Settings, owner: str, outcomes: list[dict[str, Any]]) -> list[str]:
    """Record the outcome of each job of a batch, finish their waiting tasks: one transaction.

    Each of ``outcomes`` holds ``id`` and either ``status`` (succeeded or skipped),
    ``document_id``, ``source`` (the job's file as documents name it, :data:`_OWN_DOCUMENT`),
    ``result`` and ``file_meta`` (the job's per-file metadata, stamped on the
    document it wrote; on a skipped one only the keys it lacks, which completes a document
    written by a batch whose worker died before this step), or ``error`` (the job failed in the
    batch: its claim is cleared so its own task ingests it alone). Jobs no longer claimed by
    ``owner`` (taken over by their own task) are left alone.

    The queue task of each job recorded here, other than ``owner``'s own (running), is finished
    as ``succeeded`` if no worker has taken it yet (:data:`_FINISH_WAITING_TASKS`), so no worker
    runs it only to find its job done; it shows ``succeeded`` with 0 attempts in ``GET /jobs``.
    A job failed in the batch, or not ours any more, keeps its task.

    Returns:
        The ids of the jobs recorded as finished (succeeded or skipped), in ``outcomes`` order.
    """
    recorded: list[str] = []
    with db(settings) as conn, conn.transaction():
        for out in outcomes:
            if out.get("status") is None:
                conn.execute(
                    "UPDATE api_jobs SET claimed_by = NULL, claimed_at = NULL, error = %s,"
                    " result = %s WHERE id = %s AND claimed_by = %s AND finished_at IS NULL",
                    (out["error"], jsonb(out.get("result")), out["id"], owner),
                )
                continue
            done = conn.execute(
                f"UPDATE api_jobs a SET status = {_OWN_DOCUMENT}, document_id = %(document_id)s,"
                " error = NULL, result = %(result)s, finished_at = now() WHERE id = %(id)s"
                " AND claimed_by = %(owner)s AND finished_at IS NULL RETURNING status",
                {
                    "status": out["status"],
                    "document_id": out["document_id"],
                    "source": out.get("source"),
                    "result": jsonb(out["result"]),
                    "id": out["id"],
                    "owner": owner,
                },
            ).fetchone()
            if done is None:
                continue
            recorded.append(out["id"])
            meta = out.get("file_meta")
            if meta and out.get("document_id"):
                merge = "metadata || %s" if done["status"] == "succeeded" else "%s || metadata"
                conn.execute(
                    f"UPDATE documents SET metadata = {merge} WHERE id = %s",
                    (jsonb(meta), out["document_id"]),
                )
        others = [job for job in recorded if job != owner]
        if others:
            conn.execute(_FINISH_WAITING_TASKS, (others,))
    return recorded
