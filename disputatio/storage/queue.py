"""The durable task queue: procrastinate on the application database.

Ingestion jobs and debate runs are tasks of a procrastinate_ queue (``server.queue_name``,
``disputatio`` by default) in the same
Postgres database as everything else, so any number of ``disputatio serve`` and
``disputatio worker`` processes that share the ``DATABASE_URL`` share the work. The library
holds the queue state (``procrastinate_jobs``: todo, doing, succeeded, failed, cancelled,
aborted), the attempts, the scheduled retries, the worker heartbeats and the cancellation
requests; this module adds what it leaves to its users:

* :func:`ensure_schema` applies procrastinate's schema once per database, idempotently and
  under an advisory lock (two processes starting at once);
* :func:`defer` enqueues a task inside the caller's transaction, so the row that names a task
  and the task itself are written together or not at all;
* :func:`reap_stalled` gives the tasks of a dead worker (no heartbeat for
  ``server.worker_stalled_s``) to the others, or to the dead letter when their attempts are
  spent;
* :func:`queue_counts` (queue depth per state, for metrics), :func:`retry` and :func:`cancel`.

What a task *does* is not here (storage imports nothing above it): see
:mod:`disputatio.api.worker`.

.. _procrastinate: https://procrastinate.readthedocs.io/
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import threading
from collections.abc import Callable, Mapping
from typing import Any

import psycopg
from procrastinate import App, BaseRetryStrategy, PsycopgConnector, RetryDecision
from procrastinate.jobs import Job, Status
from procrastinate.manager import JobManager

from disputatio.errors import DatabaseError
from disputatio.settings import Settings
from disputatio.storage.db import database_url

logger = logging.getLogger(__name__)

#: Task names.
TASK_INGEST = "disputatio.ingest"
TASK_DEBATE = "disputatio.debate"
#: A task that does nothing: the queue's own round trip (benchmarks/scale_out.py).
TASK_PING = "disputatio.ping"
#: Every state a queue job can be in (procrastinate's ``procrastinate_job_status``).
STATES = ("todo", "doing", "succeeded", "failed", "cancelled", "aborted")

_SCHEMA_LOCK = 0x7072_6F63  # "proc"
_ready: set[str] = set()
_managers: dict[str, JobManager] = {}
_lock = threading.Lock()


def ensure_schema(settings: Settings) -> None:
    """Apply procrastinate's schema to the database unless it is there (idempotent).

    Raises:
        DatabaseError: The schema cannot be applied.
    """
    url = database_url(settings)
    if url in _ready:
        return
    with _lock:
        if url in _ready:
            return
        try:
            with psycopg.connect(url, autocommit=True) as conn:
                conn.execute("SELECT pg_advisory_lock(%s)", (_SCHEMA_LOCK,))
                try:
                    row = conn.execute("SELECT to_regclass('procrastinate_jobs')").fetchone()
                    if row is None or row[0] is None:
                        from procrastinate.schema import SchemaManager

                        schema = SchemaManager.get_schema()
                        with conn.transaction():
                            conn.execute(schema)
                        logger.info("applied the procrastinate schema")
                finally:
                    conn.execute("SELECT pg_advisory_unlock(%s)", (_SCHEMA_LOCK,))
        except psycopg.Error as exc:
            message = f"cannot apply the task queue schema: {exc}".splitlines()[0]
            raise DatabaseError(message) from exc
        _ready.add(url)


def _manager(settings: Settings) -> JobManager:
    """A job manager for synchronous calls on a caller's connection (no pool of its own)."""
    url = database_url(settings)
    with _lock:
        manager = _managers.get(url)
        if manager is None:
            manager = JobManager(PsycopgConnector(conninfo=url))
            _managers[url] = manager
    return manager


def worker_app(settings: Settings) -> App:
    """A fresh procrastinate app for a worker (its async pool opens in the worker's loop)."""
    ensure_schema(settings)
    url = database_url(settings)
    size = settings.server.worker_concurrency + 4  # tasks, fetch, heartbeat, abort poll, reaper
    return App(connector=PsycopgConnector(conninfo=url, min_size=1, max_size=size))


def defer(
    conn: psycopg.Connection[Any],
    settings: Settings,
    task: str,
    kwargs: Mapping[str, Any],
    *,
    lock: str | None = None,
) -> int:
    """Enqueue ``task(**kwargs)`` in the transaction of ``conn``; return the queue job's id.

    Args:
        conn: An open connection; the job exists once its transaction commits (a worker is
            notified then).
        settings: Settings (the database).
        task: Task name (``TASK_INGEST`` or ``TASK_DEBATE``).
        kwargs: The task's JSON arguments; ``tenant`` among them scopes listings.
        lock: Jobs with the same lock never run at once (a debate's case id).
    """
    ensure_schema(settings)
    job = Job(
        id=None,
        queue=settings.server.queue_name,
        lock=lock,
        queueing_lock=None,
        task_name=task,
        task_kwargs=dict(kwargs),
    )
    deferred = _manager(settings).defer_job(job, connection=conn)
    assert deferred.id is not None
    return int(deferred.id)


