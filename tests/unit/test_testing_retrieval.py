"""The retrieval test doubles of ``disputatio.testing``: fake retriever, embeddings, reranker."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from disputatio.retrievers.base import CorpusRetriever, RetrievalFilters
from disputatio.retrievers.memory import InMemoryFunnel
from disputatio.settings import load_settings
from disputatio.state.retrieval import Section
from disputatio.testing import (
    FakeEmbeddings,
    FakeRetriever,
    ScriptedReranker,
    ScriptExhaustedError,
)


def test_fake_retriever_finds_sections_by_shared_words_and_records_searches() -> None:
    fake = FakeRetriever(
        [
            "Marie Curie discovered radium.",
            Section(id="hubble", title="Hubble", text="Galaxies recede."),
            "Radium glows.",
        ],
        k=2,
    )
    assert isinstance(fake, CorpusRetriever)
    result = fake.search("Curie radium")
    assert result.ids == ["s1", "s3"] and [s.score for s in result.sections] == [1.0, 0.5]
    assert fake.search("hubble galaxies", k=1).ids == ["hubble"]  # titles count too
    assert fake.search("radium", k=5).ids == ["s1", "s3"]  # ties keep the given order
    off_topic = fake.search("sourdough")
    assert off_topic.refused and not off_topic.sections
    assert fake.search("curie radium glows", threshold=0.9).refused  # best 2/3 < 0.9
    scope = RetrievalFilters(tenant="t")
    fake.search("radium", filters=scope)
    assert fake.queries[0] == "Curie radium" and len(fake.queries) == 6
    assert fake.searches[-1] == {"query": "radium", "k": None, "threshold": None, "filters": scope}


def test_fake_retriever_match_all_returns_its_ranking_for_any_query() -> None:
    ranking = [Section(id=f"r{i}", text=f"Evidence {i}.", score=1.0 - i / 10) for i in range(4)]
    fake = FakeRetriever(ranking, k=2, match_all=True, threshold=0.25)
    result = fake.search("sourdough")  # shares no word with any section
    assert result.sections == ranking[:2] and not result.refused  # as given, own scores
    assert (result.best_score, result.threshold) == (1.0, 0.25)
    assert fake.search("anything", k=3).ids == ["r0", "r1", "r2"]
    assert fake.search("else", k=9).ids == ["r0", "r1", "r2", "r3"]
    assert fake.calls == [("sourdough", None), ("anything", 3), ("else", 9)]


def test_fake_retriever_by_keyword_answers_a_topic_with_its_sections() -> None:
    dose = Section(id="dose", text="The usual dose is 75 mg daily.", score=0.7)
    bleed = Section(id="bleed", text="Aspirin raises bleeding risk.")
    aspirin = Section(id="aspirin", text="Aspirin inhibits COX-1.")
    fake = FakeRetriever([aspirin], match_all=True, by_keyword={"DOSE": [dose], "bleed": [bleed]})
    keyed = fake.search("Aspirin Dose and bleeding?")  # the first key found wins, any case
    assert keyed.sections == [dose] and keyed.best_score == 0.7  # as given, own score
    assert fake.search("bleeding", k=1).ids == ["bleed"]
    assert fake.search("mechanism").ids == ["aspirin"]  # no key: the corpus, as usual
    words = FakeRetriever(["Radium glows."], by_keyword={"dose": [dose]})
    assert words.search("radium").ids == ["s1"] and words.search("sourdough").refused
    assert words.search("radium dose").ids == ["dose"]  # the key wins over shared words
    assert FakeRetriever([], by_keyword={"dose": [dose]}, threshold=0.9).search("dose").refused
    assert fake.queries == ["Aspirin Dose and bleeding?", "bleeding", "mechanism"]


def test_fake_retriever_fails_with_records_then_raises() -> None:
    fake = FakeRetriever(["Radium glows."], fails_with=ConnectionError("corpus is down"))
    with pytest.raises(ConnectionError, match="corpus is down"):
        fake.search("radium", k=3)
    assert fake.searches == [{"query": "radium", "k": 3, "threshold": None, "filters": None}]


def test_fake_embeddings_are_a_deterministic_bag_of_words() -> None:
    emb = FakeEmbeddings(size=64)

    def cos(a: list[float], b: list[float]) -> float:
        return sum(x * y for x, y in zip(a, b, strict=True))

    radium = emb.embed_query("Radium glows")
    assert radium == FakeEmbeddings(size=64).embed_query("radium GLOWS!")  # words, any case
    assert len(radium) == 64 and math.isclose(cos(radium, radium), 1.0)
    near, far = emb.embed_documents(["radium decays", "sourdough bread"])
    assert cos(radium, near) > 0.4 and cos(radium, far) == 0.0
    assert emb.calls == ["Radium glows", "radium decays", "sourdough bread"]
    assert emb.embed_query("") == [0.0] * 64


def test_scripted_reranker_replays_its_script_and_records_calls(tmp_path: Path) -> None:
    boom = RuntimeError("rerank server down")
    reranker = ScriptedReranker([[0.2, 0.9], {"yeast": 0.8}, boom], default=0.1)
    assert reranker.score("q", ["a", "b"]) == [0.2, 0.9]
    assert reranker.score("q", ["wild yeast", "flour"]) == [0.8, 0.1]
    with pytest.raises(RuntimeError, match="down"):
        reranker.score("q", ["a"])
    with pytest.raises(ScriptExhaustedError):
        reranker.score("q", ["a"])
    assert [q for q, _ in reranker.calls] == ["q"] * 4
    with pytest.raises(AssertionError, match="1 scores for 2 texts"):
        ScriptedReranker([[0.5]]).score("q", ["a", "b"])
    # in the funnel it is a model reranker: its scores order the sections
    funnel = InMemoryFunnel.from_texts(
        ["Sourdough uses wild yeast.", "Rye bread is dense and sour."],
        settings=load_settings(home=tmp_path, retrieval={"rerank_threshold": 0.0}),
        embeddings=FakeEmbeddings(),
        reranker=ScriptedReranker([lambda q, texts: [float("Rye" in t) for t in texts]]),
        entity_extractor=False,
    )
    result = funnel.search("sourdough wild yeast rye")
    assert result.sections[0].text.startswith("Rye") and result.sections[0].score == 1.0
