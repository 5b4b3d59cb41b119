"""The storage functions of retrieval, calibration and the graph tables, on the real database.

The channels' SQL is exercised by ``test_retrieval``, ``test_bm25`` and ``test_graph_channel``
and the outbox by ``test_ingest_outbox``; this file covers the rest: the Postgres graph store's
replace and delete, the chunk and document reads the funnel and the evaluation use, and the
calibration rows.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest

from disputatio.ingest.types import DocumentGraph, Entity, Mention, Relation
from disputatio.retrievers.graphstore import PostgresGraphStore
from disputatio.settings import Settings
from disputatio.storage import calibrations, chunk_reads, document_reads
from disputatio.storage.db import connect

pytestmark = pytest.mark.integration

SAMPLE = "sample"  # the session's ingested sample corpus (tests/conftest.py)


@pytest.fixture
def tenant(settings: Settings, db_url: str) -> Iterator[str]:
    """A tenant of its own, emptied afterwards."""
    name = f"reads-{uuid.uuid4().hex[:8]}"
    yield name
    with connect(settings) as conn:
        conn.execute("DELETE FROM documents WHERE tenant = %s", (name,))
        conn.execute("DELETE FROM entities WHERE tenant = %s", (name,))
        conn.execute("DELETE FROM calibrations WHERE tenant = %s", (name,))


def _document(conn: psycopg.Connection[Any], tenant: str, chunks: list[str]) -> str:
    """A stored document of one parent section and a child chunk per name in ``chunks``."""
    doc = uuid.uuid4()
    conn.execute(
        "INSERT INTO documents (id, tenant, collection, sha256, source_uri, kind, markdown)"
        " VALUES (%s, %s, 'c', %s, 'g.txt', 'text', 'x')",
        (doc, tenant, doc.hex),
    )
    conn.execute(
        "INSERT INTO parent_chunks (id, document_id, tenant, collection, ordinal, text,"
        " char_start, char_end, token_count) VALUES (%s, %s, %s, 'c', 0, 'x', 0, 1, 1)",
        (f"{doc.hex}-p", doc, tenant),
    )
    for name in chunks:
        conn.execute(
            "INSERT INTO child_chunks (id, parent_id, document_id, tenant, collection, ordinal,"
            " text, char_start, char_end, token_count) VALUES (%s, %s, %s, %s, 'c', 0, %s,"
            " 0, 1, 1)",
            (f"{doc.hex}-{name}", f"{doc.hex}-p", doc, tenant, name),
        )
    return str(doc)


def _graph_rows(settings: Settings, document_id: str) -> tuple[int, int]:
    with connect(settings) as conn:
        row = conn.execute(
            "SELECT (SELECT count(*) FROM entity_mentions WHERE document_id = %(d)s),"
            " (SELECT count(*) FROM relations WHERE document_id = %(d)s)",
            {"d": document_id},
        ).fetchone()
    assert row is not None
    return int(row[0]), int(row[1])


def test_postgres_graph_store_replaces_and_deletes_a_documents_graph(
    settings: Settings, tenant: str
) -> None:
    with connect(settings) as conn:
        doc = _document(conn, tenant, ["one", "two"])
    hex_id = uuid.UUID(doc).hex
    one, two = f"{hex_id}-one", f"{hex_id}-two"
    entities = [Entity("alpha", "Alpha", "X"), Entity("beta", "Beta", "X")]
    mentions = [Mention("alpha", one, 0, 1, "a"), Mention("beta", two, 0, 1, "b")]
    relations = [Relation("alpha", "beta", "co_occurs", 1, one)]
    graph = DocumentGraph.of(entities, mentions, relations)
    store = PostgresGraphStore(settings)

    store.write_document(tenant, doc, graph)
    first = store.expand(tenant, ["alpha"], 1, 10)
    assert [c for c, _ in first] == [one, two]  # the seed's chunk, then its neighbour's
    rows = _graph_rows(settings, doc)
    assert rows == (2, 1)

    store.write_document(tenant, doc, graph)  # a rewrite replaces
    assert _graph_rows(settings, doc) == rows
    assert dict(store.expand(tenant, ["alpha"], 1, 10)) == pytest.approx(dict(first))

    store.delete_document(doc)
    assert _graph_rows(settings, doc) == (0, 0)
    assert store.expand(tenant, ["alpha"], 1, 10) == []
    with connect(settings) as conn:
        left = conn.execute("SELECT count(*) FROM entities WHERE tenant = %s", (tenant,))
        assert left.fetchone() == (0,)  # entities nothing mentions any more are gone
        kept = conn.execute("SELECT count(*) FROM documents WHERE id = %s", (doc,))
        assert kept.fetchone() == (1,)  # the document itself stays
    store.delete_document(str(uuid.uuid4()))  # an unknown document is nothing to delete


def test_document_reads_count_and_list_only_the_tenants_documents(
    settings: Settings, ingested_sample: dict[str, Any], tenant: str
) -> None:
    with connect(settings) as conn:
        per_collection = document_reads.documents_per_collection(conn, SAMPLE)
        sources = document_reads.document_sources(conn, SAMPLE)
        assert sum(per_collection.values()) == len(sources) > 0
        assert [s for _, s, _ in sources] == sorted(s for _, s, _ in sources)
        assert all(text for _, _, text in sources)
        for collection, n in per_collection.items():
            assert len(document_reads.document_sources(conn, SAMPLE, [collection])) == n
        assert document_reads.document_sources(conn, SAMPLE, ["no-such-collection"]) == []
        assert document_reads.document_sources(conn, None) == []
        assert document_reads.documents_per_collection(conn, tenant) == {}
        _document(conn, tenant, ["one"])
        assert document_reads.documents_per_collection(conn, tenant) == {"c": 1}
        assert len(document_reads.document_sources(conn, tenant)) == 1


def test_chunk_reads_agree_and_leave_unknown_ids_out(
    settings: Settings, ingested_sample: dict[str, Any], tenant: str
) -> None:
    with connect(settings) as conn:
        rows = conn.execute(
            "SELECT id FROM child_chunks WHERE tenant = %s ORDER BY id LIMIT 5", (SAMPLE,)
        ).fetchall()
        children = [r[0] for r in rows] + ["no-such-chunk"]
        parents = chunk_reads.parents_of(conn, children)
        documents = chunk_reads.child_documents(conn, children)
        sections = chunk_reads.sections(conn, [*parents.values(), "no-such-section"])
        section_documents = chunk_reads.parent_documents(conn, list(parents.values()))
        texts = chunk_reads.child_texts(conn, children)
        vectors = chunk_reads.child_vectors(conn, children)
        sample = chunk_reads.sample_children(conn, SAMPLE, 3)
        again = chunk_reads.sample_children(conn, SAMPLE, 3)
        sampled_parents = chunk_reads.parent_documents(conn, [p for _, p in sample])
        assert chunk_reads.sample_children(conn, tenant, 3) == []
    known = set(children) - {"no-such-chunk"}
    assert set(parents) == set(documents) == set(texts) == set(vectors) == known
    assert set(sections) == set(section_documents) == set(parents.values())
    for child in known:
        section = sections[parents[child]]
        assert documents[child] == section_documents[section.id] == section.document_id
    assert len(sample) == 3 and sample == again  # the same chunks every time
    assert {parent for _, parent in sample} <= set(sampled_parents)  # the tenant's sections


def test_the_latest_calibration_of_a_tenant_reranker_and_alpha_counts(
    settings: Settings, tenant: str
) -> None:
    with connect(settings) as conn:
        assert calibrations.latest_calibration(conn, tenant, "r", 0.1) is None
        calibrations.insert_calibration(conn, tenant, "r", 0.1, 0.3, 10, {"refusal_threshold": 1})
        calibrations.insert_calibration(conn, tenant, "r", 0.1, 0.4, 12, {"rerank_platt": [2, 1]})
        calibrations.insert_calibration(conn, tenant, "other", 0.1, 0.9, 5, {})
        assert calibrations.latest_calibration(conn, tenant, "r", 0.1 + 1e-7) == (
            pytest.approx(0.4),
            {"rerank_platt": [2, 1]},
        )
        assert calibrations.latest_calibration(conn, tenant, "other", 0.1) == (
            pytest.approx(0.9),
            {},
        )
        assert calibrations.latest_calibration(conn, tenant, "r", 0.2) is None
        assert calibrations.latest_calibration(conn, "no-such-tenant", "r", 0.1) is None
