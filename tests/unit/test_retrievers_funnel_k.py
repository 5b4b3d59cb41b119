"""``search(k=…)`` returns up to ``k`` sections, even past the funnel's rerank candidate list."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from disputatio.models.rerank import NoReranker
from disputatio.retrievers.memory import InMemoryFunnel
from disputatio.settings import load_settings
from disputatio.testing import FakeEmbeddings

TEXTS = [f"Note {i}: the pancreas secretes insulin, story number {i}." for i in range(12)]


def test_search_returns_k_sections_when_k_exceeds_the_rerank_candidates(tmp_path: Path) -> None:
    settings = load_settings(
        home=tmp_path / "home", retrieval={"fusion": "rrf", "rerank_threshold": -1.0}
    )
    funnel = InMemoryFunnel(
        settings=settings,
        embeddings=FakeEmbeddings(size=256),
        reranker=NoReranker(),
        entity_extractor=False,
    )
    funnel.config = dataclasses.replace(funnel.config, rerank_candidates=4, trim_alpha=0.0)
    funnel.add_texts(TEXTS)
    assert len(funnel.search("pancreas insulin", k=10).sections) == 10
    assert len(funnel.search("pancreas insulin", k=3).sections) == 3
    assert len(funnel.search("pancreas insulin").sections) == 4  # k_final 8, 4 candidates
