"""The ingestion graph runs spaCy and the embedding model in turn, and loads spaCy once."""

from __future__ import annotations

import itertools
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from disputatio.graphs.ingest import graph
from disputatio.ingest import DocumentGraph
from disputatio.nodes.ingest import context as ingest_context
from disputatio.nodes.ingest.context import IngestContext, SharedExtractor
from disputatio.settings import Settings

pytestmark = pytest.mark.integration


class _Intervals:
    """Records when each model call ran; each call holds the CPU a little while."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, float, float]] = []
        self._lock = threading.Lock()

    def run(self, name: str) -> None:
        start = time.monotonic()
        time.sleep(0.05)
        with self._lock:
            self.calls.append((name, start, time.monotonic()))


class _Extractor:
    def __init__(self, log: _Intervals) -> None:
        self.log = log

    def extract_batch(self, groups: list[list[Any]]) -> list[DocumentGraph]:
        self.log.run("entities")
        return [DocumentGraph() for _ in groups]


class _Embeddings:
    def __init__(self, log: _Intervals, dim: int) -> None:
        self.log, self.dim = log, dim

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.log.run("embed")
        return [[1.0] + [0.0] * (self.dim - 1) for _ in texts]


def test_spacy_and_the_embedding_model_never_overlap(settings: Settings, tmp_path: Path) -> None:
    for i in range(6):
        (tmp_path / f"note-{i}.txt").write_text(f"Note {i} about aspirin and fever, number {i}.")
    small = settings.model_copy(
        update={"ingest": settings.ingest.model_copy(update={"batch_size": 2})}
    )
    log = _Intervals()
    ctx = IngestContext(
        settings=small,
        entity_extractor=_Extractor(log),
        embeddings=_Embeddings(log, small.models.embedding_dim),
    )
    out = graph.invoke({"paths": [str(tmp_path)], "tenant": "in-turn"}, context=ctx)
    assert out["summary"]["new"] == 6
    names = [name for name, _, _ in sorted(log.calls, key=lambda c: c[1])]
    assert names == ["entities", "embed"] * 3  # three batches, each model in turn
    ordered = sorted(log.calls, key=lambda c: c[1])
    for (_, _, end), (_, start, _) in itertools.pairwise(ordered):
        assert end <= start


def test_runs_given_no_extractor_share_one_spacy_pipeline(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ingest_context, "_spacy_extractors", {})
    first = IngestContext(settings=settings).get_entity_extractor()
    second = IngestContext(settings=settings).get_entity_extractor()
    assert isinstance(first, SharedExtractor) and first is second
    other = settings.model_copy(
        update={"ingest": settings.ingest.model_copy(update={"dependency_relations": True})}
    )
    assert IngestContext(settings=other).get_entity_extractor() is not first


def test_a_shared_extractor_runs_one_call_at_a_time() -> None:
    log = _Intervals()
    shared = SharedExtractor(_Extractor(log))
    threads = [threading.Thread(target=shared.extract_batch, args=([[]],)) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    ordered = sorted(log.calls, key=lambda c: c[1])
    assert len(ordered) == 4
    for (_, _, end), (_, start, _) in itertools.pairwise(ordered):
        assert end <= start
