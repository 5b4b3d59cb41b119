"""``disputatio ingest PATH…``: ingest files and folders with a progress bar and a summary.

The bar counts files as they settle (unchanged ones at once, the rest batch by batch) and shows
documents per second and the time remaining.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
)
from rich.table import Table
from rich.text import Text

from disputatio.cli.options import INTO_COLLECTION, TENANT

out = Console()


def _rate(task: Task) -> float | None:
    """Files settled per second since the run started (bursts of a batch average out)."""
    elapsed = task.finished_time if task.finished else task.elapsed
    if not elapsed or not task.completed:
        return None
    return task.completed / elapsed


class RateColumn(ProgressColumn):
    """Documents per second."""

    def render(self, task: Task) -> Text:
        """The rate, or a dash before there is one."""
        rate = _rate(task)
        return Text("– docs/s" if rate is None else f"{rate:,.1f} docs/s", style="cyan")


class EtaColumn(ProgressColumn):
    """Time left at the current rate."""

    def render(self, task: Task) -> Text:
        """``eta h:mm:ss``, or a dash while unknown."""
        rate = _rate(task)
        if task.total is None or rate is None:
            return Text("eta –", style="magenta")
        left = int(max(0.0, task.total - task.completed) / rate)
        return Text(f"eta {left // 3600}:{left // 60 % 60:02d}:{left % 60:02d}", style="magenta")


def progress_columns() -> tuple[ProgressColumn, ...]:
    """Bar, count, rate, elapsed and remaining time, and the last file's outcome."""
    return (
        TextColumn("[bold]{task.description}"),
        BarColumn(bar_width=24),
        MofNCompleteColumn(),
        RateColumn(),
        TimeElapsedColumn(),
        EtaColumn(),
        TextColumn("{task.fields[last]}"),
    )


def ingest(
    paths: list[Path] = typer.Argument(..., exists=True, help="Files and folders to ingest."),
    tenant: str | None = TENANT,
    collection: str | None = INTO_COLLECTION,
    tag: list[str] = typer.Option([], "--tag", help="Tag for every document (repeatable)."),
    force: bool = typer.Option(False, help="Replace documents whose content is unchanged."),
) -> None:
    """Ingest documents: extract, chunk, find entities, embed and index them.

    Unchanged files (same content already stored for the tenant) are reported as skipped
    without being parsed.
    """
    from disputatio.graphs.ingest import graph

    inputs = {
        "paths": [str(p) for p in paths],
        "tenant": tenant,
        "collection": collection,
        "tags": tag,
        "force": force,
    }
    summary: dict[str, Any] = {}
    failures: list[tuple[str, str]] = []
    with Progress(
        *progress_columns(), console=out, transient=False, speed_estimate_period=60
    ) as bar:
        task = bar.add_task("ingesting", total=None, last="")
        events = graph.stream(inputs, stream_mode=["custom", "updates"], subgraphs=True)
        for _ns, mode, data in cast(Iterator[tuple[Any, str, dict[str, Any]]], events):
            if mode == "custom" and data.get("event") == "files":
                bar.update(task, total=data["count"])
            elif mode == "custom" and data.get("event") == "file":
                name = Path(data["path"]).name
                bar.update(task, advance=1, last=f"{data['status']}: {name}")
                if data["status"] == "failed":
                    failures.append((data["path"], data.get("error") or ""))
            elif mode == "updates" and "summarize" in data:
                summary = data["summarize"]["summary"]
    keys = ("files", "new", "replaced", "skipped", "failed", "chunks", "entities", "seconds")
    table = Table(title="ingestion summary (skipped = unchanged)")
    for key in keys:
        table.add_column(key, justify="right")
    table.add_row(*(str(summary.get(k, 0)) for k in keys))
    out.print(table)
    if summary.get("graph_pending"):
        out.print(
            f"[yellow]graph store[/]: {summary['graph_pending']} outbox rows not delivered yet "
            "(replayed by the next ingest)"
        )
    for path, error in failures:
        out.print(f"[red]failed[/] {path}: {error}", highlight=False)
    if failures and len(failures) == summary.get("files"):
        raise typer.Exit(1)
