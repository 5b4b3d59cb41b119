"""The public path as a row of the retrieval evaluation: the tools' call, scored like the rows."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from disputatio.eval.retrieval_data import label_of
from disputatio.eval.retrieval_metrics import quality
from disputatio.eval.retrieval_public import (
    AFTER,
    BEFORE,
    PUBLIC_K,
    PublicRun,
    precision,
    public_rows,
    run_public,
)
from disputatio.eval.retrieval_report import rows, trim_lines
from disputatio.models.rerank import NoReranker
from disputatio.retrievers.langchain import FunnelRetriever
from disputatio.retrievers.memory import InMemoryFunnel
from disputatio.settings import Settings, load_settings
from disputatio.state.retrieval import RetrievalResult
from disputatio.testing import FakeEmbeddings, FakeRetriever
from disputatio.tools.retrieval import make_retrieval_tool, search_corpus

TOPICS = {
    "insulin": "The pancreas secretes insulin from beta cells; insulin lowers blood glucose.",
    "glucagon": "The pancreas secretes glucagon from alpha cells; glucagon raises glucose.",
    "liver": "The liver stores glucose as glycogen and releases glucose when blood sugar falls.",
    "tides": "Ocean tides rise and fall twice a day because of the gravity of the Moon.",
    "violin": "Stradivari built violins in Cremona with spruce tops and maple backs.",
}
QUERIES = ["Which cells secrete insulin to lower blood glucose?", "What causes ocean tides?"]
RELEVANT = [frozenset({"insulin", "glucagon"}), frozenset({"tides"})]


class SpyRetriever(FakeRetriever):
    """A fake retriever that records every call exactly as made (keywords included)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.raw_calls: list[tuple[tuple[Any, ...], dict[str, Any]]] = []

    def search(self, *args: Any, **kwargs: Any) -> RetrievalResult:
        """Record the call, then search as the fake does."""
        self.raw_calls.append((args, dict(kwargs)))
        return super().search(*args, **kwargs)


def _labels_of(sections: Mapping[str, str]) -> Any:
    return lambda ids: {i: sections[i] for i in ids if i in sections}


def test_the_public_row_makes_the_same_search_call_as_the_tools() -> None:
    texts = list(TOPICS.values())
    spy = SpyRetriever(texts)
    labels = _labels_of({f"s{i}": name for i, name in enumerate(TOPICS, start=1)})
    run_public(spy, QUERIES, labels)
    ours = list(spy.raw_calls)
    spy.raw_calls.clear()
    tool = make_retrieval_tool(spy)
    for query in QUERIES:
        tool.invoke({"query": query, "k": PUBLIC_K})  # an agent's call
    assert spy.raw_calls == ours  # same positional query, same keywords: k only
    spy.raw_calls.clear()
    for query in QUERIES:
        search_corpus(spy, query, k=PUBLIC_K)  # a node's call on an agent's behalf
    assert spy.raw_calls == ours
    spy.raw_calls.clear()
    FunnelRetriever(retriever=spy).invoke(QUERIES[0], k=PUBLIC_K)  # the LangChain retriever
    (args, kwargs), = spy.raw_calls  # fmt: skip
    assert args == ours[0][0] and kwargs["k"] == PUBLIC_K
    assert kwargs.get("threshold") is None and kwargs.get("filters") is None


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    # every section is a candidate (rrf fusion scores all matches); refusal off
    return load_settings(
        home=tmp_path / "home", retrieval={"fusion": "rrf", "rerank_threshold": -1.0}
    )


def _funnel(settings: Settings, trim_alpha: float) -> InMemoryFunnel:
    funnel = InMemoryFunnel(
        settings=settings,
        embeddings=FakeEmbeddings(size=1024),
        reranker=NoReranker(),
        entity_extractor=False,
    )
    funnel.config = dataclasses.replace(funnel.config, trim_alpha=trim_alpha)
    funnel.add_texts([(text, {"source": f"{name}.txt"}) for name, text in TOPICS.items()])
    return funnel


def _funnel_labels(funnel: InMemoryFunnel) -> Any:
    def labels(ids: Sequence[str]) -> dict[str, str]:
        return {i: label_of(s.source) for i, s in funnel.backend.sections(ids).items()}

    return labels


def test_before_trim_is_the_same_search_untrimmed_and_rows_are_scored_like_the_others(
    settings: Settings,
) -> None:
    trimmed = _funnel(settings, trim_alpha=0.99)
    untrimmed = _funnel(settings, trim_alpha=0.0)
    run = run_public(trimmed, QUERIES, _funnel_labels(trimmed))
    plain = run_public(untrimmed, QUERIES, _funnel_labels(untrimmed))
    # the trim cut something, and what came before it is the untrimmed funnel's answer
    assert sum(run.returned) < sum(run.candidates)
    assert run.before == plain.after == plain.before
    assert all(a == b[: len(a)] for a, b in zip(run.after, run.before, strict=True))

    got = public_rows(run, RELEVANT)
    for name, ranking in ((AFTER, run.after), (BEFORE, run.before)):
        row = got["rows"][name]
        assert {k: row[k] for k in quality([], [])} == quality(ranking, RELEVANT)
        assert row["precision"] == pytest.approx(precision(ranking, RELEVANT))
    trim = got["trim"]
    assert trim["returned"]["min"] == min(run.returned)
    assert trim["returned"]["max"] == max(run.returned)
    assert trim["returned"]["mean"] == pytest.approx(sum(run.returned) / len(QUERIES))
    cost = trim["after_minus_before"]
    assert cost["recall@32"] == pytest.approx(
        got["rows"][AFTER]["recall@32"] - got["rows"][BEFORE]["recall@32"]
    )
    assert cost["recall@32"] <= 0  # a trim only removes sections


def test_precision_counts_relevant_returned_ids_over_answered_questions() -> None:
    assert precision([["a", "x"], ["b"], []], [{"a"}, {"b", "c"}, {"d"}]) == pytest.approx(0.75)
    assert precision([[]], [{"a"}]) == 0.0


def test_a_refused_search_returns_nothing_but_keeps_its_untrimmed_ranking() -> None:
    spy = SpyRetriever(list(TOPICS.values()), threshold=2.0)  # refuses everything
    run = run_public(spy, QUERIES[:1], _labels_of({"s1": "insulin"}))
    assert run.refused == 1 and run.after == [[]] and run.returned == [0]


def test_the_report_shows_the_public_rows_and_the_trim() -> None:
    run = PublicRun(
        after=[["a"]], before=[["a", "b"]], returned=[1], candidates=[2], times_ms=[3.0]
    )
    result = {"stages": {}, "peers": {}, "public": public_rows(run, [frozenset({"a", "b"})])}
    labels = [label for label, _ in rows(result)]
    assert labels == [f"public: {AFTER}", f"public: {BEFORE}"]
    lines = trim_lines(result)
    assert "1.0 sections returned" in lines[0] and "recall@32 1.000 → 0.500" in lines[1]
    assert trim_lines({"public": {}}) == []
