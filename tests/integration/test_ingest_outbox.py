"""The graph outbox: an external graph store follows Postgres, through failures and replaces."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import psycopg
import pytest
from langchain_core.embeddings import Embeddings

from disputatio.graphs.ingest import graph
from disputatio.ingest.types import ChildChunk, Entity, Mention
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

pytestmark = pytest.mark.integration


class _HashEmbeddings(Embeddings):
    def __init__(self, dim: int) -> None:
        self.dim = dim

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [self.embed_query(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        seed = hashlib.sha256(text.encode()).digest()
        raw = [seed[i % len(seed)] / 255.0 + 0.01 for i in range(self.dim)]
        norm = sum(x * x for x in raw) ** 0.5
        return [x / norm for x in raw]


class _WordExtractor:
    """Every capitalised word is an entity (deterministic, no model)."""

    def extract(self, chunks: list[ChildChunk]) -> Any:
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
        return sorted(entities.values(), key=lambda e: e.key), mentions, []


class _FlakyStore(InMemoryGraphStore):
    """An in-memory graph store that can be switched off (like an unreachable Neo4j)."""

    def __init__(self) -> None:
        super().__init__()
        self.down = False
        self.calls: list[tuple[str, str]] = []

    def write_document(self, tenant: str, document_id: str, *args: Any) -> None:
        if self.down:
            raise ConnectionError("graph store unreachable")
        self.calls.append(("write", document_id))
        super().write_document(tenant, document_id, *args)

    def delete_document(self, document_id: str) -> None:
        if self.down:
            raise ConnectionError("graph store unreachable")
        self.calls.append(("delete", document_id))
        super().delete_document(document_id)

    def documents(self) -> set[str]:
        return {doc for doc, spots in self._spots.items() if spots}


class _FakeTx:
    def __init__(self, log: list[tuple[str, dict[str, Any]]]) -> None:
        self.log = log

    def run(self, query: str, parameters: dict[str, Any] | None = None) -> Any:
        self.log.append((query, dict(parameters or {})))
        return self

    def consume(self) -> None:
        return None


class _FakeDriver:
    """Records each write transaction's statements (the style of test_graphstore_cypher)."""

    def __init__(self) -> None:
        self.transactions: list[tuple[str, list[tuple[str, dict[str, Any]]]]] = []

    def session(self, database: str | None = None) -> Any:
        return self

    def __enter__(self) -> Any:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def run(self, query: str, parameters: dict[str, Any] | None = None) -> Any:
        return _FakeTx([])  # schema statements (auto-commit)

    def execute_write(self, fn: Any, *args: Any) -> Any:
        log: list[tuple[str, dict[str, Any]]] = []
        self.transactions.append(("write", log))
        return fn(_FakeTx(log), *args)


def _ingest(settings: Settings, folder: Path, store: Any, **kw: Any) -> dict[str, Any]:
    ctx = IngestContext(
        settings=settings,
        embeddings=_HashEmbeddings(settings.models.embedding_dim),
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
    driver = _FakeDriver()
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
