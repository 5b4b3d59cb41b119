"""A question asked of a tenant with nothing to search says so, not just "not relevant".

A new user's first ``disputatio query`` on an empty tenant got the refusal of an off-topic
question (``best score 0.00``) and no hint that nothing was ingested. The refusal now tells the
two apart: no candidate at all (every channel ran) is "nothing in scope", a low score is a low
score; the CLI adds the command that fixes it. No model is called in either case.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from disputatio.cli import query as query_cli
from disputatio.cli.app import app
from disputatio.graphs.rag import graph
from disputatio.models.rerank import NoReranker
from disputatio.nodes.rag.context import RagContext
from disputatio.retrievers.memory import InMemoryFunnel
from disputatio.settings import Settings, load_settings
from disputatio.state.retrieval import NOTHING_IN_SCOPE
from disputatio.testing import FakeEmbeddings, ScriptedChatModel


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return load_settings(home=tmp_path)


def _funnel(settings: Settings, texts: list[str]) -> InMemoryFunnel:
    return InMemoryFunnel.from_texts(
        [(t, {"source": "a.md"}) for t in texts],
        embeddings=FakeEmbeddings(),
        reranker=NoReranker(),
        entity_extractor=False,
        settings=settings,
    )


def _ask(funnel: InMemoryFunnel, settings: Settings, threshold: float) -> dict[str, Any]:
    answerer = ScriptedChatModel(script=[])  # any call would fail: none is expected
    ctx = RagContext(settings=settings, retriever=funnel, models={"answerer": answerer})
    out = graph.invoke({"question": "How deep is the pool?", "threshold": threshold}, context=ctx)
    assert answerer.calls == 0
    return dict(out)


def test_an_empty_tenant_is_refused_as_nothing_in_scope(settings: Settings) -> None:
    out = _ask(_funnel(settings, []), settings, threshold=0.5)
    assert out["refused"] and out["not_found"]
    assert out["claims"][0]["reason"] == NOTHING_IN_SCOPE and NOTHING_IN_SCOPE in out["answer"]


def test_a_low_score_is_refused_as_a_low_score(settings: Settings) -> None:
    funnel = _funnel(settings, ["The pool is 2 metres deep at the deep end.\n"])
    out = _ask(funnel, settings, threshold=1.01)  # nothing can reach it
    assert out["refused"] and out["best_score"] > 0  # something was found, not enough
    assert "threshold" in out["claims"][0]["reason"] and NOTHING_IN_SCOPE not in out["answer"]


def test_the_cli_says_what_to_do_about_an_empty_tenant(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    funnel = _funnel(settings, [])

    def make_context(model: Any, tenant: Any, collection: Any, answer: bool) -> RagContext:
        return RagContext(settings=settings, retriever=funnel, models={}, answer=answer)

    monkeypatch.setattr(query_cli, "make_context", make_context)
    result = CliRunner().invoke(app, ["query", "How deep is the pool?"])
    assert result.exit_code == 0, result.output
    assert "disputatio ingest" in result.output and "nothing is ingested" in result.output
