"""Loading the ingestion models ahead is a setting and a flag of ``disputatio worker``.

``server.worker_prewarm`` (env ``DISPUTATIO_SERVER__WORKER_PREWARM``) is the default of
``disputatio worker --prewarm/--no-prewarm`` and of ``disputatio serve``'s in-process worker.
No model loads here: the worker the CLI and the app build is a stand-in that records its
arguments, and the real :class:`~disputatio.api.worker.Worker` is only constructed.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any, ClassVar

import pytest
from starlette.testclient import TestClient
from typer.testing import CliRunner

from disputatio.api import app as app_mod
from disputatio.api import worker as worker_mod
from disputatio.api.services import Services
from disputatio.cli.app import app
from disputatio.settings import get_settings, load_settings


class RecordingWorker:
    """Stands for :class:`Worker`: records how it was built; runs and stops at once."""

    built: ClassVar[list[dict[str, Any]]] = []

    def __init__(self, services: Services, **kwargs: Any) -> None:
        RecordingWorker.built.append({"settings": services.settings, **kwargs})
        self.name = "test:0"
        self.concurrency = kwargs.get("concurrency") or 1

    def run(self) -> None:
        """Return at once (a real worker runs until a signal)."""

    def start(self) -> None:
        """Return at once (a real worker starts its thread)."""

    def stop(self, timeout: float = 30.0) -> None:
        """Nothing to stop."""


@pytest.fixture
def recorded(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """The kwargs of every worker built; no database is started."""
    RecordingWorker.built = []
    monkeypatch.setattr(worker_mod, "Worker", RecordingWorker)
    monkeypatch.setattr("disputatio.storage.db.database_url", lambda _s: "postgresql://db/x")
    return RecordingWorker.built


@pytest.mark.parametrize(
    ("env", "args", "expected"),
    [
        (None, [], True),  # the setting's default
        ("false", [], False),  # the setting, from the environment
        ("false", ["--prewarm"], True),  # the flag wins over the setting
        (None, ["--no-prewarm"], False),
    ],
)
def test_the_flag_and_the_setting_reach_the_worker(
    recorded: list[dict[str, Any]],
    monkeypatch: pytest.MonkeyPatch,
    env: str | None,
    args: list[str],
    expected: bool,
) -> None:
    if env is None:
        monkeypatch.delenv("DISPUTATIO_SERVER__WORKER_PREWARM", raising=False)
    else:
        monkeypatch.setenv("DISPUTATIO_SERVER__WORKER_PREWARM", env)
    get_settings.cache_clear()
    result = CliRunner().invoke(app, ["worker", *args])
    assert result.exit_code == 0, result.output
    assert len(recorded) == 1 and recorded[0]["prewarm"] is expected
    assert recorded[0]["settings"].server.worker_prewarm is (env is None)


def test_help_shows_the_flag_and_its_default() -> None:
    result = CliRunner().invoke(app, ["worker", "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    assert "--prewarm" in result.output and "--no-prewarm" in result.output
    assert "server.worker_prewarm" in result.output


def test_the_worker_takes_the_setting_unless_told_otherwise(tmp_path: Path) -> None:
    off = Services(settings=load_settings(home=tmp_path, server={"worker_prewarm": False}))
    worker = worker_mod.Worker(off)
    assert worker.prewarm_enabled is False
    before = {t.name for t in threading.enumerate()}
    worker._start_prewarm()
    assert worker.prewarmed.is_set()  # the first task does not wait for a load that never runs
    assert "prewarm-models" not in {t.name for t in threading.enumerate()} - before
    assert worker_mod.Worker(off, prewarm=True).prewarm_enabled is True
    on = Services(settings=load_settings(home=tmp_path))
    assert worker_mod.Worker(on).prewarm_enabled is True


@pytest.mark.parametrize("setting", [True, False])
def test_serve_builds_its_worker_with_the_setting(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, setting: bool
) -> None:
    built: ClassVar[list[dict[str, Any]]] = []

    class Worker(RecordingWorker):
        def __init__(self, services: Services, **kwargs: Any) -> None:
            built.append(kwargs)

    class Sampler:
        def __init__(self, settings: Any) -> None:
            pass

        def start(self) -> None:
            pass

        def stop(self) -> None:
            pass

    monkeypatch.setattr(app_mod, "Worker", Worker)
    monkeypatch.setattr(app_mod.queue, "ensure_schema", lambda _s: None)
    monkeypatch.setattr(app_mod.metrics, "QueueSampler", Sampler)
    settings = load_settings(home=tmp_path, server={"worker_prewarm": setting})
    with TestClient(app_mod.create_app(Services(settings=settings))):
        pass  # the lifespan ran: the worker was built and started
    assert built == [{"prewarm": setting}]
