"""``disputatio jobs list | retry``: the queue's tasks and its dead letter, for an operator.

Reads the database directly (every tenant's tasks; ``--tenant`` narrows), like ``disputatio
db``; clients use ``GET /jobs`` and ``POST /jobs/{id}/retry`` instead.
"""

from __future__ import annotations

import json

import typer
from rich.console import Console
from rich.table import Table

from disputatio.errors import DisputatioError

app = typer.Typer(help="The task queue: list tasks, retry failed ones.", no_args_is_help=True)
out = Console()


@app.command("list")
def list_(
    state: str | None = typer.Option(
        None,
        "--state",
        help="todo, doing, succeeded, failed (the dead letter), cancelled, aborted.",
    ),
    tenant: str | None = typer.Option(None, "--tenant", help="Only this tenant's tasks."),
    limit: int = typer.Option(50, "--limit", min=1, max=1000, help="Newest tasks shown."),
    as_json: bool = typer.Option(False, "--json", help="One JSON object per line."),
) -> None:
    """List the queue's tasks, newest first."""
    from disputatio.api.jobs import list_queue_jobs
    from disputatio.settings import get_settings
    from disputatio.storage import queue

    if state is not None and state not in queue.STATES:
        raise typer.BadParameter(f"one of {', '.join(queue.STATES)}", param_hint="--state")
    rows = list_queue_jobs(get_settings(), tenant, state, limit)
    if as_json:
        for row in rows:
            typer.echo(json.dumps(row, default=str))
        return
    table = Table("id", "kind", "state", "attempts", "tenant", "of", "error")
    for row in rows:
        of = row.get("file_name") or row.get("case_id") or ""
        attempts = f"{row['attempts']}/{row['max_attempts']}"
        table.add_row(
            str(row["id"]), row["kind"], row["state"], attempts, row["tenant"] or "", of,
            row["error"] or "",
        )  # fmt: skip
    out.print(table if rows else "no tasks")


@app.command("retry")
def retry(job_id: int = typer.Argument(..., help="The task's id (from `jobs list`).")) -> None:
    """Put a failed task back in the queue (it gets one more attempt)."""
    from disputatio.api.jobs import retry_queue_job
    from disputatio.settings import get_settings

    outcome = retry_queue_job(get_settings(), job_id, None)
    if outcome == "missing":
        raise DisputatioError(f"no task {job_id}")
    if outcome == "not_failed":
        raise DisputatioError(f"task {job_id} has not failed: nothing to retry")
    out.print(f"task {job_id} queued again")
