"""``disputatio bench``: run the MedRAG-style debate or a baseline on a MIRAGE-style data set."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from disputatio.cli.options import COLLECTION, MODEL, TENANT
from disputatio.errors import ConfigError

console = Console(emoji=False)
_OUT = typer.Option(Path("bench-results"), "--out", "-o", help="Results folder.")
_ABLATE = typer.Option(None, help="KEY=VALUE context switch, repeatable.")


def parse_ablations(items: list[str] | None) -> dict[str, Any]:
    """Turn ``["use_verifier=false", "rounds=1"]`` into ``{"use_verifier": False, "rounds": 1}``.

    Values are read as JSON when they parse (booleans, numbers, lists), else as strings.

    Raises:
        ConfigError: If an item has no ``=``.
    """
    result: dict[str, Any] = {}
    for item in items or []:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ConfigError(f"ablation {item!r} is not KEY=VALUE (e.g. use_verifier=false)")
        try:
            result[key.strip()] = json.loads(value)
        except json.JSONDecodeError:
            result[key.strip()] = value
    return result


def bench(
    dataset: str = typer.Argument(..., help="medqa, medmcqa, bioasq, pubmedqa or mmlu_med."),
    protocol: str = typer.Option(
        "debate", "--protocol", "-p", help="debate, cot, rag, sc, sc_rag."
    ),
    n: int = typer.Option(20, "--n", "-n", help="Questions to draw."),
    seed: int = typer.Option(0, "--seed", help="Seed of the draw."),
    out: Path = _OUT,
    model: str | None = MODEL,
    tenant: str | None = TENANT,
    collection: str | None = COLLECTION,
    rounds: int | None = typer.Option(None, help="Debate rounds (default: medrag.rounds)."),
    k: int | None = typer.Option(None, help="Sections per retrieval (default: medrag.k)."),
    max_tokens: int | None = typer.Option(None, help="Completion budget of each answer."),
    corpus: str = typer.Option(
        "default",
        help="'default' (Postgres) or 'gold' (ORACLE: the drawn questions' gold snippets).",
    ),
    ablate: list[str] | None = _ABLATE,
    sc_samples: int | None = typer.Option(None, help="Self-consistency samples."),
    save_db: bool = typer.Option(False, "--save-db", help="Write runs to Postgres."),
    checkpoint: bool = typer.Option(False, "--checkpoint", help="Resumable debates (Postgres)."),
) -> None:
    """Benchmark one protocol (deprecated: use `disputatio eval run`).

    Writes ``<name>.json`` and ``<name>.md`` into ``--out``; a result of the same name from
    another configuration is kept and the new one gets a ``-<config hash>`` suffix.
    """
    from disputatio.eval.harness import run_benchmark
    from disputatio.eval.report import write_results
    from disputatio.nodes.medrag.context import MedragContext

    console.print(
        "[yellow]`disputatio bench` is deprecated: `disputatio eval run --datasets D "
        "--protocols P` runs every protocol on the same questions, resumably.[/]"
    )
    ctx = MedragContext(
        model=model,
        rounds=rounds,
        k=k,
        max_tokens=max_tokens,
        tenant=tenant,
        collection=collection,
    )
    from disputatio.storage.checkpoint import optional_checkpointer

    with optional_checkpointer(checkpoint) as saver:
        result = run_benchmark(
            dataset,
            protocol,
            n,
            seed,
            context=ctx,
            ablations=parse_ablations(ablate),
            corpus=corpus,
            sc_samples=sc_samples,
            save_db=save_db,
            checkpointer=saver,
            on_question=_progress_printer(),
        )
    json_path, md_path = write_results(result, out)
    _print_result(result)
    console.print(f"results: {json_path} and {md_path}")


def _progress_printer() -> Callable[[int, dict[str, Any]], None]:
    """A per-question callback printing ✓/✗, the answer, the gold and the running accuracy."""
    counter = {"done": 0, "correct": 0}

    def progress(i: int, record: dict[str, Any]) -> None:
        counter["done"] += 1
        counter["correct"] += bool(record.get("correct"))
        mark = "[green]✓[/]" if record.get("correct") else "[red]✗[/]"
        line = (
            f"{i + 1}: {record['question_id']} answer={record.get('answer')} "
            f"gold={record.get('gold')} ({record.get('consensus_type')}) "
            f"acc {counter['correct']}/{counter['done']}"
        )
        if record.get("error"):
            line += f" error: {record['error']}"
        console.print(f"{mark} {escape(line)}")

    return progress


def _print_result(result: dict[str, Any]) -> None:
    """Print the result's summary row (that of its Markdown table) as a metric/value table."""
    from disputatio.eval.report import markdown_table

    table = Table(title=result["experiment"]["name"])
    table.add_column("metric")
    table.add_column("value", justify="right")
    header, _, row = markdown_table([result]).splitlines()[:3]
    for column, value in zip(
        header.strip("| ").split(" | "), row.strip("| ").split(" | "), strict=True
    ):
        table.add_row(column, value)
    console.print(table)
