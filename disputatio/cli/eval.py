"""``disputatio eval``: labelled evaluations (retrieval quality, protocol comparisons)."""

from __future__ import annotations

import typer

from disputatio.cli import eval_report, eval_retrieval, eval_run

app = typer.Typer(
    help="Labelled evaluations: retrieval quality and protocol comparisons.", no_args_is_help=True
)
app.command("retrieval")(eval_retrieval.retrieval)
app.command("run")(eval_run.run)
app.command("report")(eval_report.report)
app.command("calibrate-confidence")(eval_report.calibrate_confidence)
