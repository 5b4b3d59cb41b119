"""The tenant is resolved at the edge, into the run's context; one function makes the filters.

``RagContext.retrieval_filters`` is the only place the rag graph turns its context and input
into the channels' scope; a funnel resolves its own default tenant once, when it is built. The
tenant named at the edge (the API key's, the CLI's ``--tenant``) is the one every channel gets.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from disputatio.api.services import Services
from disputatio.cli.query import make_context
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
    # the input names no tenant: a ``tenant`` key there (the LangGraph auth drops it before a
    # run starts) is no state key, and never widens or moves the scope
    assert sources(funnel, settings, {"tenant": "globex"}) == {"acme.md"}
    assert sources(funnel, settings, {"tenant": "globex"}, tenant="acme") == {"acme.md"}


def test_retrieval_filters_precedence(funnel: InMemoryFunnel, settings: Settings) -> None:
    ctx = RagContext(retriever=funnel, settings=settings)
    assert ctx.retrieval_filters() == RetrievalFilters(tenant="acme")
    scoped = RagContext(retriever=funnel, settings=settings, tenant="globex", collection="c1")
    assert scoped.retrieval_filters() == RetrievalFilters(tenant="globex", collections=("c1",))
    inputs = {"collections": ["c2"], "tags": ["x"], "language": "es", "tenant": "acme"}
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


class _RecordingBackend:
    """A funnel backend that records the filters each of its queries is given."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner
        self.filters: list[tuple[str, RetrievalFilters]] = []

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._inner, name)
        if not callable(attr):
            return attr

        def call(*args: Any, **kwargs: Any) -> Any:
            for value in (*args, *kwargs.values()):
                if isinstance(value, RetrievalFilters):
                    self.filters.append((name, value))
            return attr(*args, **kwargs)

        return call


@pytest.mark.parametrize("edge", ["api", "cli"])
def test_the_tenant_named_at_the_edge_reaches_every_channels_filters(
    edge: str, funnel: InMemoryFunnel, settings: Settings
) -> None:
    from disputatio.graphs.rag import graph

    funnel.backend = _RecordingBackend(funnel.backend)  # type: ignore[assignment]
    if edge == "api":  # POST /query: the API key's tenant, through Services.context
        services = Services(
            settings=settings,
            context_overrides=lambda graph, tenant: {"retriever": funnel, "answer": False},
            resume_on_startup=False,
            embedded_worker=False,
        )
        context = services.context("rag", "globex")
    else:  # disputatio query --tenant globex
        context = replace(
            make_context(None, "globex", None, False), retriever=funnel, settings=settings
        )
    out = graph.invoke({"question": "sourdough notes", "tenant": "acme"}, context=context)
    recorded = funnel.backend.filters  # type: ignore[attr-defined]
    channels = {name for name, _ in recorded}
    assert set(funnel.config.active_channels) <= channels
    assert {f.tenant for _, f in recorded} == {"globex"}  # not the settings' nor the funnel's
    assert funnel.tenant == settings.tenant == "acme"
    assert {s["source"] for s in out["sections"]} == {"globex.md"}
    assert "tenant" not in out
