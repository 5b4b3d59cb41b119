"""A standalone worker serves its own metrics (``disputatio worker --metrics-port``)."""

from __future__ import annotations

import socket

import httpx
from prometheus_client.parser import text_string_to_metric_families
from typer.testing import CliRunner

from disputatio.api import metrics
from disputatio.cli.app import app


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_the_worker_metrics_endpoint_shows_the_tasks_counted_in_this_process() -> None:
    port = _free_port()
    metrics.serve_worker_metrics(port)
    metrics.task_finished("ingest", "succeeded", 0.25)
    metrics.task_retried("ingest")
    text = httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=10).text
    found = {f.name: f for f in text_string_to_metric_families(text)}
    durations = [
        s
        for s in found["disputatio_task_duration_seconds"].samples
        if s.name.endswith("_count") and s.labels == {"task": "ingest", "outcome": "succeeded"}
    ]
    assert durations and durations[0].value >= 1
    retries = found["disputatio_task_retries"].samples
    assert any(s.labels == {"task": "ingest"} and s.value >= 1 for s in retries)


def test_a_metrics_port_in_use_is_a_usage_error_before_the_worker_starts() -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = CliRunner().invoke(app, ["worker", "--metrics-port", str(port)])
    assert result.exit_code == 2
    assert "--metrics-port" in result.output and "Traceback" not in result.output
