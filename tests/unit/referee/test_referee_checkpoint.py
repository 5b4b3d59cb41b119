"""The clarification interrupt through the Postgres checkpointer, and the CLI on top of it."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import pytest
import typer
from langchain_core.runnables import RunnableConfig
from langgraph.types import Command
from typer.testing import CliRunner

from disputatio.cli import referee as cli
from disputatio.cli.app import app
from disputatio.graphs.referee import RefereeContext, build_graph
from disputatio.settings import Settings
from disputatio.state.referee import RefereeResult
from disputatio.storage.checkpoint import open_checkpointer

from .referee_fakes import AXES, context, happy_models, plan_reply

pytestmark = pytest.mark.integration

QUESTION = {
    "question": "Compare pgvector with what?",
    "kind": "multi_choice",
    "choices": ["FAISS", "Neo4j"],
    "target": "options",
}


def _ambiguous() -> dict[str, Any]:
    return plan_reply(["pgvector"], AXES, ambiguous=True, questions=[QUESTION])


def _thread() -> RunnableConfig:
    return {"configurable": {"thread_id": f"referee-{uuid.uuid4()}"}}


def _pause(settings: Settings, thread: RunnableConfig) -> None:
    """Run until the clarification interrupt, then close the connection."""
    with open_checkpointer(settings) as saver:
        graph = build_graph(max_attempts=1).compile(checkpointer=saver)
        out = graph.invoke(
            {"query": "which vector store?"},
            thread,
            context=context(happy_models(planner=[_ambiguous()])),
        )
        assert out["__interrupt__"][0].value["questions"][0]["id"] == "q1"


def test_interrupt_resumes_in_a_new_connection(settings: Settings, db_url: str) -> None:
    thread = _thread()
    _pause(settings, thread)
    # a new connection, a new graph object, new models: the first plan is not asked again
    models = happy_models(planner=[plan_reply(["pgvector", "FAISS"], AXES)])
    with open_checkpointer(settings) as saver:
        graph = build_graph(max_attempts=1).compile(checkpointer=saver)
        assert graph.get_state(thread).next == ("clarify",)
        out = graph.invoke(Command(resume={"q1": "FAISS"}), thread, context=context(models))
    result = RefereeResult.model_validate(out)
    assert result.status == "ok"
    assert result.plan is not None and [o.name for o in result.plan.options] == [
        "pgvector",
        "FAISS",
    ]
    assert models["planner"].calls == 1
    assert [a.answer for a in result.clarifications] == [["FAISS"]]


def test_run_referee_resumes_a_paused_thread(settings: Settings, db_url: str) -> None:
    thread = _thread()
    _pause(settings, thread)
    models = happy_models(planner=[plan_reply(["pgvector"], AXES)])
    seen: list[dict[str, Any]] = []

    def answer(value: dict[str, Any]) -> dict[str, str]:
        seen.append(value)
        return {"q1": "1"}

    result = cli.run_referee(
        {"query": "ignored: the thread is resumed"},
        context=context(models),
        settings=settings,
        thread_id=thread["configurable"]["thread_id"],
        answerer=answer,
    )
    assert seen[0]["questions"][0]["question"] == QUESTION["question"]
    assert result.plan is not None and [o.name for o in result.plan.options] == [
        "pgvector",
        "FAISS",
    ]


def test_run_referee_reads_a_finished_thread_back(settings: Settings, db_url: str) -> None:
    thread_id = f"referee-{uuid.uuid4()}"
    kwargs: dict[str, Any] = {"settings": settings, "thread_id": thread_id, "answerer": dict}
    first = cli.run_referee(
        {"query": "pgvector or FAISS?"}, context=context(happy_models()), **kwargs
    )
    assert first.status == "ok"
    no_models = context({})  # any model call would fail at once
    again = cli.run_referee({"query": "something else"}, context=no_models, **kwargs)
    assert again == first


def _app(monkeypatch: pytest.MonkeyPatch, models: dict[str, Any]) -> typer.Typer:
    """The real CLI app, with the referee command's models replaced by scripts."""
    monkeypatch.setattr(cli, "make_context", lambda *a, **k: context(models))
    return app


