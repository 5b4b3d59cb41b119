"""The API's data: its tables' typed functions, gathered under one name for the routes.

The SQL lives in :mod:`disputatio.storage`, one module per table: ``api_jobs`` (ingestion
jobs, :mod:`~disputatio.storage.api_jobs`), ``api_runs`` (debate runs or sessions,
:mod:`~disputatio.storage.api_runs`), ``api_events`` (a run's events,
:mod:`~disputatio.storage.api_events`), the queue's tasks with their rows
(:mod:`~disputatio.storage.api_queue`) and the tenant's documents and sections
(:mod:`~disputatio.storage.document_reads`). :func:`db` is the dict-row connection they share
(:mod:`~disputatio.storage.api_db`).

Every function takes the owner ``tenant`` where a row is read by a client, so a query can never
return another tenant's row; :func:`run_owner` tells "missing" (404) from "someone else's" (403).
A job or run and its queue task (:mod:`disputatio.storage.queue`) are written in one
transaction.
"""

from __future__ import annotations

from disputatio.storage.api_db import db
from disputatio.storage.api_events import append_event, event_keys, events_after
from disputatio.storage.api_jobs import active_jobs, create_job, get_job, load_job, update_job
from disputatio.storage.api_runs import (
    TERMINAL,
    cancel_run,
    create_run,
    delete_run,
    get_run,
    list_runs,
    load_run,
    requeue_run,
    run_owner,
    run_status,
    update_run,
    update_run_with_events,
)
from disputatio.storage.document_reads import (
    document_for_hash,
    get_document,
    get_parent_chunk,
    list_documents,
)

__all__ = [
    "TERMINAL",
    "active_jobs",
    "append_event",
    "cancel_run",
    "create_job",
    "create_run",
    "db",
    "delete_run",
    "document_for_hash",
    "event_keys",
    "events_after",
    "get_document",
    "get_job",
    "get_parent_chunk",
    "get_run",
    "list_documents",
    "list_runs",
    "load_job",
    "load_run",
    "requeue_run",
    "run_owner",
    "run_status",
    "update_job",
    "update_run",
    "update_run_with_events",
]
