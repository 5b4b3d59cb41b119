"""``disputatio calibrate`` on a labelled file: Platt scaling, refusal threshold, conformal trim.

The sample corpus (real MiniLM vectors) and a dozen labelled questions about it: the fit is
stored for the tenant, the next funnel loads it, and that funnel refuses exactly the on-topic
questions the calibration said it would, refuses an off-topic one, and trims at the stored
conformal threshold.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

from disputatio.retrievers.base import RetrievalFilters
from disputatio.retrievers.calibration import calibrate
from disputatio.retrievers.postgres import PostgresFunnel
from disputatio.settings import Settings

pytestmark = pytest.mark.integration

TENANT = "sample"  # the session's ingested sample corpus (tests/conftest.py)
LABELLED = [
    ("How is brucellosis transmitted from animals to humans?", "brucellosis"),
    ("Which Brucella species infects goats and sheep?", "brucellosis"),
    ("What bacterium causes Q fever?", "q_fever"),
    ("Who first described Q fever among abattoir workers in Brisbane?", "q_fever"),
    ("What are the typical signs of adult-onset Still's disease?", "adult_onset_stills_disease"),
    ("Which childhood arthritis is the counterpart of adult Still's disease?",
     "adult_onset_stills_disease"),
    ("Who proposed multi-agent debate between language model instances?", "multi_agent_debate"),
    ("Why should several LLM agents read each other's answers over rounds?",
     "multi_agent_debate"),
    ("Who introduced retrieval-augmented generation in 2020?", "retrieval_augmented_generation"),
    ("How does retrieval help a language model cite sources and avoid hallucinations?",
     "retrieval_augmented_generation"),
    ("How do pgvector, FAISS and Neo4j differ for storing embedding vectors?",
     "vector_databases"),
    ("Which vector search library comes from Meta AI?", "vector_databases"),
]  # fmt: skip


@pytest.fixture
def labelled_file(tmp_path: Path) -> Path:
    path = tmp_path / "labelled.jsonl"
    path.write_text(
        "".join(json.dumps({"query": q, "relevant_ids": [doc]}) + "\n" for q, doc in LABELLED),
        encoding="utf-8",
    )
    return path


@pytest.fixture
def clean_calibrations(db_url: str) -> Iterator[None]:
    """Remove this test's calibration rows afterwards (other tests use the sample tenant)."""
    with psycopg.connect(db_url) as conn:
        row = conn.execute("SELECT coalesce(max(id), 0) FROM calibrations").fetchone()
    before = int(row[0]) if row else 0
    yield
    with psycopg.connect(db_url) as conn:
        conn.execute("DELETE FROM calibrations WHERE id > %s AND tenant = %s", (before, TENANT))


def test_calibrate_fits_stores_and_the_funnel_uses_it(
    settings: Settings,
    db_url: str,
    ingested_sample: dict[str, Any],
    labelled_file: Path,
    clean_calibrations: None,
) -> None:
    record = calibrate(file=labelled_file, tenant=TENANT, settings=settings)
    n = len(LABELLED)
    a, b = record["platt"]
    assert record["n"] == n and record["platt_on"] == "stored-vector cosine"
    assert 0 < record["relevant_candidates"] < record["candidates"]
    assert a > 0  # a higher stored-vector cosine means more likely relevant
    refusal, trim = record["refusal_threshold"], record["threshold"]
    assert 0.0 < refusal < 1.0 and 0.0 <= trim <= 1.0
    # the refusal threshold refuses at most refusal_alpha of the labelled (on-topic) questions
    # (one question at most on so few); the trim keeps a relevant section on ≥ 1 − α of them
    assert record["on_topic_refused"] <= max(record["refusal_alpha"], 1 / n)
    assert record["coverage"] >= 1 - record["alpha"]

    with psycopg.connect(db_url) as conn:
        stored = conn.execute(
            "SELECT threshold, n, details FROM calibrations WHERE tenant = %s AND reranker = %s"
            " ORDER BY id DESC LIMIT 1",
            (TENANT, settings.models.reranker),
        ).fetchone()
    assert stored is not None
    assert stored[0] == pytest.approx(trim) and stored[1] == n
    assert stored[2]["relevance_platt"] == pytest.approx([a, b])
    assert stored[2]["refusal_threshold"] == pytest.approx(refusal)

    # a funnel built afterwards loads the calibration ...
    funnel = PostgresFunnel(settings, default_filters=RetrievalFilters(tenant=TENANT))
    assert funnel.config.threshold == pytest.approx(refusal)
    assert funnel.config.calibrated_threshold == pytest.approx(trim)
    assert funnel.config.relevance_platt == pytest.approx((a, b))
    # ... refuses exactly the on-topic questions the calibration counted as refused ...
    results = [funnel.search(q) for q, _ in LABELLED]
    refused = sum(r.refused for r in results)
    assert refused / n == pytest.approx(record["on_topic_refused"])
    for result in results:
        assert result.threshold == pytest.approx(refusal)
        assert all(trim <= s.score <= 1.0 for s in result.sections)  # the conformal trim
    # ... and an off-topic question (nothing in the corpus about it) is refused
    off_topic = funnel.search("What is the best pizza topping in Naples?")
    assert off_topic.refused and off_topic.best_score < refusal
