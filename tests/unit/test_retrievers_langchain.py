"""FunnelRetriever: sections become LangChain Documents; refusals are empty and reported."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any
from uuid import UUID

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.embeddings import DeterministicFakeEmbedding
from langchain_core.retrievers import BaseRetriever

from disputatio.models.rerank import NoReranker
from disputatio.retrievers.base import RetrievalFilters
from disputatio.retrievers.langchain import REFUSAL_EVENT, FunnelRetriever
from disputatio.retrievers.memory import InMemoryFunnel
from disputatio.settings import load_settings
from disputatio.state.retrieval import NO_SUITABLE_CONTEXT, Section
from disputatio.testing import FakeRetriever

SECTION = Section(
    id="p1",
    document_id="d1",
    source="/docs/curie.md",
    title="Curie",
    page=3,
    heading_path=["Radium", "Prizes"],
    text="Marie Curie won two Nobel prizes.",
    score=0.82,
    child_ids=["c1"],
    channels=["graph", "lexical"],
)


#: A section scored below the 0.25 threshold: a search over it is refused.
WEAK = Section(id="weak", text="Unrelated.", score=0.1)


class EventRecorder(BaseCallbackHandler):
    def __init__(self) -> None:
        self.events: list[tuple[str, Any]] = []

    def on_custom_event(self, name: str, data: Any, *, run_id: UUID, **kwargs: Any) -> None:
        self.events.append((name, data))


def test_sections_become_documents_with_metadata() -> None:
    stub = FakeRetriever([SECTION], match_all=True)
    filters = RetrievalFilters(tenant="t", collections=("papers",))
    retriever = FunnelRetriever(retriever=stub, k=3, threshold=0.4, filters=filters)
    assert isinstance(retriever, BaseRetriever)
    docs = retriever.invoke("who won?")
    assert stub.searches == [{"query": "who won?", "k": 3, "threshold": 0.4, "filters": filters}]
    [doc] = docs
    assert doc.id == "p1" and doc.page_content == SECTION.text
    assert doc.metadata == {
        "id": "p1",
        "document_id": "d1",
        "source": "/docs/curie.md",
        "title": "Curie",
        "page": 3,
        "heading_path": ["Radium", "Prizes"],
        "score": 0.82,
        "channels": ["graph", "lexical"],
    }


def test_refusal_is_an_empty_list_and_a_custom_event() -> None:
    refused = FakeRetriever([WEAK], match_all=True, threshold=0.25)
    recorder = EventRecorder()
    docs = FunnelRetriever(retriever=refused).invoke("q", config={"callbacks": [recorder]})
    assert docs == []
    expected = {"query": "q", "best_score": 0.1, "threshold": 0.25, "marker": NO_SUITABLE_CONTEXT}
    assert recorder.events == [(REFUSAL_EVENT, expected)]


def test_refusal_document_when_asked() -> None:
    refused = FakeRetriever([WEAK], match_all=True, threshold=0.25)
    retriever = FunnelRetriever(retriever=refused, refusal_document=True)
    [doc] = retriever.invoke("q")
    assert doc.page_content == NO_SUITABLE_CONTEXT
    assert doc.metadata["refused"] is True and doc.metadata["best_score"] == 0.1


def test_async_invoke() -> None:
    stub = FakeRetriever([SECTION], match_all=True)
    docs = asyncio.run(FunnelRetriever(retriever=stub).ainvoke("q"))
    assert [d.id for d in docs] == ["p1"]


def test_over_the_in_memory_funnel(tmp_path: Path) -> None:
    texts = {
        "bread": "# Bread\n\nSourdough fermentation uses wild yeast.",
        "stars": "# Stars\n\nTelescopes observe distant galaxies.",
    }
    funnel = InMemoryFunnel.from_texts(
        [(text, {"source": name}) for name, text in texts.items()],
        settings=load_settings(home=tmp_path, retrieval={"rerank_threshold": 0.0}),
        embeddings=DeterministicFakeEmbedding(size=32),
        reranker=NoReranker(),
        entity_extractor=False,
    )
    docs = FunnelRetriever(retriever=funnel, k=2).invoke("sourdough fermentation")
    assert docs[0].metadata["source"] == "bread" and docs[0].id == docs[0].metadata["id"]
    assert "lexical" in docs[0].metadata["channels"] and len(docs) <= 2
