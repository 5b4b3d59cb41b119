"""The queue's tasks as a resource: ``GET /jobs``, ``POST /jobs/{id}/retry``.

The dead letter is ``GET /jobs?state=failed``; the same queries serve ``disputatio jobs
list|retry``.

A job here is one task of the queue (:mod:`disputatio.storage.queue`): an ingestion job
(``kind: ingest``, with its ``ingestion_job_id`` and file name) or a debate run (``kind:
debate``, with its ``case_id``), its state (``todo``, ``doing``, ``succeeded``, ``failed``,
``cancelled``, ``aborted``), the attempts made and the last error. Clients see their tenant's
jobs only; the CLI, an operator's tool, sees every tenant's.
"""

from __future__ import annotations

from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse

from disputatio.api.errors import ApiError, invalid
from disputatio.api.http import services, tenant
from disputatio.settings import Settings
from disputatio.storage import api_queue, queue
from disputatio.storage.api_queue import RetryOutcome

_KINDS = {queue.TASK_INGEST: "ingest", queue.TASK_DEBATE: "debate"}


def _body(row: dict[str, Any], settings: Settings) -> dict[str, Any]:
    from disputatio.api.uploads import scrub

    kind = _KINDS.get(row["task_name"], row["task_name"])
    body: dict[str, Any] = {
        "id": row["id"],
        "kind": kind,
        "state": row["state"],
        "attempts": row["attempts"],
        "max_attempts": settings.server.job_attempts,
        "error": scrub(row["error"], settings) if row["error"] else None,
        "scheduled_at": row["scheduled_at"].isoformat() if row["scheduled_at"] else None,
    }
    if kind == "ingest":
        body.update(ingestion_job_id=row["ingestion_job_id"], file_name=row["file_name"])
    elif kind == "debate":
        body.update(case_id=row["case_id"], protocol=row["protocol"])
    return body


def list_queue_jobs(
    settings: Settings, tenant: str | None, state: str | None, limit: int = 100
) -> list[dict[str, Any]]:
    """Tasks of the queue, newest first: the tenant's (every tenant's when None), in ``state``.

    Raises:
        ValueError: ``state`` is not a queue state.
    """
    if state is not None and state not in queue.STATES:
        raise ValueError(f"state must be one of {', '.join(queue.STATES)}")
    rows = api_queue.list_tasks(settings, tenant, state, limit)
    return [{**_body(r, settings), "tenant": r["tenant"]} for r in rows]


def retry_queue_job(settings: Settings, job_id: int, tenant: str | None) -> RetryOutcome:
    """Put a failed task back in the queue (its run, if a debate, back to ``queued``).

    Args:
        settings: Settings.
        job_id: The queue job's id.
        tenant: The caller's tenant (None: an operator, any tenant).
    """
    return api_queue.retry_task(settings, job_id, tenant)


async def list_jobs(request: Request) -> JSONResponse:
    """The tenant's queue tasks, newest first; ``?state=failed`` is the dead letter."""
    who = tenant(request)
    settings = services(request).settings
    state = request.query_params.get("state") or None
    if state is not None and state not in queue.STATES:
        raise invalid("state", f"one of {', '.join(queue.STATES)}")
    raw = request.query_params.get("limit", "100")
    if not raw.isdigit() or not 1 <= int(raw) <= 500:
        raise invalid("limit", "an integer from 1 to 500")
    rows = await run_in_threadpool(list_queue_jobs, settings, who, state, int(raw))
    return JSONResponse({"jobs": [{k: v for k, v in r.items() if k != "tenant"} for r in rows]})


async def retry(request: Request) -> JSONResponse:
    """Queue a failed task again (404 missing, 403 another tenant's, 409 not failed)."""
    who = tenant(request)
    raw = request.path_params["job_id"]
    if not raw.isdigit():
        raise ApiError(404, "NOT_FOUND", f"no job {raw}")
    job_id = int(raw)
    outcome = await run_in_threadpool(retry_queue_job, services(request).settings, job_id, who)
    if outcome == "missing":
        raise ApiError(404, "NOT_FOUND", f"no job {job_id}")
    if outcome == "forbidden":
        raise ApiError(403, "FORBIDDEN", "this job belongs to another tenant")
    if outcome == "not_failed":
        raise ApiError(409, "NOT_FAILED", f"job {job_id} has not failed: nothing to retry")
    return JSONResponse({"id": job_id, "state": "todo"}, status_code=202)
