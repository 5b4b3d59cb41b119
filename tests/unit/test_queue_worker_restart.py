"""The embedded queue worker starts procrastinate's worker again when it stops on its own."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from disputatio.api import worker as worker_mod
from disputatio.api.services import Services
from disputatio.settings import load_settings


class _App:
    @asynccontextmanager
    async def open_async(self) -> AsyncIterator[None]:
        yield


def test_a_worker_that_stops_on_its_own_is_started_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = load_settings(home=tmp_path, server={"worker_heartbeat_s": 0.01})
    runs: list[str] = []

    async def procrastinate_worker(self: Any, app: Any) -> None:
        runs.append("run")
        if len(runs) == 1:  # the first one stops at once: a side task failed
            raise RuntimeError("listener connection lost")
        await asyncio.Event().wait()  # the second runs until cancelled

    monkeypatch.setattr(worker_mod.Worker, "_app", lambda self: _App())
    monkeypatch.setattr(worker_mod.Worker, "_procrastinate_worker", procrastinate_worker)
    w = worker_mod.Worker(Services(settings=settings), reap=False)
    w.start()
    deadline = time.monotonic() + 10
    while len(runs) < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert runs == ["run", "run"]
    w.stop(timeout=10)
    assert w._thread is not None and not w._thread.is_alive()  # stop still stops it