def queue_counts(settings: Settings) -> dict[str, int]:
    """Jobs of the queue per state (every state of :data:`STATES`, zero when none)."""
    ensure_schema(settings)
    with psycopg.connect(database_url(settings), autocommit=True) as conn:
        rows = conn.execute(
            "SELECT status::text, count(*) FROM procrastinate_jobs WHERE queue_name = %s"
            " GROUP BY status",
            (settings.server.queue_name,),
        ).fetchall()
    counts = dict.fromkeys(STATES, 0)
    counts.update({str(status): int(n) for status, n in rows})
    return counts


def job_state(conn: psycopg.Connection[Any], job_id: int) -> tuple[str, int] | None:
    """(state, attempts) of a queue job, or None."""
    row = conn.execute(
        "SELECT status::text, attempts FROM procrastinate_jobs WHERE id = %s", (job_id,)
    ).fetchone()
    if row is None:
        return None
    values = list(row.values()) if isinstance(row, dict) else list(row)
    return str(values[0]), int(values[1])


def retry(conn: psycopg.Connection[Any], job_id: int) -> bool:
    """Put a failed (dead-lettered) job back in the queue, to run now; False if not failed."""
    state = job_state(conn, job_id)
    if state is None or state[0] != "failed":
        return False
    conn.execute(
        "SELECT procrastinate_retry_job_v2(%s, now(), NULL, NULL, NULL)", (job_id,)
    )  # the library's own retry: the attempt counter goes on
    return True


def cancel(conn: psycopg.Connection[Any], settings: Settings, job_id: int) -> bool:
    """Cancel a queued job, or ask its worker to abort it when running; False if finished.

    Runs in the transaction of ``conn``; a worker sees the abort request within
    ``server.queue_poll_s`` and its task stops at its next step.
    """
    return _manager(settings).cancel_job_by_id(job_id, abort=True, connection=conn)


class Backoff(BaseRetryStrategy):
    """Retry any error, ``attempts`` runs in all, waiting ``base_s * 2**n`` (at most ``max_s``).

    Args:
        attempts: Runs in all (the first included); then the job is failed (dead letter).
        base_s: Wait before the first retry.
        max_s: Longest wait.
    """

    def __init__(self, attempts: int, base_s: float, max_s: float) -> None:
        self.attempts = attempts
        self.base_s = base_s
        self.max_s = max_s

    def get_retry_decision(self, *, exception: BaseException, job: Job) -> RetryDecision | None:
        """A retry after the backoff while attempts are left (``job.attempts`` counts runs)."""
        if job.attempts + 1 >= self.attempts:
            return None
        wait = min(self.base_s * 2**job.attempts, self.max_s)
        return RetryDecision(retry_in={"seconds": wait})


def backoff(settings: Settings) -> Backoff:
    """The retry strategy of the settings (``server.job_attempts``, ``job_retry_*_s``)."""
    server = settings.server
    return Backoff(server.job_attempts, server.job_retry_base_s, server.job_retry_max_s)


async def reap_stalled(
    app: App, settings: Settings, on_dead: Callable[[Job, str], Any] | None = None
) -> list[int]:
    """Re-queue the running jobs of dead workers; fail those whose attempts are spent.

    A worker is dead when its heartbeat is older than ``server.worker_stalled_s`` (procrastinate
    records heartbeats; taking the jobs up is left to its users). Each re-queue counts as an
    attempt, so a task that kills its worker every time ends in the dead letter too.

    Args:
        app: An open procrastinate app.
        settings: Settings (thresholds, attempts).
        on_dead: Called (in a thread) with each job sent to the dead letter and its reason.

    Returns:
        The ids of the jobs taken up or failed.
    """
    manager = app.job_manager
    stalled = await manager.get_stalled_jobs(
        queue=settings.server.queue_name,
        seconds_since_heartbeat=settings.server.worker_stalled_s,
    )
    done: list[int] = []
    for job in stalled:
        assert job.id is not None
        if job.attempts + 1 >= settings.server.job_attempts:
            reason = f"its worker died {job.attempts + 1} times"
            await manager.finish_job_by_id_async(job.id, status=Status.FAILED, delete_job=False)
            if on_dead is not None:
                await asyncio.to_thread(on_dead, job, reason)
            logger.warning("job %s failed: %s", job.id, reason)
        else:
            await manager.retry_job(job, retry_at=dt.datetime.now(dt.UTC))
            logger.warning("job %s: its worker died; queued again", job.id)
        done.append(job.id)
    return done
