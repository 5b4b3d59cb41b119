"""``search(k=…)`` returns up to ``k`` sections, even past the funnel's rerank candidate list."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from disputatio.models.rerank import NoReranker
from disputatio.retrievers.memory import InMemoryFunnel
from disputatio.settings import load_settings
from disputatio.testing import FakeEmbeddings

TEXTS = [f"Note {i}: the pancreas secretes insulin, story number {i}." for i in range(12)]


def _funnel(tmp_path: Path, **retrieval: object) -> InMemoryFunnel:
    """An in-memory RRF funnel that never refuses, on fake embeddings, no reranker model."""
    settings = load_settings(
        home=tmp_path / "home", retrieval={"fusion": "rrf", "rerank_threshold": -1.0, **retrieval}
    )
    return InMemoryFunnel(
        settings=settings,
        embeddings=FakeEmbeddings(size=256),
        reranker=NoReranker(),
        entity_extractor=False,
    )


def test_search_returns_k_sections_when_k_exceeds_the_rerank_candidates(tmp_path: Path) -> None:
    funnel = _funnel(tmp_path)
    funnel.config = dataclasses.replace(funnel.config, rerank_candidates=4, trim_alpha=0.0)
    funnel.add_texts(TEXTS)
    assert len(funnel.search("pancreas insulin", k=10).sections) == 10
    assert len(funnel.search("pancreas insulin", k=3).sections) == 3
    assert len(funnel.search("pancreas insulin").sections) == 4  # k_final 8, 4 candidates


def test_the_deep_trim_fills_only_a_search_deeper_than_the_answerers(tmp_path: Path) -> None:
    """At ``k_final`` the list is what the 0.5 trim keeps; a deeper search gets the sections
    that trim cut after it, never before."""
    funnel = _funnel(tmp_path, k_final=4)
    funnel.config = dataclasses.replace(funnel.config, trim_alpha=0.5, deep_trim_alpha=0.0)
    funnel.add_texts(
        [f"The pancreas secretes insulin into the blood, note {i}." for i in range(3)]
        + [f"Kettles boil water for tea and pancreas soup, story {i}." for i in range(6)]
    )
    query = "pancreas secretes insulin"
    deep = funnel.search(query, k=9).sections
    cut = 0.5 * max(s.score for s in deep)
    precise = [s.id for s in deep if s.score >= cut]
    assert 0 < len(precise) < len(deep)  # the trim cut some sections
    assert [s.id for s in deep][: len(precise)] == precise  # ... after the precise part
    assert [s.id for s in funnel.search(query).sections] == precise[:4]  # k_final: none of them


def test_a_deep_search_ranks_where_the_answerers_search_refuses(tmp_path: Path) -> None:
    """Below the refusal threshold, the answerer's search (``k_final``) is refused and a deeper
    one still gets its ranking, as dense search would; without a deep trim both are refused."""
    funnel = _funnel(tmp_path, k_final=4, rerank_threshold=2.0)  # no score reaches 2.0
    funnel.add_texts(TEXTS)
    answerer = funnel.search("pancreas insulin")
    assert answerer.refused and not answerer.sections
    deep = funnel.search("pancreas insulin", k=10)
    assert not deep.refused and len(deep.sections) == 10
    assert deep.best_score < deep.threshold  # the caller can still tell
    funnel.config = dataclasses.replace(funnel.config, deep_trim_alpha=None)
    assert funnel.search("pancreas insulin", k=10).refused
