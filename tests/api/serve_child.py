"""A disputatio API server or queue worker with scripted agents that answer slowly (to kill).

``python serve_child.py PORT [--no-worker]`` serves the app of ``disputatio serve`` (same code
path: Postgres checkpointer, queue, embedded worker unless ``--no-worker``) under uvicorn;
``python serve_child.py worker`` runs a ``disputatio worker``. Both need ``DATABASE_URL`` and
``DISPUTATIO_HOME``; ``QUEUE_NAME`` keeps a test's tasks apart from other tests' servers.
:class:`fakes.FakeModels` are injected so a debate takes a few seconds, and every statement of
its debate agents ends with `` (server PID)``, so a test tells which process made a move.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import uvicorn
from fakes import FakeModels, server_settings

from disputatio.api.app import create_app
from disputatio.api.services import Services
from disputatio.api.worker import Worker
from disputatio.settings import Settings, load_settings


def child_settings() -> Settings:
    """The settings of a child: the test's database and queue, a dead worker noticed in ~3 s."""
    server = server_settings(
        queue_name=os.environ.get("QUEUE_NAME", "children"),
        queue_poll_s=0.2,
        worker_heartbeat_s=0.5,
        worker_stalled_s=float(os.environ.get("WORKER_STALLED_S", "3")),
        job_attempts=int(os.environ.get("JOB_ATTEMPTS", "3")),
        job_retry_base_s=0.2,
        max_jobs_per_tenant=int(os.environ.get("MAX_JOBS", "8")),
        max_upload_mb=1.0,
    )
    return load_settings(
        database_url=os.environ["DATABASE_URL"],
        home=Path(os.environ["DISPUTATIO_HOME"]),
        server=server,
    )


def main(argv: list[str]) -> None:
    """Serve (or work) until killed."""
    settings = child_settings()
    delay = float(os.environ.get("FAKE_DELAY_S", "0.6"))
    fakes = FakeModels(delay_s=delay, rounds=2, tag=f" (server {os.getpid()})")
    if argv[0] == "worker":
        Worker(Services(settings=settings, context_overrides=fakes)).run()
        return
    services = Services(
        settings=settings, context_overrides=fakes, embedded_worker="--no-worker" not in argv
    )
    uvicorn.run(create_app(services), host="127.0.0.1", port=int(argv[0]), log_level="warning")


if __name__ == "__main__":
    main(sys.argv[1:])
