"""``disputatio query "…"`` and ``disputatio calibrate``: ask the corpus directly."""

from __future__ import annotations

import json
from pathlib import Path

import typer
from rich.console import Console
from rich.panel import Panel
from rich.table import Table

from disputatio.cli.options import AS_JSON, COLLECTION, MODEL, SHOW_CONTEXT, TENANT

out = Console()


def query(
    question: str = typer.Argument(..., help="What to ask the corpus."),
    k: int | None = typer.Option(None, help="Sections handed to the answerer."),
    threshold: float | None = typer.Option(
        None, help="Refusal threshold on the calibrated relevance (0-1)."
    ),
    tenant: str | None = TENANT,
    collection: str | None = COLLECTION,
    show_context: bool = SHOW_CONTEXT,
    as_json: bool = AS_JSON,
    no_answer: bool = typer.Option(
        False, "--no-answer", help="Retrieve only; do not call the LLM."
    ),
    model: str | None = MODEL,
) -> None:
    """Retrieve from the corpus through the funnel and answer with verified citations."""
    from disputatio.graphs.rag import graph
    from disputatio.nodes.rag.context import RagContext

    ctx = RagContext(model=model, tenant=tenant, collection=collection, answer=not no_answer)
    inputs = {"question": question, "k": k, "threshold": threshold}
    with out.status("retrieving…"):
        result = graph.invoke(inputs, context=ctx)
    if as_json:
        typer.echo(json.dumps(result, indent=2, default=str, ensure_ascii=False))
        return
    sections = result.get("sections", [])
    if show_context or no_answer:
        for s in sections:
            where = Path(s["source"]).name + (f" p.{s['page']}" if s.get("page") else "")
            out.print(Panel(s["text"][:1200], title=f"{s['id']} · {where} · {s['score']:.2f}"))
    if result.get("answer"):
        out.print(Panel(result["answer"], title="answer", expand=False))
    by_id = {s["id"]: s for s in sections}
    for cid in result.get("citations", []):
        s = by_id.get(cid, {})
        out.print(f"[{cid}] {s.get('source', '?')}" + (f" p.{s['page']}" if s.get("page") else ""))
    if result.get("invalid_citations"):
        out.print(f"[yellow]removed unverifiable citations:[/] {result['invalid_citations']}")
    if result.get("failed_channels"):
        dropped = "; ".join(f"{k}: {v}" for k, v in result["failed_channels"].items())
        out.print(f"[yellow]dropped:[/] {dropped}")
    timings = ", ".join(f"{k} {v:.0f}ms" for k, v in result.get("timings_ms", {}).items())
    out.print(f"[dim]best score {result.get('best_score', 0):.2f}; {timings}[/]")


def calibrate(
    file: Path | None = typer.Option(
        None, help="JSONL of {query, relevant_ids: [...]} (section ids, document ids or labels)."
    ),
    synthetic: int = typer.Option(0, help="Or sample this many chunks as synthetic queries."),
    alpha: float | None = typer.Option(
        None, help="Conformal trim miscoverage (default: settings)."
    ),
    refusal_alpha: float | None = typer.Option(
        None, help="Share of on-topic queries the refusal may refuse (default: settings)."
    ),
    tenant: str | None = TENANT,
    collection: str | None = COLLECTION,
    as_json: bool = AS_JSON,
) -> None:
    """Fit score calibration (Platt), the refusal threshold and the conformal trim."""
    from disputatio.retrievers.calibration import calibrate as run_calibration

    with out.status("calibrating…"):
        result = run_calibration(
            file=file,
            synthetic=synthetic,
            alpha=alpha,
            refusal_alpha=refusal_alpha,
            tenant=tenant,
            collection=collection,
        )
    if as_json:
        typer.echo(json.dumps(result, indent=2))
        return
    table = Table(title="calibration")
    table.add_column("what")
    table.add_column("value")
    for key, value in result.items():
        shown = (
            f"{value:.4f}"
            if isinstance(value, float)
            else ", ".join(f"{v:.4f}" for v in value)
            if isinstance(value, list)
            else str(value)
        )
        table.add_row(key, shown)
    out.print(table)
