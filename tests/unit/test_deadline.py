"""Per-channel deadlines: a late channel is dropped and recorded, the funnel goes on."""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence

import pytest

from disputatio.models.rerank import NoReranker
from disputatio.retrievers.base import RetrievalFilters
from disputatio.retrievers.funnel import (
    ChannelDeadlineError,
    FunnelConfig,
    run_channel_with_deadline,
    run_funnel,
)
from disputatio.retrievers.plan import deterministic_plan
from disputatio.state.retrieval import RetrievalResult, Section
from disputatio.testing import FakeEmbeddings, ScriptedReranker


class SlowLexicalBackend:
    """Semantic answers at once; lexical blocks until the test releases it."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.vectors = {"c1": FakeEmbeddings().embed_query("q fever diagnosis")}

    def lexical(
        self, keywords: Sequence[str], filters: RetrievalFilters, k: int
    ) -> list[tuple[str, float]]:
        self.release.wait(timeout=30)
        return [("c2", 1.0)]

    def semantic(
        self, vector: Sequence[float], filters: RetrievalFilters, k: int
    ) -> list[tuple[str, float]]:
        return [("c1", 0.9)]

    def graph(
        self, seeds: Sequence[str], filters: RetrievalFilters, k: int, hops: int
    ) -> list[tuple[str, float]]:
        return []

    def parents_of(self, child_ids: Sequence[str]) -> dict[str, str]:
        return {c: "p-" + c for c in child_ids}

    def sections(self, parent_ids: Sequence[str]) -> dict[str, Section]:
        return {p: Section(id=p, text=f"text of {p}") for p in parent_ids}

    def child_texts(self, child_ids: Sequence[str]) -> dict[str, str]:
        return {c: f"text of {c}" for c in child_ids}

    def child_vectors(self, child_ids: Sequence[str]) -> dict[str, Sequence[float]]:
        return {c: v for c, v in self.vectors.items() if c in child_ids}


@pytest.fixture
def backend() -> Iterator[SlowLexicalBackend]:
    slow = SlowLexicalBackend()
    yield slow
    slow.release.set()  # let the abandoned worker finish


def _search(backend: SlowLexicalBackend, channel_timeout_s: float) -> RetrievalResult:
    """The funnel over the lexical and semantic channels, each with ``channel_timeout_s``."""
    cfg = FunnelConfig(channel_timeout_s=channel_timeout_s).tuned(
        weights={"lexical": 0.5, "semantic": 0.5, "graph": 0.0}
    )
    return run_funnel(
        "q fever diagnosis",
        backend,  # type: ignore[arg-type]
        FakeEmbeddings(),
        NoReranker(),
        cfg,
        RetrievalFilters(tenant="t"),
        threshold=0.0,
    )


def test_late_channel_is_dropped_and_recorded(backend: SlowLexicalBackend) -> None:
    result = _search(backend, channel_timeout_s=0.2)
    assert result.trace.channels_used == ["semantic"]
    assert result.trace.failed_channels["lexical"].startswith("deadline")
    assert [s.id for s in result.sections] == ["p-c1"]  # the late channel's hit is not there
    assert set(result.trace.rerank_scores) == {"p-c1"}
    assert {"plan", "semantic", "lexical", "fuse", "rerank"} <= set(result.trace.timings_ms)


def test_channel_in_time_is_kept(backend: SlowLexicalBackend) -> None:
    backend.release.set()
    result = _search(backend, channel_timeout_s=30.0)
    assert result.trace.channels_used == ["lexical", "semantic"]
    assert not result.trace.failed_channels


def test_single_channel_deadline_raises(backend: SlowLexicalBackend) -> None:
    cfg = FunnelConfig(channel_timeout_s=0.2)
    plan = deterministic_plan("q fever")
    with pytest.raises(ChannelDeadlineError, match="deadline"):
        run_channel_with_deadline(
            "lexical",
            backend,  # type: ignore[arg-type]
            plan,
            FakeEmbeddings(),
            RetrievalFilters(tenant="t"),
            cfg,
        )


def test_reranker_failure_keeps_the_fusion_order(backend: SlowLexicalBackend) -> None:
    backend.release.set()
    cfg = FunnelConfig(trim_alpha=0.0).tuned(
        weights={"lexical": 0.5, "semantic": 0.5, "graph": 0.0}
    )
    args = ("q fever diagnosis", backend, FakeEmbeddings())
    plain = run_funnel(*args, NoReranker(), cfg, RetrievalFilters(tenant="t"), threshold=0.0)  # type: ignore[arg-type]
    down = ScriptedReranker([RuntimeError("rerank server down")])
    failed = run_funnel(*args, down, cfg, RetrievalFilters(tenant="t"), threshold=0.0)  # type: ignore[arg-type]
    assert failed.ids == plain.ids and len(failed.ids) == 2
    assert failed.trace.failed_channels["rerank"].startswith("RuntimeError")
    assert failed.trace.extra["rerank_fallback"] == "fusion order"


def test_no_reranker_still_refuses_off_topic(backend: SlowLexicalBackend) -> None:
    backend.release.set()
    cfg = FunnelConfig().tuned(weights={"lexical": 0.5, "semantic": 0.5, "graph": 0.0})
    # the stored vector of c1 is "q fever diagnosis"; an unrelated query is far from it
    on_topic = run_funnel(
        "q fever diagnosis", backend, FakeEmbeddings(), NoReranker(), cfg,  # type: ignore[arg-type]
        RetrievalFilters(tenant="t"), threshold=0.5,
    )  # fmt: skip
    off_topic = run_funnel(
        "xyzzy wwww", backend, FakeEmbeddings(), NoReranker(), cfg,  # type: ignore[arg-type]
        RetrievalFilters(tenant="t"), threshold=0.5,
    )  # fmt: skip
    assert not on_topic.refused and on_topic.best_score > 0.5
    assert off_topic.refused and off_topic.best_score < 0.5
