"""``disputatio worker``: run the queue's tasks (ingestion jobs, debates) from the database.

Start any number, on any machine that reaches the ``DATABASE_URL`` of the servers (and has the
same settings: models, queue name). A worker that dies mid-task is noticed after
``server.worker_stalled_s``; another takes its tasks up (a debate from its last checkpoint).
SIGINT/SIGTERM stop it: running tasks get ``server.worker_heartbeat_s`` to finish, then go back
to the queue. ``--metrics-port`` serves its own Prometheus metrics (a server's ``GET /metrics``
shows only its in-process worker's tasks). ``--no-prewarm`` (or ``server.worker_prewarm =
false``) leaves the ingestion models to the first ingestion task instead of loading them as the
worker starts.
"""

from __future__ import annotations

import typer
from rich.console import Console

out = Console(stderr=True)


def worker(
    concurrency: int | None = typer.Option(
        None,
        "--concurrency",
        "-c",
        min=1,
        help="Tasks at once (default: server.worker_concurrency).",
    ),
    metrics_port: int | None = typer.Option(
        None,
        "--metrics-port",
        min=1,
        max=65535,
        help="Serve this worker's Prometheus metrics (task latency, retries, dead letters, "
        "queue depth) at http://HOST:PORT/metrics.",
    ),
    metrics_host: str = typer.Option(
        "127.0.0.1", "--metrics-host", help="Address the metrics are served on."
    ),
    prewarm: bool | None = typer.Option(
        None,
        "--prewarm/--no-prewarm",
        help="Load the ingestion models (local embedding model, spaCy) as the worker starts, "
        "before the first ingestion task needs them (default: server.worker_prewarm).",
    ),
) -> None:
    """Run queued ingestion jobs and debates until stopped (Ctrl-C)."""
    from disputatio.api.metrics import QueueSampler, serve_worker_metrics
    from disputatio.api.services import Services
    from disputatio.api.worker import Worker
    from disputatio.settings import get_settings
    from disputatio.storage.db import database_url, redact

    settings = get_settings()
    if metrics_port is not None:  # the port is checked before anything starts
        try:
            serve_worker_metrics(metrics_port, metrics_host)
        except OSError as exc:
            raise typer.BadParameter(
                f"cannot serve metrics on {metrics_host}:{metrics_port}: {exc.strerror or exc}",
                param_hint="--metrics-port",
            ) from exc
        out.print(f"metrics at http://{metrics_host}:{metrics_port}/metrics")
    with out.status("connecting to the database…"):
        url = database_url(settings)
    sampler = QueueSampler(settings) if metrics_port is not None else None
    if sampler is not None:
        sampler.start()
    if prewarm is None:
        prewarm = settings.server.worker_prewarm
    runner = Worker(Services(settings=settings), concurrency=concurrency, prewarm=prewarm)
    models = "loading now" if prewarm else "left to the first ingestion task"
    out.print(
        f"worker {runner.name} on {redact(url)}, queue {settings.server.queue_name!r}, "
        f"{runner.concurrency} at once, ingestion models {models}"
    )
    try:
        runner.run()
    finally:
        if sampler is not None:
            sampler.stop()
