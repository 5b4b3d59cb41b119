"""Probes and metrics: ``/livez``, ``/readyz`` (= ``/health``), ``/metrics``, standalone and
mounted in the LangGraph server; the readiness of a model server whose process died."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families
from starlette.applications import Starlette
from starlette.routing import Route
from starlette.testclient import TestClient

from disputatio.api import metrics, probes
from disputatio.models import local
from disputatio.settings import Settings

from .conftest import KEY_A, TENANT_A, LiveServer
from .test_api_langgraph_dev import lg_dev  # noqa: F401  (the fixture, for the mounted app)

MODEL = "qwen2.5-coder-0.5b"


# --- liveness: no tenant, database or model --------------------------------------------------


def test_livez_needs_nothing_but_the_process() -> None:
    """Served by an app with no services at all: it cannot touch a tenant, database or model."""
    bare = Starlette(routes=[Route("/livez", probes.livez)])
    with TestClient(bare) as client:
        resp = client.get("/livez")
    assert resp.status_code == 200 and resp.json() == {"ok": True, "status": "alive"}
    assert resp.headers["cache-control"] == "no-store"


# --- a model server whose process died ------------------------------------------------------


def _dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


@pytest.fixture
def model_settings(settings: Settings, tmp_path: Path) -> Settings:
    """Settings of a private home whose chat model is the local one (a run file decides)."""
    return settings.model_copy(update={"home": tmp_path})


def _record(settings: Settings, pid: int, base: str) -> None:
    run = settings.home / "run" / f"llm-{MODEL}.json"
    run.parent.mkdir(parents=True, exist_ok=True)
    run.write_text(json.dumps({"pid": pid, "base_url": base, "model": MODEL}))


@pytest.fixture
def model_api() -> Iterator[str]:
    """A loopback server answering ``GET /v1/models`` like llama.cpp serving ``MODEL``."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = json.dumps({"data": [{"id": MODEL, "aliases": []}]}).encode()
            self.send_response(200 if self.path == "/v1/models" else 404)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    server.shutdown()
    server.server_close()


def _silent_port() -> str:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{sock.getsockname()[1]}/v1"  # closed once the block ends


def test_the_run_file_of_a_dead_process_is_not_a_server(
    model_settings: Settings, model_api: str
) -> None:
    assert local.running_server(MODEL, model_settings) is None  # no file
    _record(model_settings, _dead_pid(), model_api)  # the process died; its port was reused
    assert local.running_server(MODEL, model_settings) is None
    _record(model_settings, _dead_pid(), _silent_port())  # died, nothing listens
    assert local.running_server(MODEL, model_settings) is None
    _record(model_settings, 1, _silent_port())  # a live pid (reused) and a silent port
    assert local.running_server(MODEL, model_settings) is None
    _record(model_settings, 1, model_api)  # alive and answering for the model
    assert local.running_server(MODEL, model_settings) == model_api


def test_readiness_reports_a_crashed_model_server_as_not_started(
    model_settings: Settings, model_api: str
) -> None:
    name = model_settings.chat_model_for()
    assert name == f"local:{MODEL}"
    _record(model_settings, _dead_pid(), _silent_port())  # what a crash leaves behind
    assert "not started" in probes.check_model(model_settings, injected=False)
    _record(model_settings, 1, model_api)
    assert probes.check_model(model_settings, injected=False).endswith(f"serving at {model_api}")


# --- live: the routes ---------------------------------------------------------------------------


@pytest.mark.integration
def test_liveness_is_open_and_readiness_needs_a_key(live: LiveServer) -> None:
    with live.client(None) as anon, live.client(KEY_A) as a:
        alive = anon.get("/livez")
        assert alive.status_code == 200 and alive.json() == {"ok": True, "status": "alive"}
        for path in ("/readyz", "/health"):
            assert anon.get(path).status_code == 401
        ready, health = a.get("/readyz"), a.get("/health")
    assert ready.status_code == 200 and health.status_code == 200
    body = ready.json()
    assert body["ok"] and body["tenant"] == TENANT_A and body["database"]["ok"]
    assert set(body) == set(health.json())  # /health is /readyz by its older name


def _families(text: str) -> dict[str, Any]:
    return {f.name: f for f in text_string_to_metric_families(text)}


def _samples(family: Any, name: str) -> dict[tuple[tuple[str, str], ...], float]:
    return {tuple(sorted(s.labels.items())): s.value for s in family.samples if s.name == name}


@pytest.mark.integration
def test_metrics_label_requests_by_route_template_and_read_the_queue(
    live: LiveServer, corpus_a: dict[str, Any]
) -> None:
    case = str(uuid.uuid4())
    with live.client(KEY_A) as a, live.client(None) as anon:
        assert a.get(f"/debate/{case}").status_code == 404
        a.get("/livez")
        metrics.task_retried("ingest")
        metrics.task_dead_lettered("ingest")
        resp = anon.get("/metrics")  # no key: no tenant data in it
    assert resp.status_code == 200 and resp.headers["content-type"].startswith("text/plain")
    assert case not in resp.text  # the raw path never becomes a label
    found = _families(resp.text)
    latency = found["disputatio_http_request_duration_seconds"]
    counts = _samples(latency, "disputatio_http_request_duration_seconds_count")
    assert counts[(("method", "GET"), ("route", "/debate/{case_id}"))] >= 1
    assert counts[(("method", "GET"), ("route", "/livez"))] >= 1
    requests = _samples(found["disputatio_http_requests"], "disputatio_http_requests_total")
    assert requests[(("method", "GET"), ("route", "/debate/{case_id}"), ("status", "404"))] >= 1
    depth = _samples(found["disputatio_queue_depth"], "disputatio_queue_depth")
    expected = metrics.queue_depth(live.settings)
    # every state of the queue is a series, an empty one reads 0
    assert expected and {k[0][1]: v for k, v in depth.items()} == expected
    retries = _samples(found["disputatio_task_retries"], "disputatio_task_retries_total")
    dead = _samples(found["disputatio_dead_letters"], "disputatio_dead_letters_total")
    assert retries[(("task", "ingest"),)] >= 1 and dead[(("task", "ingest"),)] >= 1


@pytest.mark.integration
def test_metrics_and_probes_when_mounted_in_the_langgraph_server(lg_dev: str) -> None:  # noqa: F811
    """``/metrics`` is the LangGraph server's own there; ours are in it, by route template."""
    case = str(uuid.uuid4())
    with httpx.Client(base_url=lg_dev, timeout=60) as anon:
        assert anon.get("/livez").json() == {"ok": True, "status": "alive"}
        assert anon.get("/readyz").status_code == 401
        anon.get(f"/debate/{case}", headers={"X-API-Key": KEY_A})
        deadline = time.monotonic() + 30
        while True:  # the sampler's first read happens as the app starts
            text = anon.get("/metrics").text
            found = _families(text)
            latency = found.get("disputatio_http_request_duration_seconds")
            routes = {dict(s.labels).get("route") for s in latency.samples} if latency else set()
            done = "disputatio_queue_depth" in found and "/debate/{case_id}" in routes
            if done or time.monotonic() > deadline:
                break
            time.sleep(0.5)
    assert case not in text
    assert {"/livez", "/debate/{case_id}"} <= routes
    assert "disputatio_queue_depth" in found
