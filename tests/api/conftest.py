"""Fixtures of the API tests: the app served by uvicorn on a loopback port, two tenants.

The server runs in this process (a thread) with scripted fake chat models injected through
``Services.context_overrides``; retrieval, ingestion and the database are the real ones.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn

from disputatio.api.app import create_app
from disputatio.api.services import Services
from disputatio.settings import Settings

from .fakes import KEY_A, KEY_B, TENANT_A, TENANT_B, FakeModels, server_settings

__all__ = ["KEY_A", "KEY_B", "TENANT_A", "TENANT_B", "LiveServer", "read_sse", "wait_job"]

SAMPLE_CORPUS = Path(__file__).resolve().parents[2] / "disputatio" / "data" / "sample_corpus"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class LiveServer:
    """A running app: its base URL, settings and fake models."""

    url: str
    settings: Settings
    fakes: FakeModels | None
    server: uvicorn.Server
    thread: threading.Thread
    services: Services

    def client(
        self, key: str | None = KEY_A, timeout: float = 120.0, **kwargs: Any
    ) -> httpx.Client:
        headers = {"X-API-Key": key} if key else {}
        return httpx.Client(base_url=self.url, headers=headers, timeout=timeout, **kwargs)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=30)


def start_server(
    settings: Settings, fakes: FakeModels | None, port: int | None = None
) -> LiveServer:
    # resume_on_startup=False: this in-test server never adopts runs of the servers that
    # test_api_restart.py kills (their restarted successor must be the one that resumes them)
    services = Services(settings=settings, context_overrides=fakes, resume_on_startup=False)
    url, server, thread = serve_app(services, port)
    return LiveServer(url, settings, fakes, server, thread, services)


def serve_app(
    services: Services, port: int | None = None
) -> tuple[str, uvicorn.Server, threading.Thread]:
    """The API app of ``services`` served by uvicorn in a thread; returns once it listens."""
    port = port or free_port()
    config = uvicorn.Config(
        create_app(services), host="127.0.0.1", port=port, log_level="warning", lifespan="on"
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the API server did not start")
        time.sleep(0.05)
    return f"http://127.0.0.1:{port}", server, thread


def unserved(settings: Settings) -> Settings:
    """``settings`` whose queue no worker serves: a run or job a test records is not also run."""
    server = settings.server.model_copy(update={"queue_name": "recorded-by-tests"})
    return settings.model_copy(update={"server": server})


@pytest.fixture(scope="session")
def api_settings(settings: Settings, db_url: str) -> Settings:
    return settings.model_copy(update={"server": server_settings()})


@pytest.fixture(scope="session")
def live(api_settings: Settings) -> Iterator[LiveServer]:
    server = start_server(api_settings, FakeModels())
    yield server
    server.stop()


def wait_job(client: httpx.Client, job_id: str, timeout: float = 300.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        body = client.get(f"/ingest/status/{job_id}").json()
        if body["status"] not in ("queued", "running"):
            return dict(body)
        time.sleep(0.3)
    raise AssertionError(f"job {job_id} did not finish")


@pytest.fixture(scope="session")
def corpus_a(live: LiveServer) -> dict[str, Any]:
    """Tenant A's corpus: the sample corpus uploaded through POST /ingest."""
    jobs: dict[str, Any] = {}
    with live.client(KEY_A) as client:
        for path in sorted(SAMPLE_CORPUS.iterdir()):
            if path.name == "README.md":
                continue
            resp = client.post(
                "/ingest",
                files={"file": (path.name, path.read_bytes())},
                data={"metadata": '{"collection": "sample", "tags": ["med"]}'},
            )
            assert resp.status_code == 202, resp.text
            jobs[path.name] = resp.json()
        done = {name: wait_job(client, j["ingestion_job_id"]) for name, j in jobs.items()}
    for name, job in done.items():
        assert job["status"] in ("succeeded", "skipped"), (name, job)
    return done


def read_sse(
    resp: httpx.Response, stop_after: int | None = None, stop_on: tuple[str, ...] = ()
) -> list[dict[str, Any]]:
    """Parse a server-sent-event stream into ``{id, event, data}`` dicts."""
    import json

    events: list[dict[str, Any]] = []
    current: dict[str, Any] = {}
    for line in resp.iter_lines():
        if not line:
            if "event" in current:
                current["data"] = json.loads(current.get("data") or "null")
                events.append(current)
                if current["event"] in ("end", "timeout", *stop_on):
                    break
                if stop_after is not None and sum(e["event"] == "move" for e in events) >= (
                    stop_after
                ):
                    break
            current = {}
            continue
        if line.startswith(":"):
            continue
        field, _, value = line.partition(":")
        current[field] = value.removeprefix(" ")
    return events


def start_debate(
    client: httpx.Client, body: dict[str, Any], **read: Any
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """``POST /debate/start`` (202), then read its event stream (``read``: :func:`read_sse`'s).

    Returns:
        The start response's body and the events read.
    """
    start = client.post("/debate/start", json=body)
    assert start.status_code == 202, start.text
    with client.stream("GET", start.json()["stream_url"]) as resp:
        assert resp.headers["content-type"].startswith("text/event-stream")
        events = read_sse(resp, **read)
    return start.json(), events
