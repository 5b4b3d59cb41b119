"""FunnelRetriever honours search arguments given at invoke time (LangChain's contract)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from disputatio.models.rerank import NoReranker
from disputatio.retrievers.base import RetrievalFilters
from disputatio.retrievers.langchain import FunnelRetriever
from disputatio.retrievers.memory import InMemoryFunnel
from disputatio.settings import load_settings
from disputatio.testing import FakeEmbeddings, FakeRetriever

TEXTS = [
    "Sourdough fermentation uses wild yeast.",
    "Rye sourdough ferments more slowly.",
    "A sourdough starter is fed flour and water.",
]


def test_k_at_invoke_time_wins_over_the_field(tmp_path: Path) -> None:
    funnel = InMemoryFunnel.from_texts(
        TEXTS,
        settings=load_settings(home=tmp_path, retrieval={"rerank_threshold": 0.0, "trim_alpha": 0}),
        embeddings=FakeEmbeddings(),
        reranker=NoReranker(),
        entity_extractor=False,
    )
    retriever = FunnelRetriever(retriever=funnel)
    assert len(retriever.invoke("sourdough")) == 3
    assert len(retriever.invoke("sourdough", k=1)) == 1
    assert len(asyncio.run(retriever.ainvoke("sourdough", k=2))) == 2
    assert [len(d) for d in retriever.batch(["sourdough", "rye sourdough"], k=1)] == [1, 1]
    assert len(FunnelRetriever(retriever=funnel, k=2).invoke("sourdough")) == 2


def test_every_search_argument_reaches_the_retriever() -> None:
    fake = FakeRetriever(TEXTS)
    mine = RetrievalFilters(tenant="t", collections=("papers",))
    theirs = RetrievalFilters(tenant="t", tags=("x",))
    retriever = FunnelRetriever(retriever=fake, k=3, threshold=0.4, filters=mine)
    retriever.invoke("sourdough")
    retriever.invoke("sourdough", k=1, threshold=0.0, filters=theirs)
    asyncio.run(retriever.ainvoke("sourdough", threshold=0.9))
    assert [(s["k"], s["threshold"], s["filters"]) for s in fake.searches] == [
        (3, 0.4, mine),
        (1, 0.0, theirs),
        (3, 0.9, mine),
    ]
    assert retriever.k == 3  # a call's arguments are that call's only


def test_an_unknown_search_argument_is_a_type_error() -> None:
    retriever = FunnelRetriever(retriever=FakeRetriever(TEXTS))
    with pytest.raises(TypeError, match="top_k"):
        retriever.invoke("sourdough", top_k=1)
    assert len(retriever.invoke("sourdough", verbose=True)) == 3  # LangChain's own option
