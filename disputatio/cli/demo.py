"""``disputatio demo``: the whole stack end to end on the sample corpus, printing each step.

1. start the embedded PostgreSQL (or use ``DATABASE_URL``) and apply migrations;
2. ingest the sample corpus shipped with the package (skipped when already ingested);
3. prepare the local chat model (reassemble + verify the GGUF once, start llama.cpp);
4. run a hierarchical debate (flat, two workers, one round: sized for a CPU) with the Postgres
   checkpointer, streaming the moves, then print the transcript summary, answer and citations.
"""

from __future__ import annotations

import time
import uuid
from importlib import resources
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.text import Text

from disputatio.settings import get_settings

out = Console()

DEMO_QUESTION = "How is brucellosis diagnosed, and how does it differ from Q fever?"
DEMO_TENANT = "demo"


def _step(title: str) -> float:
    out.rule(f"[bold]{title}")
    return time.monotonic()


def sample_corpus() -> Path:
    """Folder of the sample corpus shipped inside the package."""
    return Path(str(resources.files("disputatio") / "data" / "sample_corpus"))


def demo_context(
    settings: Any, retriever: Any, *, model: str | None = None, rounds: int = 1
) -> Any:
    """The debate settings of the demo (flat, two workers: sized for a CPU).

    The end-to-end test runs the same context on the small model, so what the demo shows is
    what the test checks: an answer with at least one verified citation.
    """
    from disputatio.nodes.debate.context import DebateContext

    return DebateContext(
        model=model,
        settings=settings,
        retriever=retriever,
        flat=True,
        workers=2,
        rounds=rounds,
        max_tool_calls=0,
        seed_k=4,
        max_tokens=320,
    )


def demo(
    question: str = typer.Option(DEMO_QUESTION, "--question", "-q", help="What to ask."),
    model: str | None = typer.Option(None, "--model", "-m", help="Chat model string."),
    rounds: int = typer.Option(1, help="Debate rounds if the workers disagree."),
) -> None:
    """Start the services, ingest the sample corpus, run a debate, print the cited answer."""
    from disputatio.cli.ask import MoveBoard, render_result, run_protocol
    from disputatio.graphs.debate import build_graph
    from disputatio.graphs.ingest import graph as ingest_graph
    from disputatio.models import get_chat_model
    from disputatio.retrievers import default_retriever
    from disputatio.storage.checkpoint import open_checkpointer
    from disputatio.storage.db import database_url, embedded_server, redact

    settings = get_settings()
    t = _step("1/4 database")
    with out.status("starting PostgreSQL + pgvector and applying migrations…"):
        url = database_url(settings)
    where = "DATABASE_URL" if settings.database_url else f"embedded ({embedded_server().data_dir})"
    out.print(f"ready in {time.monotonic() - t:.1f}s: {redact(url)} [{where}]")

    t = _step("2/4 ingest the sample corpus")
    with out.status("extracting, chunking, finding entities, embedding…"):
        result = ingest_graph.invoke({"paths": [str(sample_corpus())], "tenant": DEMO_TENANT})
    s = result["summary"]
    out.print(
        f"{s['files']} files: {s['new']} new, {s['skipped']} unchanged, {s['failed']} failed; "
        f"{s['chunks']} chunks, {s['entities']} entities in {time.monotonic() - t:.1f}s"
    )

    t = _step("3/4 chat model")
    spec = model or settings.chat_model_for("worker")
    with out.status(f"preparing {spec} (the first run reassembles and verifies the weights)…"):
        get_chat_model(spec, settings=settings)
    out.print(f"{spec} ready in {time.monotonic() - t:.1f}s")

    t = _step("4/4 debate")
    out.print(f"[bold]Q:[/] {question}")
    retriever = default_retriever(settings, tenant=DEMO_TENANT)
    context = demo_context(settings, retriever, model=model, rounds=rounds)
    thread: dict[str, Any] = {"configurable": {"thread_id": f"demo-{uuid.uuid4().hex[:8]}"}}
    board = MoveBoard()

    def show(mode: str, chunk: Any) -> None:
        before = len(board.moves)
        board.feed(mode, chunk)
        for move in board.moves[before:]:
            text = " ".join(str(move.get("content", "")).split())
            line = Text(f"{move.get('agent')}", style="cyan")
            line.append(f" ({move.get('role')}): {text[:160]}…")  # model text: never markup
            out.print(line)

    with open_checkpointer(settings) as saver:
        graph = build_graph().compile(checkpointer=saver, name="debate")
        values = run_protocol(graph, {"question": question}, thread, context, show)
    render_result(values, show_transcript=False, show_context=True, console=out)
    out.print(
        f"debated in {time.monotonic() - t:.1f}s (thread {thread['configurable']['thread_id']}); "
        "stop the database with `disputatio db stop`"
    )
