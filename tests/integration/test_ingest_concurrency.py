"""Two ingestion runs of the same files at the same time: never 'replaced', never duplicated."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import psycopg
import pytest
from langchain_core.embeddings import Embeddings

from disputatio.graphs.ingest import graph
from disputatio.nodes.ingest.context import IngestContext
from disputatio.settings import Settings
from disputatio.testing import FakeEmbeddings

pytestmark = pytest.mark.integration


class _MeetingEmbeddings(FakeEmbeddings):
    """Deterministic vectors; the first call of each run waits for the other run's.

    Both runs have then screened the files (found nothing stored) before either writes, so
    their writes really race.
    """

    def __init__(self, barrier: threading.Barrier, dim: int) -> None:
        super().__init__(dim)
        self.barrier = barrier
        self.met = False

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        if not self.met:
            self.met = True
            self.barrier.wait(timeout=60)
        return super().embed_documents(texts)


def _run(settings: Settings, folder: Path, embeddings: Embeddings) -> dict[str, str]:
    ctx = IngestContext(settings=settings, embeddings=embeddings, entity_extractor=False)
    out: dict[str, Any] = graph.invoke({"paths": [str(folder)], "tenant": "race"}, context=ctx)
    return {Path(r["path"]).name: r["status"] for r in out["results"]}


def test_concurrent_identical_ingests_report_new_or_unchanged(
    settings: Settings, db_url: str, tmp_path: Path
) -> None:
    for i in range(6):
        (tmp_path / f"doc{i}.md").write_text(f"# Note {i}\n\nSnippet number {i} about trials.\n")
    dim = settings.models.embedding_dim
    barrier = threading.Barrier(2)
    with ThreadPoolExecutor(2) as pool:
        runs = [
            pool.submit(_run, settings, tmp_path, _MeetingEmbeddings(barrier, dim))
            for _ in range(2)
        ]
        first, second = (r.result(timeout=300) for r in runs)
    for name in first:
        assert sorted([first[name], second[name]]) == ["new", "skipped"], name
    # both runs again, on unchanged files: both report every file unchanged
    barrier = threading.Barrier(2)
    with ThreadPoolExecutor(2) as pool:
        again = [
            pool.submit(_run, settings, tmp_path, _MeetingEmbeddings(barrier, dim))
            for _ in range(2)
        ]
        for run in again:
            assert set(run.result(timeout=300).values()) == {"skipped"}
    with psycopg.connect(db_url) as conn:
        docs = conn.execute("SELECT count(*) FROM documents WHERE tenant = 'race'").fetchone()
        jobs = dict(
            conn.execute(
                "SELECT status, count(*) FROM ingestion_jobs WHERE tenant = 'race' GROUP BY 1"
            ).fetchall()
        )
    assert docs and docs[0] == 6
    assert jobs == {"succeeded": 6, "skipped": 18}
