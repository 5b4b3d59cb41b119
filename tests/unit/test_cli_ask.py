"""``disputatio ask``: threads, corpus scope, evidence and transcripts for both protocols.

The command runs in-process (typer's runner) with an in-memory checkpointer and scripted
models, so these tests need no database and no model server.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from typer.testing import CliRunner

from disputatio.cli import ask
from disputatio.cli.app import app
from disputatio.errors import ConfigError
from disputatio.state.retrieval import Section
from disputatio.testing import FakeRetriever, ScriptedChatModel

SECTION = Section(
    id="brucella-0001", source="brucellosis.md", text="Serology confirms it.", score=1.0
)


@pytest.fixture
def wired(monkeypatch: pytest.MonkeyPatch, memory_saver: InMemorySaver) -> dict[str, Any]:
    """Route ``ask`` to one in-memory saver and scripted models; record the contexts built."""
    built: dict[str, Any] = {"contexts": [], "models": {}}
    real = ask.make_context

    def make_context(builder: Any, **kwargs: Any) -> Any:
        ctx = real(builder, **kwargs)
        built["contexts"].append(ctx)
        return dataclasses.replace(
            ctx, models=built["models"], retriever=FakeRetriever([SECTION], match_all=True)
        )

    monkeypatch.setattr(ask, "make_context", make_context)
    return built


def _invoke(*args: str) -> Any:
    return CliRunner().invoke(app, list(args), catch_exceptions=True)


def test_tenant_and_collection_reach_the_context(wired: dict[str, Any]) -> None:
    worker = ScriptedChatModel(script=["Verdict: serology.\nSerology [S1]."], repeat_last=True)
    wired["models"].update(
        {"worker": worker, "orchestrator": ScriptedChatModel(script=[{"subquestions": []}])}
    )
    result = _invoke(
        "ask", "How?", "--tenant", "acme", "--collection", "med", "--thread-id", "t-scope"
    )
    assert result.exit_code == 0, result.output
    ctx = wired["contexts"][0]
    assert (ctx.tenant, ctx.collection) == ("acme", "med")


def test_an_existing_thread_is_refused_without_resume(wired: dict[str, Any]) -> None:
    wired["models"]["worker"] = ScriptedChatModel(script=["Verdict: yes.\nIt is [S1]."])
    wired["models"]["worker"].repeat_last = True
    wired["models"]["orchestrator"] = ScriptedChatModel(script=[{"subquestions": []}])
    first = _invoke("ask", "First question?", "--thread-id", "t1")
    assert first.exit_code == 0, first.output
    calls = wired["models"]["worker"].calls
    second = _invoke("ask", "Another question?", "--thread-id", "t1")
    assert second.exit_code != 0
    assert isinstance(second.exception, ConfigError)
    assert "already holds a run" in str(second.exception) and "--resume" in str(second.exception)
    # the old thread's state was not touched by the refused question
    assert wired["models"]["worker"].calls == calls  # no model ran for the refused question


def test_medrag_transcript_and_evidence_are_printed(wired: dict[str, Any]) -> None:
    wired["models"].update(
        {
            "agent1": ScriptedChatModel(
                script=['retrieve("serology")', "Serology [S1]. \\boxed{A}"]
            ),
            "agent2": ScriptedChatModel(script=['retrieve("culture")', "Culture. \\boxed{A}"]),
        }
    )
    result = _invoke(
        "ask",
        "How is brucellosis confirmed?",
        "--protocol",
        "medrag",
        "--option",
        "A=serology",
        "--option",
        "B=x-ray",
        "--show-transcript",
        "--show-context",
        "--thread-id",
        "t-med",
    )
    assert result.exit_code == 0, result.output
    out = result.output
    assert "agent1 (debater, round 1) searched: serology" in out
    assert "Serology [brucella-0001]. \\boxed{A}" in out
    assert "evidence (cited sections)" in out and "Serology confirms it." in out
    assert "brucella-0001" in out and "consensus_type: agreement" in out


def test_demo_context_yields_verified_citations_on_scripted_workers() -> None:
    import dataclasses as dc

    from disputatio.cli.demo import DEMO_QUESTION, demo_context
    from disputatio.graphs.debate import graph
    from disputatio.settings import load_settings

    ctx = demo_context(load_settings(), FakeRetriever([SECTION], match_all=True))
    assert (ctx.flat, ctx.workers, ctx.max_tool_calls, ctx.seed_k) == (True, 2, 0, 4)
    uncited = ScriptedChatModel(
        script=["Verdict: serology.\nBy serology.", "Verdict: serology.\nBy serology [S1]."]
    )
    cited = ScriptedChatModel(script=["Verdict: serology\nSerology confirms it [S1]."])
    models = {"worker-root-0": uncited, "worker-root-1": cited}
    out = graph.invoke({"question": DEMO_QUESTION}, context=dc.replace(ctx, models=models))
    assert [c["id"] for c in out["citations"]] == ["brucella-0001"]
    assert uncited.calls == 2  # the uncited answer was asked once for its labels
