"""A batch finishes the waiting queue tasks of the jobs it recorded; no worker runs them.

A real queue worker (procrastinate on the test database, one task at a time) runs real
ingestion tasks: ``claim_batch`` and ``finish_batch`` are the real SQL. Only the ingestion
graph is a stand-in (``Engine._ingest_files``: no model loads), and the engine's
``ingest_job`` is wrapped to record which tasks reached it.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import psycopg
import pytest

from disputatio.api.services import Services
from disputatio.api.worker import Worker
from disputatio.settings import Settings
from disputatio.storage import api_jobs, api_queue

pytestmark = pytest.mark.integration

#: What a stand-in ingestion does with one batch: a result per job, in order.
Ingest = Callable[[list[dict[str, Any]]], list[dict[str, Any]]]


@pytest.fixture
def queue_settings(settings: Settings, db_url: str) -> Settings:
    """The test database, a queue of this test's own, the models left alone."""
    server = settings.server.model_copy(
        update={
            "queue_name": f"test-batch-tasks-{uuid.uuid4().hex[:8]}",
            "queue_poll_s": 0.1,
            "worker_heartbeat_s": 0.5,
            "job_attempts": 2,
            "job_retry_base_s": 0.1,
            "ingest_batch": 32,
            "worker_prewarm": False,
        }
    )
    return settings.model_copy(update={"server": server})


