"""``disputatio query "…"`` and ``disputatio calibrate``: ask the corpus directly."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from disputatio.cli.claims import echo_json, render_claims
from disputatio.cli.options import AS_JSON, COLLECTION, MODEL, SHOW_CONTEXT, TENANT
from disputatio.state.retrieval import NOTHING_IN_SCOPE

out = Console()


def make_context(
    model: str | None, tenant: str | None, collection: str | None, answer: bool
) -> Any:
    """The run context of the command (tests replace this to inject a funnel and models)."""
    from disputatio.nodes.rag.context import RagContext

    return RagContext(model=model, tenant=tenant, collection=collection, answer=answer)


def as_json_object(result: dict[str, Any]) -> dict[str, Any]:
    """``--json``: the graph's output with the checked answer's fields first.

    ``answer``, ``claims`` (each with its verdict and evidence), ``grounded``, ``not_found``,
    ``citations`` and ``invalid_citations`` lead; the rest (sections, scores, timings, usage,
    the model's ``draft``) follows.
    """
    head = {
        "answer": result.get("answer"),
        "claims": list(result.get("claims") or []),
        "grounded": result.get("grounded"),
        "not_found": result.get("not_found"),
        "citations": list(result.get("citations") or []),
        "invalid_citations": list(result.get("invalid_citations") or []),
    }
    return head | {k: v for k, v in result.items() if k not in head}


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
    """Retrieve from the corpus through the funnel and answer, each claim checked."""
    from disputatio.graphs.rag import graph

    ctx = make_context(model, tenant, collection, not no_answer)
    inputs = {"question": question, "k": k, "threshold": threshold}
    with Console(stderr=True).status("retrieving…"):
        result = dict(graph.invoke(inputs, context=ctx))
    if as_json:
        echo_json(as_json_object(result))
        return
    sections = result.get("sections", [])
    if show_context or no_answer:
        for s in sections:
            where = Path(s["source"]).name + (f" p.{s['page']}" if s.get("page") else "")
            out.print(
                Panel(Text(s["text"][:1200]), title=f"{s['id']} · {where} · {s['score']:.2f}")
            )
    if result.get("claims"):
        render_claims(result["claims"], out, sources={s["id"]: s for s in sections})
    elif result.get("answer"):
        out.print(Panel(Text(result["answer"]), title="answer", expand=False))
    by_id = {s["id"]: s for s in sections}
    for cid in result.get("citations", []):
        s = by_id.get(cid, {})
        line = f"[{cid}] {s.get('source', '?')}" + (f" p.{s['page']}" if s.get("page") else "")
        out.print(Text(line))
    if result.get("invalid_citations"):
        removed = ", ".join(map(str, result["invalid_citations"]))
        out.print(Text(f"removed fabricated citations: {removed}", style="yellow"))
    if result.get("failed_channels"):
        dropped = "; ".join(f"{k}: {v}" for k, v in result["failed_channels"].items())
        out.print(Text(f"dropped channels: {dropped}", style="yellow"))
    if any(c.get("reason") == NOTHING_IN_SCOPE for c in result.get("claims") or []):
        out.print(Text(f"{NOTHING_IN_SCOPE}: `disputatio ingest PATH` first", style="yellow"))
    if result.get("confidence") is not None:
        judged = result.get("relevance")
        why = f"; the judge's P(it answers the question) {judged:.2f}" if judged is not None else ""
        out.print(Text(f"confidence {result['confidence']:.2f} (fitted P(right){why})"))
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
