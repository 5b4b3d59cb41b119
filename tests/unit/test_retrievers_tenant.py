"""The tenant is resolved at the edge, into the run's context; one function makes the filters.

``RagContext.retrieval_filters`` is the only place the rag graph turns its context and input
into the channels' scope; a funnel resolves its own default tenant once, when it is built.
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from disputatio.models.rerank import NoReranker
from disputatio.nodes.rag.context import RagContext
from disputatio.retrievers.base import RetrievalFilters, in_scope
from disputatio.retrievers.memory import InMemoryFunnel
from disputatio.settings import Settings, load_settings
from disputatio.testing import FakeEmbeddings


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return load_settings(
        home=tmp_path, tenant="acme", retrieval={"rerank_threshold": 0.0, "trim_alpha": 0.0}
    )


@pytest.fixture
def funnel(settings: Settings) -> InMemoryFunnel:
    f = InMemoryFunnel(
        settings=settings, embeddings=FakeEmbeddings(), reranker=NoReranker(),
        entity_extractor=False,
    )  # fmt: skip
    f.add_texts([("Sourdough notes of acme.", {"source": "acme.md"})])
    f.add_texts([("Sourdough notes of globex.", {"source": "globex.md"})], tenant="globex")
    return f


def sources(
    funnel: InMemoryFunnel, settings: Settings, inputs: dict[str, Any], **ctx: Any
) -> set[str]:
    from disputatio.graphs.rag import graph

    context = RagContext(retriever=funnel, settings=settings, answer=False, **ctx)
    out = graph.invoke({"question": "sourdough notes", **inputs}, context=context)
    return {s["source"] for s in out["sections"]}


def test_the_rag_graph_searches_the_tenant_the_edge_resolved(
    funnel: InMemoryFunnel, settings: Settings
) -> None:
    assert sources(funnel, settings, {}) == {"acme.md"}  # the funnel's own default scope
    assert sources(funnel, settings, {}, tenant="globex") == {"globex.md"}  # API, CLI
    # the legacy input key (the LangGraph auth handler sets it with the context's)
    assert sources(funnel, settings, {"tenant": "globex"}) == {"globex.md"}
    assert sources(funnel, settings, {"tenant": "globex"}, tenant="acme") == {"globex.md"}


def test_retrieval_filters_precedence(funnel: InMemoryFunnel, settings: Settings) -> None:
    ctx = RagContext(retriever=funnel, settings=settings)
    assert ctx.retrieval_filters() == RetrievalFilters(tenant="acme")
    scoped = RagContext(retriever=funnel, settings=settings, tenant="globex", collection="c1")
    assert scoped.retrieval_filters() == RetrievalFilters(tenant="globex", collections=("c1",))
    inputs = {"collections": ["c2"], "tags": ["x"], "language": "es", "tenant": None}
    assert scoped.retrieval_filters(inputs) == RetrievalFilters(
        tenant="globex", collections=("c2",), tags=("x",), language="es"
    )


def test_a_funnel_default_scope_fills_what_the_run_leaves_open(settings: Settings) -> None:
    base = RetrievalFilters(tenant="t0", collections=("papers",), tags=("peer",), language="en")
    fake = SimpleNamespace(
        backend=None, embeddings=None, reranker=None, config=None, plan=None, default_filters=base
    )
    assert RagContext(retriever=fake, settings=settings).retrieval_filters() == base
    ctx = RagContext(retriever=fake, settings=settings, tenant="t1")
    assert ctx.retrieval_filters({"tags": ["x"]}) == RetrievalFilters(
        tenant="t1", collections=("papers",), tags=("x",), language="en"
    )


def test_no_tenant_anywhere_is_refused_not_every_tenant(settings: Settings) -> None:
    fake = SimpleNamespace(backend=None, embeddings=None, reranker=None, config=None, plan=None)
    with pytest.raises(ValueError, match="no tenant"):
        RagContext(retriever=fake, settings=settings).retrieval_filters()
    ctx = RagContext(retriever=fake, settings=settings, tenant="t1")
    assert ctx.retrieval_filters().tenant == "t1"


def test_a_search_without_a_tenant_runs_in_the_retrievers_tenant(
    funnel: InMemoryFunnel,
) -> None:
    default = RetrievalFilters(tenant="acme", collections=("c",))
    assert in_scope(None, default) == default
    assert in_scope(RetrievalFilters(tags=("x",)), default) == RetrievalFilters("acme", tags=("x",))
    assert in_scope(RetrievalFilters("globex"), default) == RetrievalFilters("globex")
    assert funnel.default_filters == RetrievalFilters(tenant="acme")
    no_tenant = funnel.search("sourdough", filters=RetrievalFilters(tags=None))
    assert [s.source for s in no_tenant.sections] == ["acme.md"]