class Run:
    """Jobs queued for one tenant, then one worker that runs their tasks."""

    def __init__(self, settings: Settings, n: int) -> None:
        self.settings = settings
        self.tenant = f"batch-{uuid.uuid4().hex[:8]}"
        self.jobs = [str(uuid.uuid4()) for _ in range(n)]
        for i, job in enumerate(self.jobs):  # created in this order: the first task runs first
            api_jobs.create_job(
                settings,
                {
                    "id": job,
                    "tenant": self.tenant,
                    "collection": "default",
                    "file_name": f"note-{i}.txt",
                    "path": f"/nowhere/{job}.txt",
                    "sha256": uuid.uuid4().hex,
                    "request": {"file_name": f"note-{i}.txt"},
                },
            )
        self.tasks_run: list[str] = []  # job ids whose own task reached the engine
        self.batches: list[list[str]] = []  # job ids of each stand-in ingestion run
        self.worker: Worker | None = None

    def start(self, ingest: Ingest) -> None:
        worker = Worker(Services(settings=self.settings, resume_on_startup=False), concurrency=1)
        engine = worker.engine
        real = engine.ingest_job

        def ingest_job(job_id: str, gate: Any = None) -> None:
            self.tasks_run.append(job_id)
            real(job_id, gate)

        def ingest_files(jobs: list[dict[str, Any]]) -> list[dict[str, Any]]:
            self.batches.append([job["id"] for job in jobs])
            return ingest(jobs)

        engine.ingest_job = ingest_job  # type: ignore[method-assign]
        engine._ingest_files = ingest_files  # type: ignore[method-assign]
        self.worker = worker
        worker.start()

    def tasks(self) -> dict[str, dict[str, Any]]:
        """The queue tasks of the jobs, by job id (as ``GET /jobs`` lists them)."""
        rows = api_queue.list_tasks(self.settings, self.tenant, None, 100)
        return {row["ingestion_job_id"]: row for row in rows}

    def wait(self, timeout: float = 60.0) -> dict[str, dict[str, Any]]:
        """Until every task has ended (none waits or runs); the tasks then."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            tasks = self.tasks()
            if len(tasks) == len(self.jobs) and all(
                t["state"] not in ("todo", "doing") for t in tasks.values()
            ):
                return tasks
            time.sleep(0.1)
        raise AssertionError(f"tasks did not end: {self.tasks()}")

    def stop(self) -> None:
        if self.worker is not None:
            self.worker.stop(timeout=10)


@pytest.fixture
def make_run(queue_settings: Settings) -> Iterator[Callable[[int], Run]]:
    made: list[Run] = []

    def make(n: int) -> Run:
        made.append(Run(queue_settings, n))
        return made[-1]

    yield make
    for run in made:
        run.stop()


def _succeeded(jobs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{"status": "new", "path": job["path"]} for job in jobs]


def test_the_tasks_of_the_jobs_a_batch_recorded_are_not_run(
    make_run: Callable[[int], Run], queue_settings: Settings
) -> None:
    run = make_run(5)
    run.start(_succeeded)
    tasks = run.wait()
    # one batch, its owner's first, ingested all five
    assert len(run.batches) == 1 and run.batches[0][0] == run.jobs[0]
    assert sorted(run.batches[0]) == sorted(run.jobs)
    assert run.tasks_run == run.jobs[:1]  # only its owner's task ran
    for job in run.jobs:  # finished, not failed or cancelled, in GET /jobs and the job's status
        assert tasks[job]["state"] == "succeeded", tasks[job]
        found = api_jobs.get_job(queue_settings, run.tenant, job)
        assert found is not None and found["status"] == "succeeded", found
    assert [tasks[job]["attempts"] for job in run.jobs] == [1, 0, 0, 0, 0]


def test_a_job_the_batch_did_not_record_keeps_its_task(
    make_run: Callable[[int], Run], queue_settings: Settings, db_url: str
) -> None:
    run = make_run(4)
    owner, recorded, failing, taken = run.jobs

    def ingest(jobs: list[dict[str, Any]]) -> list[dict[str, Any]]:
        if len(jobs) == 1:  # a task ingesting its job alone: it succeeds
            return _succeeded(jobs)
        # while the batch runs, its last job is taken over (as by its own task once the claim
        # went stale), and another job's file fails in the batch
        with psycopg.connect(db_url, autocommit=True) as conn:
            conn.execute("UPDATE api_jobs SET claimed_by = id WHERE id = %s", (taken,))
        return [
            {"status": "failed", "error": "unreadable"} if job["id"] == failing else result
            for job, result in zip(jobs, _succeeded(jobs), strict=True)
        ]

    run.start(ingest)
    tasks = run.wait()
    assert sorted(run.batches[0]) == sorted(run.jobs)
    assert run.batches[1:] == [[failing], [taken]]
    # the recorded job's task never ran; the two the batch did not record ran theirs
    assert run.tasks_run == [owner, failing, taken]
    assert recorded not in run.tasks_run and tasks[recorded]["attempts"] == 0
    assert all(t["state"] == "succeeded" for t in tasks.values()), tasks


def test_a_skipped_job_whose_own_file_wrote_the_document_succeeded(
    make_run: Callable[[int], Run], queue_settings: Settings, db_url: str
) -> None:
    """A batch whose worker died after writing a job's document and before recording the job:
    the batch that takes the job over finds the document there ("skipped"). It is the job's own
    file, written after the job was submitted: the job succeeded (``test_scale_out``, CI of
    2026-12-04). A document that was there before the job is a skip."""
    run = make_run(2)
    own, earlier = run.jobs

    def document(job: str, age: str) -> str:
        with psycopg.connect(db_url, autocommit=True) as conn:
            row = conn.execute(
                "INSERT INTO documents (tenant, collection, sha256, source_uri, kind, markdown,"
                " created_at) VALUES (%s, 'default', %s, %s, 'text', 'x', now() - %s::interval)"
                " RETURNING id",
                (run.tenant, uuid.uuid4().hex, f"/nowhere/{job}.txt", age),
            ).fetchone()
        assert row is not None
        return str(row[0])

    found = {own: document(own, "0 seconds"), earlier: document(earlier, "1 hour")}

    def ingest(jobs: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [{"status": "skipped", "document_id": found[job["id"]]} for job in jobs]

    run.start(ingest)
    run.wait()
    statuses = {job: (api_jobs.get_job(queue_settings, run.tenant, job) or {}) for job in run.jobs}
    assert statuses[own]["status"] == "succeeded", statuses[own]
    assert statuses[earlier]["status"] == "skipped", statuses[earlier]
    assert {str(statuses[j]["document_id"]) for j in run.jobs} == set(found.values())
