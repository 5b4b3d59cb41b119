"""Non-English text in and out: language-aware BM25, unaccent, Unicode query words."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from langchain_core.embeddings import DeterministicFakeEmbedding

from disputatio.models.rerank import NoReranker
from disputatio.retrievers import pg_channels
from disputatio.retrievers.base import RetrievalFilters
from disputatio.retrievers.funnel import FunnelConfig
from disputatio.retrievers.plan import deterministic_plan
from disputatio.retrievers.postgres import PostgresFunnel
from disputatio.settings import Settings
from disputatio.storage.db import connect

pytestmark = pytest.mark.integration

TENANT = "multilingual"
SCOPE = RetrievalFilters(tenant=TENANT)
SPANISH = "Las cláusulas abusivas del contrato son nulas para los consumidores."
GERMAN = "Die Straßen von München sind nicht breit, und der Verkehr ist dicht."
ENGLISH = "The contract was signed by both parties and the clauses were reviewed."


def add(conn: psycopg.Connection[Any], text: str, language: str | None) -> str:
    doc = uuid.uuid4()
    conn.execute(
        "INSERT INTO documents (id, tenant, collection, sha256, source_uri, kind, markdown,"
        " metadata) VALUES (%s, %s, 'c', %s, %s, 'text', %s, %s)",
        (
            doc,
            TENANT,
            doc.hex,
            f"{doc.hex}.txt",
            text,
            json.dumps({"language": language} if language else {}),
        ),
    )
    conn.execute(
        "INSERT INTO parent_chunks (id, document_id, tenant, collection, ordinal, text,"
        " char_start, char_end, token_count) VALUES (%s, %s, %s, 'c', 0, %s, 0, 1, 1)",
        (f"{doc.hex}-p", doc, TENANT, text),
    )
    conn.execute(
        "INSERT INTO child_chunks (id, parent_id, document_id, tenant, collection, ordinal,"
        " text, char_start, char_end, token_count) VALUES (%s, %s, %s, %s, 'c', 0, %s, 0, 1, 1)",
        (f"{doc.hex}-c", f"{doc.hex}-p", doc, TENANT, text),
    )
    return f"{doc.hex}-c"


@pytest.fixture(scope="module")
def chunks(settings: Settings, db_url: str) -> Iterator[dict[str, str]]:
    with connect(settings) as conn:
        ids = {
            "es": add(conn, SPANISH, "es"),  # declared language
            "de": add(conn, GERMAN, None),  # guessed from its function words
            "en": add(conn, ENGLISH, "en-GB"),
        }
        conn.commit()
    yield ids
    with connect(settings) as conn:
        conn.execute("DELETE FROM documents WHERE tenant = %s", (TENANT,))


def top(conn: psycopg.Connection[Any], query: str) -> list[str]:
    return [c for c, _ in pg_channels.lexical(conn, deterministic_plan(query).keywords, SCOPE, 5)]


def test_each_document_gets_its_language_configuration(
    settings: Settings, chunks: dict[str, str]
) -> None:
    with connect(settings) as conn:
        rows = dict(
            conn.execute(
                "SELECT chunk_id, config::text FROM bm25_docs WHERE chunk_id = ANY(%s)",
                (list(chunks.values()),),
            ).fetchall()
        )
        assert rows == {chunks["es"]: "spanish", chunks["de"]: "german", chunks["en"]: "english"}
        assert conn.execute("SELECT bm25_regconfig('xx')::text").fetchone() == ("simple",)


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("cláusulas", "es"),
        ("clausulas", "es"),  # unaccent on both sides
        ("¿Qué cláusula es nula?", "es"),  # Spanish stemming: cláusula ~ cláusulas
        ("Müncher Straße", "de"),
        ("strassen munchen", "de"),
        ("reviewed clauses", "en"),
    ],
)
def test_non_english_queries_find_their_documents(
    settings: Settings, chunks: dict[str, str], query: str, expected: str
) -> None:
    with connect(settings) as conn:
        assert top(conn, query)[:1] == [chunks[expected]]


def test_plan_keeps_non_ascii_words_whole() -> None:
    plan = deterministic_plan("¿Qué cláusulas regulan la Straße de Müller?")
    assert {"cláusulas", "straße", "müller"} <= set(plan.keywords)
    assert not {"cl", "usulas", "stra", "ller"} & set(plan.keywords)


def test_accented_text_comes_back_intact(settings: Settings, chunks: dict[str, str]) -> None:
    funnel = PostgresFunnel(
        settings,
        default_filters=SCOPE,
        embeddings=DeterministicFakeEmbedding(size=384),  # no vector channel in this test
        reranker=NoReranker(),
        config=FunnelConfig(threshold=0).tuned(
            weights={"lexical": 1.0, "semantic": 0.0, "graph": 0.0}
        ),
    )
    funnel.settings = funnel.settings.model_copy(
        update={
            "retrieval": funnel.settings.retrieval.model_copy(update={"graph_query_ner": False})
        }
    )
    result = funnel.search("cláusulas abusivas", threshold=0.0)
    assert result.sections and result.sections[0].text == SPANISH
    assert result.trace.channels_used == ["lexical"]


def test_non_english_files_through_ingestion_and_back(
    settings: Settings, db_url: str, tmp_path: Path
) -> None:
    """Files in, through the real ingestion graph (language guessed), and the same text out."""
    from disputatio.graphs.ingest import graph
    from disputatio.nodes.ingest.context import IngestContext

    tenant = "multilingual-ingest"
    spanish = (
        "Las cláusulas abusivas del contrato son nulas de pleno derecho. El consumidor puede "
        "reclamar la devolución de las cantidades pagadas por esas cláusulas."
    )
    german = "Die Straßen von München sind im Winter glatt, und die Stadt streut Salz."
    (tmp_path / "cláusulas_abusivas.txt").write_text(spanish + "\n", encoding="utf-8")
    (tmp_path / "münchen.md").write_text(f"# Straßen in München\n\n{german}\n", encoding="utf-8")
    ctx = IngestContext(
        settings=settings,
        embeddings=DeterministicFakeEmbedding(size=settings.models.embedding_dim),
        entity_extractor=False,
    )
    out = graph.invoke({"paths": [str(tmp_path)], "tenant": tenant}, context=ctx)
    assert {r["status"] for r in out["results"]} == {"new"}, out["results"]
    scope = RetrievalFilters(tenant=tenant)
    try:
        with connect(settings) as conn:
            configs = conn.execute(
                "SELECT DISTINCT d.source_uri, b.config::text FROM bm25_docs b"
                " JOIN child_chunks c ON c.id = b.chunk_id JOIN documents d ON d.id = c.document_id"
                " WHERE c.tenant = %s",
                (tenant,),
            ).fetchall()
        by_file = {Path(uri).name: config for uri, config in configs}
        assert by_file == {"cláusulas_abusivas.txt": "spanish", "münchen.md": "german"}
        funnel = PostgresFunnel(
            settings,
            default_filters=scope,
            embeddings=DeterministicFakeEmbedding(size=settings.models.embedding_dim),
            reranker=NoReranker(),
            config=FunnelConfig(threshold=0).tuned(
                weights={"lexical": 1.0, "semantic": 0.0, "graph": 0.0}
            ),
        )
        for query, name, text in [
            ("¿Qué cláusula es nula?", "cláusulas_abusivas.txt", spanish),
            ("clausulas abusivas", "cláusulas_abusivas.txt", spanish),  # unaccented query
            ("Straße München", "münchen.md", german),
        ]:
            result = funnel.search(query, threshold=0.0)
            assert result.sections, query
            top = result.sections[0]
            assert Path(top.source).name == name  # the non-ASCII file name comes back intact
            assert text in top.text  # and the accented text, byte for byte
    finally:
        with connect(settings) as conn:
            conn.execute("DELETE FROM documents WHERE tenant = %s", (tenant,))
