"""A queue worker loads the ingestion models as it starts, and its first ingestion waits for them.

The worker runs for real (procrastinate's worker loop and the registered tasks) on procrastinate's
in-memory connector; the models are stand-ins that record when they load, and the engine's
``ingest_job`` records when the first task reaches it.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest
from procrastinate import App
from procrastinate.testing import InMemoryConnector

from disputatio.api import worker as worker_mod
from disputatio.api.services import Services
from disputatio.models.embeddings import LocalEmbeddings
from disputatio.nodes.ingest.context import IngestContext, SharedExtractor
from disputatio.settings import load_settings
from disputatio.storage import queue


class SlowLocalModel(LocalEmbeddings):
    """A local embedding model whose load takes ``delay`` seconds (no real model)."""

    def __init__(self, events: list[str], delay: float) -> None:
        super().__init__(Path("/nonexistent"))
        self.events = events
        self.delay = delay

    def warm(self) -> None:
        self.events.append("embeddings loading")
        time.sleep(self.delay)
        self.events.append("embeddings loaded")


class StubSpacy:
    """Stands for the spaCy extractor: its pipeline 'loads' on the first extraction."""

    def __init__(self, events: list[str]) -> None:
        self.events = events

    def extract_batch(self, groups: list[list[Any]]) -> list[Any]:
        self.events.append("spacy loaded")
        return [None for _ in groups]


def _worker(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, events: list[str], **kwargs: Any
) -> tuple[worker_mod.Worker, App]:
    settings = load_settings(
        home=tmp_path, server={"queue_poll_s": 0.05, "worker_heartbeat_s": 0.05}
    )
    app = App(connector=InMemoryConnector())
    monkeypatch.setattr(worker_mod.queue, "worker_app", lambda _settings: app)
    context = IngestContext(
        settings=settings,
        embeddings=SlowLocalModel(events, delay=0.5),
        entity_extractor=SharedExtractor(StubSpacy(events)),
    )
    services = Services(settings=settings, ingest_context=context, resume_on_startup=False)
    w = worker_mod.Worker(services, concurrency=1, **kwargs)

    def ingest_job(job_id: str, gate: Any = None) -> None:
        events.append(f"task {job_id}")

    monkeypatch.setattr(w.engine, "ingest_job", ingest_job)
    # a job queued before the worker starts: its first task runs as soon as the worker is up
    app.configure_task(queue.TASK_INGEST, queue=settings.server.queue_name).defer(
        tenant="t", job_id="job-1"
    )
    return w, app


def _wait_for(events: list[str], item: str, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while item not in events and time.monotonic() < deadline:
        time.sleep(0.02)
    assert item in events, events


def test_the_models_load_before_the_first_ingestion_task(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    events: list[str] = []
    w, _ = _worker(tmp_path, monkeypatch, events)
    w.start()
    try:
        _wait_for(events, "task job-1")
    finally:
        w.stop(timeout=10)
    assert events == ["embeddings loading", "embeddings loaded", "spacy loaded", "task job-1"]
    assert w.prewarmed.is_set() and w.prewarm_s is not None and w.prewarm_s >= 0.5


def test_the_load_starts_before_the_worker_registers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    events: list[str] = []
    w, app = _worker(tmp_path, monkeypatch, events)
    opened = app.open_async

    def open_async(*args: Any, **kwargs: Any) -> Any:  # connecting, then registering
        loading = any(t.name == "prewarm-models" for t in threading.enumerate())
        events.append("connecting, models loading" if loading else "connecting")
        return opened(*args, **kwargs)

    monkeypatch.setattr(app, "open_async", open_async)
    w.start()
    try:
        _wait_for(events, "task job-1")
    finally:
        w.stop(timeout=10)
    # the load runs beside connecting: the worker was up before the models were
    assert "connecting, models loading" in events
    assert events.index("connecting, models loading") < events.index("embeddings loaded")


def test_without_prewarm_nothing_loads_at_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    events: list[str] = []
    w, _ = _worker(tmp_path, monkeypatch, events, prewarm=False)
    w.start()
    try:
        _wait_for(events, "task job-1")
    finally:
        w.stop(timeout=10)
    assert events == ["task job-1"]


def test_a_failed_load_is_logged_and_does_not_stop_the_worker(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    events: list[str] = []
    w, _ = _worker(tmp_path, monkeypatch, events)

    def broken() -> None:
        raise OSError("model folder unreadable")

    monkeypatch.setattr(w.services.ingest_context.embeddings, "warm", broken)
    w.start()
    try:
        _wait_for(events, "task job-1")
    finally:
        w.stop(timeout=10)
    assert events == ["task job-1"]
    assert w.prewarm_s is None
    assert "model folder unreadable" in caplog.text