def test_cli_with_answers_writes_the_report(
    settings: Settings, db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    models = happy_models(planner=[_ambiguous(), plan_reply(["pgvector"], AXES)])
    app = _app(monkeypatch, models)
    res = CliRunner().invoke(
        app,
        ["referee", "which vector store?", "--answers", '{"q1": "FAISS"}', "--out", str(tmp_path)],
    )
    assert res.exit_code == 0, res.output
    assert "weighted score" in res.output and "FAISS" in res.output
    assert "| Axis | Weight | pgvector | FAISS |" in (tmp_path / "report.md").read_text()
    assert (tmp_path / "chart.png").read_bytes().startswith(b"\x89PNG\r\n\x1a\n")


def test_cli_prompts_for_answers(
    settings: Settings, db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    models = happy_models(planner=[_ambiguous(), plan_reply(["pgvector"], AXES)])
    res = CliRunner().invoke(
        _app(monkeypatch, models), ["referee", "which vector store?"], input="1\n"
    )
    assert res.exit_code == 0, res.output
    assert "Compare pgvector with what?" in res.output
    assert "1. FAISS" in res.output


def test_cli_exits_1_on_a_partial_result(
    settings: Settings, db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    models = happy_models(advocate_faiss=["not JSON"], examiner_pgvector=[], examiner_faiss=[])
    res = CliRunner().invoke(
        _app(monkeypatch, models), ["referee", "pgvector or FAISS?", "--answers", "{}"]
    )
    assert res.exit_code == 1
    assert "AGENT_FAILED" in res.output


def test_context_factory_uses_the_model_string(settings: Settings) -> None:
    ctx = cli.make_context("local:qwen2.5-coder-0.5b", settings)
    assert isinstance(ctx, RefereeContext) and ctx.model == "local:qwen2.5-coder-0.5b"


def test_cli_thread_id_reads_a_finished_run_back_and_shows_the_context(
    settings: Settings, db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--thread-id`` (the shared option) names the run; ``--show-context`` prints the
    sections the agents cited, with their documents."""
    thread = f"referee-{uuid.uuid4()}"
    args = ["referee", "pgvector or FAISS?", "--thread-id", thread, "--answers", "{}"]
    res = CliRunner().invoke(_app(monkeypatch, happy_models()), [*args, "--show-context"])
    assert res.exit_code == 0, res.output
    assert f"thread: {thread}" in res.output
    assert "Cited sources" in res.output and "pg-1" in res.output and "fa-1" in res.output
    # the same thread again: read back, no model is called
    res = CliRunner().invoke(_app(monkeypatch, {}), args)
    assert res.exit_code == 0, res.output
    assert "weighted score" in res.output


def test_cli_passes_tenant_and_collection(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: dict[str, Any] = {}

    def fake(model: Any, s: Any, tenant: Any = None, collection: Any = None) -> RefereeContext:
        seen.update(model=model, tenant=tenant, collection=collection)
        raise cli.ConfigError("stop here")

    monkeypatch.setattr(cli, "make_context", fake)
    res = CliRunner().invoke(
        app, ["referee", "q?", "--tenant", "acme", "--collection", "docs", "-m", "local:x"]
    )
    assert seen == {"model": "local:x", "tenant": "acme", "collection": "docs"}
    assert isinstance(res.exception, cli.ConfigError)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["referee", "   "], "the question is empty"),
        (["referee", "q?", "--answers", "5"], "--answers must be a JSON object"),
        (["referee", "q?", "--option", "FAISS", "--option", "faiss"], "the same option twice"),
    ],
)
def test_cli_bad_input_is_one_line_without_traceback(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from disputatio.cli import main

    with pytest.raises(SystemExit) as exit_info:
        main(args)
    err = capsys.readouterr().err
    assert exit_info.value.code == 2
    assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
