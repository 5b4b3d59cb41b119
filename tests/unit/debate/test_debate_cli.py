"""The ``ask`` command's pieces: options, the protocol table, streaming and rendering."""

from __future__ import annotations

import pytest
import typer
from debate_fakes import context, scripted
from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.memory import InMemorySaver
from rich.console import Console

from disputatio.cli import ask
from disputatio.errors import ConfigError
from disputatio.graphs import registry
from disputatio.graphs.debate import DebateContext
from disputatio.settings import load_settings


def test_parse_options() -> None:
    assert ask.parse_options([]) is None
    assert ask.parse_options(["A=Lipase", " B = COX-1 = the enzyme"]) == {
        "A": "Lipase",
        "B": "COX-1 = the enzyme",
    }
    for bad in (["A"], ["=x"], ["A="], ["A=x", "A=y"]):
        with pytest.raises(typer.BadParameter):
            ask.parse_options(bad)


def test_protocol_table_and_lazy_import() -> None:
    assert {"hierarchical", "medrag"} <= set(ask.protocols())
    builder = ask.load_builder("hierarchical")
    assert builder.context_schema is DebateContext
    with pytest.raises(ConfigError, match="unknown protocol"):
        ask.load_builder("telepathy")
    ghost = registry.GraphSpec(
        name="ghost",
        builder="disputatio.graphs.nope:build_graph",
        protocol="ghost",
        inputs=registry.question_inputs,
        cli_names=("ghost",),
    )
    registry.register(ghost)
    try:
        with pytest.raises(ConfigError, match="not available"):
            ask.load_builder("ghost")
    finally:
        registry.unregister("ghost")


def test_make_context_passes_model_and_settings() -> None:
    settings = load_settings()
    ctx = ask.make_context(ask.load_builder("hierarchical"), model="local:x", settings=settings)
    assert isinstance(ctx, DebateContext)
    assert ctx.model == "local:x" and ctx.settings is settings


def test_run_protocol_streams_moves_and_result_renders() -> None:
    models = {
        "worker-root-0": scripted("w0", "Aspirin irreversibly inhibits COX-1 [s-aspirin]."),
        "worker-root-1": scripted("w1", "No idea."),
        "reviewer-root": scripted("r", "Worker 0 is supported."),
        "summarizer-root": scripted("s", "Aspirin irreversibly inhibits COX-1 [s-aspirin]."),
    }
    graph = ask.load_builder("hierarchical").compile(checkpointer=InMemorySaver())
    config: RunnableConfig = {"configurable": {"thread_id": "cli"}}
    board = ask.MoveBoard()
    values = ask.run_protocol(
        graph,
        {"question": "How?", "options": None},
        config,
        context(models, flat=True, workers=2, rounds=0),
        board.feed,
    )
    assert sorted(m["agent"] for m in board.moves) == sorted(
        m["agent"] for m in values["transcript"]
    )
    assert board.status.startswith("final:")
    console = Console(record=True, width=120)
    console.print(board.render())
    ask.render_result(values, show_transcript=True, console=console)
    text = console.export_text()
    assert "reviewer-root" in text and "inhibits COX-1 [s-aspirin]." in text
    assert "s-aspirin" in text and "pharma.md" in text  # citations table
    assert "usage: 4 agents, 4 calls" in text


def test_render_result_accepts_plain_id_citations() -> None:
    console = Console(record=True, width=100)
    values = {
        "answer": "B [ab12] [s-x]",
        "citations": ["pmid-1"],
        "consensus_type": "majority",
        "usage": {},
    }
    ask.render_result(values, show_transcript=False, console=console)
    text = console.export_text()
    assert "pmid-1" in text and "consensus_type: majority" in text
    assert "B [ab12] [s-x]" in text  # citations are not swallowed as rich markup
