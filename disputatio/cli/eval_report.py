"""``disputatio eval report``: the Markdown tables, paired tests and plots of finished runs.

::

    disputatio eval report ~/.local/share/disputatio/eval/runs/<run id> [<run id>...] -o DIR
"""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console

from disputatio.cli.eval_run import default_out

console = Console(emoji=False)


def report(
    runs: list[str] = typer.Argument(..., help="Run folders (or run ids under --runs)."),
    out: Path | None = typer.Option(None, "--out", "-o", help="Report folder (<run>/report)."),
    runs_root: Path | None = typer.Option(None, "--runs", help="Runs folder (<home>/eval/runs)."),
    seed: int = typer.Option(0, "--seed", help="Bootstrap seed."),
) -> None:
    """Write the Markdown report (tables, paired tests) and PNG plots of finished runs."""
    from disputatio.eval.render import write_report
    from disputatio.settings import get_settings

    root = runs_root or default_out(get_settings())
    dirs = [Path(r) if Path(r).is_dir() else root / r for r in runs]
    target = out or dirs[0] / "report"
    paths = write_report(dirs, target, seed=seed)
    for name, path in paths.items():
        console.print(f"{name}: {path}", highlight=False)
