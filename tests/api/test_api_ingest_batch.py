"""Queued uploads are ingested in batches: one ingestion-graph run for many jobs.

Files are uploaded to a server that runs no worker, so they wait in the queue together; then one
queue worker (one task at a time) is started on the same queue. The ingestion graph is wrapped
to record the paths of every run; ingestion, the queue and the database are the real ones.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn

from disputatio.api import runs
from disputatio.api.services import Services
from disputatio.api.worker import Worker
from disputatio.settings import Settings

from .conftest import serve_app, wait_job
from .fakes import KEY_A, server_settings
from .test_api_jobs import POISON

pytestmark = pytest.mark.integration


@dataclass
class Recorder:
    """The real ingestion graph, with the paths of each of its runs recorded."""

    graph: Any
    runs: list[list[str]] = field(default_factory=list)

    def invoke(self, inputs: dict[str, Any], **kwargs: Any) -> Any:
        self.runs.append(list(inputs["paths"]))
        return self.graph.invoke(inputs, **kwargs)


@pytest.fixture
def recorder(monkeypatch: pytest.MonkeyPatch) -> Recorder:
    rec = Recorder(runs.ingest_graph())
    monkeypatch.setattr(runs, "ingest_graph", lambda: rec)
    return rec


@dataclass
class Deployment:
    """A server that only enqueues, and a worker started on its queue when a test says so."""

    url: str
    services: Services
    server: uvicorn.Server
    thread: threading.Thread
    worker: Worker | None = None

    def client(self) -> httpx.Client:
        return httpx.Client(base_url=self.url, headers={"X-API-Key": KEY_A}, timeout=60)

    def start_worker(self) -> None:
        self.worker = Worker(self.services, concurrency=1)
        self.worker.start()

    def stop(self) -> None:
        if self.worker is not None:
            self.worker.stop()
        self.server.should_exit = True
        self.thread.join(timeout=30)


def _deploy(api_settings: Settings, **server: Any) -> Deployment:
    values = {
        "queue_name": f"test-batch-{uuid.uuid4().hex[:8]}",
        "job_attempts": 2,
        "job_retry_base_s": 0.1,
        "queue_poll_s": 0.2,
        "worker_heartbeat_s": 0.5,
        "max_jobs_per_tenant": 50,
        **server,
    }
    settings = api_settings.model_copy(update={"server": server_settings(**values)})
    services = Services(settings=settings, resume_on_startup=False, embedded_worker=False)
    url, srv, thread = serve_app(services)
    return Deployment(url, services, srv, thread)


@pytest.fixture
def deploy(api_settings: Settings) -> Iterator[Any]:
    made: list[Deployment] = []

    def make(**server: Any) -> Deployment:
        made.append(_deploy(api_settings, **server))
        return made[-1]

    yield make
    for deployment in made:
        deployment.stop()


def _notes(n: int) -> list[tuple[str, bytes]]:
    tag = uuid.uuid4().hex[:8]
    return [
        (
            f"note-{tag}-{i}.txt",
            f"Batch note {tag} number {i}: brucellosis serology, case {i}.\n".encode(),
        )
        for i in range(n)
    ]


def _upload_all(dep: Deployment, files: list[tuple[str, bytes]]) -> dict[str, dict[str, Any]]:
    jobs = {}
    with dep.client() as client:
        for name, data in files:
            resp = client.post("/ingest", files={"file": (name, data)})
            assert resp.status_code == 202, resp.text
            jobs[name] = dict(resp.json())
    return jobs


def _finish(dep: Deployment, jobs: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    with dep.client() as client:
        return {n: wait_job(client, j["ingestion_job_id"], 120) for n, j in jobs.items()}


def test_queued_jobs_are_ingested_in_one_graph_run(deploy: Any, recorder: Recorder) -> None:
    dep = deploy(ingest_batch=32)
    jobs = _upload_all(dep, _notes(6))
    dep.start_worker()
    done = _finish(dep, jobs)
    for name, status in done.items():
        assert status["status"] == "succeeded", (name, status)
        assert status["document_id"] == jobs[name]["document_id"]
    mine = [r for r in recorder.runs if any(p.endswith(tuple(jobs)) for p in r)]
    assert len(mine) == 1 and len(mine[0]) == 6, recorder.runs
    # each document carries its own upload's file name although the run was shared
    with dep.client() as client:
        for name, job in jobs.items():
            doc = client.get(f"/documents/{job['document_id']}").json()
            assert doc["metadata"]["file_name"] == name, doc


def test_a_poison_file_fails_alone_and_the_rest_of_its_batch_succeeds(
    deploy: Any, recorder: Recorder
) -> None:
    dep = deploy(ingest_batch=32)
    files = _notes(4)
    poison = f"poison-{uuid.uuid4().hex[:6]}.html"
    files.insert(1, (poison, POISON + f"<!-- {poison} -->".encode()))
    jobs = _upload_all(dep, files)
    dep.start_worker()
    done = _finish(dep, jobs)
    assert done[poison]["status"] == "failed", done[poison]
    for name, status in done.items():
        if name != poison:
            assert status["status"] == "succeeded", (name, status)
    mine = [r for r in recorder.runs if any(p.endswith(tuple(jobs)) for p in r)]
    assert len(mine[0]) == 5, recorder.runs  # all five together first
    # then the poison file alone, once per attempt of its own task (failing in another
    # job's batch spent none of them), before the dead letter
    assert [len(r) for r in mine[1:]] == [1, 1], recorder.runs
    assert all(r[0].endswith(poison) for r in mine[1:]), recorder.runs
    with dep.client() as client:
        dead = client.get("/jobs", params={"state": "failed"}).json()["jobs"]
    entry = [j for j in dead if j.get("ingestion_job_id") == jobs[poison]["ingestion_job_id"]]
    assert len(entry) == 1 and entry[0]["attempts"] == 2, dead


def test_a_batch_of_one_ingests_each_job_alone(deploy: Any, recorder: Recorder) -> None:
    dep = deploy(ingest_batch=1)
    jobs = _upload_all(dep, _notes(3))
    dep.start_worker()
    done = _finish(dep, jobs)
    assert all(s["status"] == "succeeded" for s in done.values()), done
    mine = [r for r in recorder.runs if any(p.endswith(tuple(jobs)) for p in r)]
    assert sorted(len(r) for r in mine) == [1, 1, 1], recorder.runs


def test_a_batch_stops_taking_jobs_at_its_byte_budget(deploy: Any, recorder: Recorder) -> None:
    # files of ~2,000 bytes and a budget of 5,000: two files a batch, oldest first
    dep = deploy(ingest_batch=32, ingest_batch_mb=5000 / 1024 / 1024)
    files = [(name, data + b"Padding sentence about serology. " * 60) for name, data in _notes(5)]
    assert all(1900 < len(data) < 2500 for _, data in files)
    jobs = _upload_all(dep, files)
    dep.start_worker()
    done = _finish(dep, jobs)
    assert all(s["status"] == "succeeded" for s in done.values()), done
    mine = [r for r in recorder.runs if any(p.endswith(tuple(jobs)) for p in r)]
    assert [len(r) for r in mine] == [2, 2, 1], recorder.runs
    order = [p for run in mine for p in run]
    assert [Path(p).name for p in order] == [name for name, _ in files]  # oldest first
