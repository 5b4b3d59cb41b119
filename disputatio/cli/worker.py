"""``disputatio worker``: run the queue's tasks (ingestion jobs, debates) from the database.

Start any number, on any machine that reaches the ``DATABASE_URL`` of the servers (and has the
same settings: models, queue name). A worker that dies mid-task is noticed after
``server.worker_stalled_s``; another takes its tasks up (a debate from its last checkpoint).
SIGINT/SIGTERM stop it: running tasks get ``server.worker_heartbeat_s`` to finish, then go back
to the queue.
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
) -> None:
    """Run queued ingestion jobs and debates until stopped (Ctrl-C)."""
    from disputatio.api.services import Services
    from disputatio.api.worker import Worker
    from disputatio.settings import get_settings
    from disputatio.storage.db import database_url, redact

    settings = get_settings()
    with out.status("connecting to the database…"):
        url = database_url(settings)
    runner = Worker(Services(settings=settings), concurrency=concurrency)
    out.print(
        f"worker {runner.name} on {redact(url)}, queue {settings.server.queue_name!r}, "
        f"{runner.concurrency} at once"
    )
    runner.run()
