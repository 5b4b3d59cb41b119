"""The graph outbox: an external graph store follows Postgres, through failures and replaces."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import psycopg
import pytest
from neo4j_fakes import FakeDriver

from disputatio.graphs.ingest import graph
from disputatio.ingest.types import ChildChunk, DocumentGraph, Entity, Mention
from disputatio.nodes.ingest.context import IngestContext
from disputatio.retrievers.graph_outbox import replay_outbox
from disputatio.retrievers.graphstore import InMemoryGraphStore
from disputatio.retrievers.neo4j_store import (
    DELETE_CHUNKS_CYPHER,
    DELETE_RELATIONS_CYPHER,
    WRITE_ENTITIES_CYPHER,
    Neo4jGraphStore,
)
from disputatio.settings import Settings
from disputatio.testing import FakeEmbeddings

pytestmark = pytest.mark.integration


class _WordExtractor:
    """Every capitalised word is an entity (deterministic, no model)."""

    def extract(self, chunks: list[ChildChunk]) -> DocumentGraph:
        entities: dict[str, Entity] = {}
        mentions = []
        for chunk in chunks:
            start = 0
            for word in chunk.text.split():
                at = chunk.text.index(word, start)
                start = at + len(word)
                clean = word.strip(".,#")
                if clean[:1].isupper() and clean.isalpha():
                    key = clean.lower()
                    entities[key] = Entity(key, clean, "ORG")
                    s = chunk.text.index(clean, at)
                    mentions.append(Mention(key, chunk.id, s, s + len(clean), clean))
        return DocumentGraph.of(sorted(entities.values(), key=lambda e: e.key), mentions)


class _FlakyStore(InMemoryGraphStore):
    """An in-memory graph store that can be switched off (like an unreachable Neo4j)."""

    def __init__(self) -> None:
        super().__init__()
        self.down = False
        self.calls: list[tuple[str, str]] = []

    def write_document(self, tenant: str, document_id: str, graph: DocumentGraph) -> None:
        if self.down:
            raise ConnectionError("graph store unreachable")
        self.calls.append(("write", document_id))
        super().write_document(tenant, document_id, graph)

    def delete_document(self, document_id: str) -> None:
        if self.down:
            raise ConnectionError("graph store unreachable")
        self.calls.append(("delete", document_id))
        super().delete_document(document_id)

    def documents(self) -> set[str]:
        return {doc for doc, spots in self._spots.items() if spots}


def _ingest(settings: Settings, folder: Path, store: Any, **kw: Any) -> dict[str, Any]:
    ctx = IngestContext(
        settings=settings,
        embeddings=FakeEmbeddings(settings.models.embedding_dim),
        entity_extractor=_WordExtractor(),
        graph_store=store,
    )
    return graph.invoke({"paths": [str(folder)], "tenant": "outbox", **kw}, context=ctx)


def _pending(db_url: str) -> int:
    with psycopg.connect(db_url) as conn:
        row = conn.execute("SELECT count(*) FROM graph_outbox WHERE tenant = 'outbox'").fetchone()
    return int(row[0]) if row else 0


def _stored_ids(db_url: str) -> set[str]:
    with psycopg.connect(db_url) as conn:
        rows = conn.execute("SELECT id FROM documents WHERE tenant = 'outbox'").fetchall()
    return {str(r[0]) for r in rows}


def test_store_follows_postgres_through_outage_and_replace(
    settings: Settings, db_url: str, tmp_path: Path
) -> None:
    (tmp_path / "a.md").write_text("# Curie\n\nMarie Curie studied Radium in Paris.\n")
    (tmp_path / "b.md").write_text("# Pasteur\n\nLouis Pasteur worked in Lille.\n")
    store = _FlakyStore()
    first = _ingest(settings, tmp_path, store)
    assert {r["status"] for r in first["results"]} == {"new"}
    assert store.documents() == _stored_ids(db_url) and _pending(db_url) == 0
    old_a = next(r["document_id"] for r in first["results"] if r["path"].endswith("a.md"))

    # the store goes down; a changed file replaces its old version in Postgres only
    store.down = True
    (tmp_path / "a.md").write_text("# Curie\n\nMarie Curie discovered Polonium in Warsaw.\n")
    second = _ingest(settings, tmp_path, store)
    statuses = {Path(r["path"]).name: r["status"] for r in second["results"]}
    assert statuses == {"a.md": "replaced", "b.md": "skipped"}
    assert second["summary"]["graph_pending"] == 2 == _pending(db_url)  # delete old, write new
    assert old_a in store.documents()  # not yet delivered
    with psycopg.connect(db_url) as conn:
        row = conn.execute(
            "SELECT attempts, last_error FROM graph_outbox WHERE tenant = 'outbox' ORDER BY id"
        ).fetchone()
    assert row and row[0] >= 1 and "unreachable" in row[1]

    # back up: the replay delivers in order and the store matches Postgres again
    store.down = False
    report = replay_outbox(settings, store)
    assert report["applied"] == 2 and report["error"] is None and _pending(db_url) == 0
    assert store.documents() == _stored_ids(db_url)
    assert old_a not in store.documents()
    assert store.chunk_scores("outbox", ["radium"], 0) == {}  # nothing left of the old version
    assert store.chunk_scores("outbox", ["polonium"], 0)
    new_a = next(r["document_id"] for r in second["results"] if r["path"].endswith("a.md"))
    assert store.calls.index(("delete", old_a)) < store.calls.index(("write", new_a))


def test_neo4j_store_gets_delete_then_write_on_replace(
    settings: Settings, db_url: str, tmp_path: Path
) -> None:
    driver = FakeDriver()
    store = Neo4jGraphStore("neo4j://fake", driver=driver)
    (tmp_path / "n.md").write_text("# Neo\n\nAda Lovelace met Charles Babbage in London.\n")
    _ingest(settings, tmp_path, store)
    (tmp_path / "n.md").write_text("# Neo\n\nAda Lovelace wrote Notes in London.\n")
    out = _ingest(settings, tmp_path, store)
    assert out["results"][0]["status"] == "replaced" and _pending(db_url) == 0
    queries = [[q for q, _ in log] for _, log in driver.transactions]
    assert queries[0][-3:-2] == [WRITE_ENTITIES_CYPHER]  # first version written
    assert queries[1] == [DELETE_RELATIONS_CYPHER, DELETE_CHUNKS_CYPHER]  # old version removed
    assert WRITE_ENTITIES_CYPHER in queries[2]  # new version written
    old_id = driver.transactions[1][1][0][1]["document_id"]
    new_id = driver.transactions[2][1][-1][1]["document_id"]
    assert old_id != new_id and new_id == out["results"][0]["document_id"]
