"""Quick-path test helpers: an in-memory funnel over texts, with fake embeddings, no reranker."""

from __future__ import annotations

from disputatio.models.rerank import NoReranker
from disputatio.retrievers.memory import InMemoryFunnel
from disputatio.settings import Settings
from disputatio.testing import FakeEmbeddings


def text_funnel(text: str, source: str, settings: Settings) -> InMemoryFunnel:
    """A funnel over ``text`` (one markdown file named ``source``), no entity graph."""
    return InMemoryFunnel.from_texts(
        [(f"{text}\n", {"source": source})],
        embeddings=FakeEmbeddings(),
        reranker=NoReranker(),
        entity_extractor=False,
        settings=settings,
    )
