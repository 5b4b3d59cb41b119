"""Neo4jGraphStore without a server: the Cypher text, its parameters and the calls made."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from neo4j_fakes import FakeDriver, FakeSession

from disputatio.errors import RetrievalError
from disputatio.ingest.types import DocumentGraph, Entity, Mention, Relation
from disputatio.retrievers import neo4j_store
from disputatio.retrievers.graphstore import (
    MAX_HOPS,
    NEIGHBOUR_CAP,
    NEIGHBOUR_DECAY,
    GraphStore,
    graph_store_from_settings,
)
from disputatio.retrievers.neo4j_store import (
    DELETE_CHUNKS_CYPHER,
    DELETE_RELATIONS_CYPHER,
    EXPAND_CYPHER,
    NEO4J_SCHEMA,
    WRITE_ENTITIES_CYPHER,
    WRITE_MENTIONS_CYPHER,
    WRITE_RELATIONS_CYPHER,
    Neo4jGraphStore,
)
from disputatio.settings import load_settings

WRITES = [WRITE_ENTITIES_CYPHER, WRITE_MENTIONS_CYPHER, WRITE_RELATIONS_CYPHER]
ALL = [*WRITES, DELETE_RELATIONS_CYPHER, DELETE_CHUNKS_CYPHER, EXPAND_CYPHER]


def store(rows: list[dict[str, Any]] | None = None) -> tuple[Neo4jGraphStore, FakeDriver]:
    driver = FakeDriver(rows)
    return Neo4jGraphStore("neo4j://fake", database="graph", driver=driver), driver


def params_in(query: str) -> set[str]:
    return set(re.findall(r"\$(\w+)", query))


def test_statements_use_parameters_never_formatting() -> None:
    for query in ALL + list(NEO4J_SCHEMA):
        assert "%s" not in query and "%(" not in query
        # the only braces are Cypher maps/patterns: no leftover Python placeholders
        assert not re.search(r"\{\s*\w*\s*\}", query), query
    assert all(params_in(q) for q in ALL)


def test_statements_carry_the_tenant_filter() -> None:
    for query in [*WRITES, EXPAND_CYPHER]:
        assert "tenant: $tenant" in query, query
    assert EXPAND_CYPHER.count("tenant: $tenant") == 4  # seeds, neighbours, chunks (x2)
    assert params_in(EXPAND_CYPHER) == {"seeds", "tenant", "k", "hops", "cap", "decay"}


def test_write_document_runs_one_transaction_with_parameters() -> None:
    s, driver = store()
    assert isinstance(s, GraphStore)
    tenant, doc = "acme'; MATCH (n) DETACH DELETE n //", "doc-1"
    entities = [Entity("marie curie", "Marie Curie", "PERSON"), Entity("paris", "Paris", "GPE")]
    mentions = [
        Mention("marie curie", "c1", 0, 11, "Marie Curie"),
        Mention("paris", "c1", 20, 25, "Paris"),
    ]
    relations = [Relation("marie curie", "paris", "co_occurs", 2, "c1")]
    graph = DocumentGraph.of(entities, mentions, relations)
    s.write_document(tenant, doc, graph)
    s.write_document(tenant, doc, graph)
    assert driver.auto == list(NEO4J_SCHEMA)  # indexes created once
    assert set(driver.databases) == {"graph"}
    kind, log = driver.transactions[0]
    assert kind == "write" and len(driver.transactions) == 2
    assert [q for q, _ in log] == [DELETE_RELATIONS_CYPHER, DELETE_CHUNKS_CYPHER, *WRITES]
    for query, params in log:
        assert params_in(query) <= set(params)
        assert tenant not in query and doc not in query  # values only travel as parameters
    by_query = dict(log)
    assert by_query[WRITE_ENTITIES_CYPHER]["tenant"] == tenant
    assert by_query[WRITE_ENTITIES_CYPHER]["entities"][0] == {
        "key": "marie curie", "name": "Marie Curie", "label": "PERSON"
    }  # fmt: skip
    assert by_query[WRITE_MENTIONS_CYPHER]["mentions"][1] == {
        "key": "paris", "chunk_id": "c1", "start": 20, "end": 25
    }  # fmt: skip
    assert by_query[WRITE_RELATIONS_CYPHER]["relations"] == [
        {"source": "marie curie", "target": "paris", "type": "co_occurs", "weight": 2.0,
         "chunk_id": "c1", "n": 1}
    ]  # fmt: skip


def test_delete_document() -> None:
    s, driver = store()
    s.delete_document("doc-9")
    [(kind, log)] = driver.transactions
    assert kind == "write"
    assert log == [
        (DELETE_RELATIONS_CYPHER, {"document_id": "doc-9"}),
        (DELETE_CHUNKS_CYPHER, {"document_id": "doc-9"}),
    ]


def test_expand_reads_scores_with_the_hop_statement() -> None:
    s, driver = store(rows=[{"chunk_id": "c1", "score": 0.9}, {"chunk_id": "c2", "score": 0.4}])
    assert s.expand("acme", ["marie curie", "curie"], 2, 5) == [("c1", 0.9), ("c2", 0.4)]
    [(kind, log)] = driver.transactions
    assert kind == "read"
    params = {"tenant": "acme", "seeds": ["marie curie", "curie"], "k": 5, "hops": 1}
    assert log == [(EXPAND_CYPHER, {**params, "cap": NEIGHBOUR_CAP, "decay": NEIGHBOUR_DECAY})]
    assert s.expand("acme", [], 2, 5) == []
    assert len(driver.transactions) == 1
    with pytest.raises(RetrievalError, match="hops"):
        s.expand("acme", ["x"], MAX_HOPS + 1, 5)
    s.close()
    assert driver.closed


def test_factory_picks_neo4j_only_when_configured(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("NEO4J_URI", raising=False)
    assert graph_store_from_settings(load_settings(home=tmp_path)) is None
    seen: dict[str, Any] = {}

    def fake_driver(uri: str, auth: Any = None) -> FakeDriver:
        seen.update(uri=uri, auth=auth)
        return FakeDriver()

    import neo4j

    monkeypatch.setattr(neo4j.GraphDatabase, "driver", fake_driver)
    monkeypatch.setenv("NEO4J_URI", "neo4j://db.test:7687")
    monkeypatch.setenv("NEO4J_USER", "reader")
    monkeypatch.setenv("NEO4J_PASSWORD", "secret")
    monkeypatch.setenv("NEO4J_DATABASE", "kg")
    got = graph_store_from_settings(load_settings(home=tmp_path))
    assert isinstance(got, neo4j_store.Neo4jGraphStore) and got.database == "kg"
    assert seen == {"uri": "neo4j://db.test:7687", "auth": ("reader", "secret")}


def test_driver_errors_become_database_errors() -> None:
    from neo4j.exceptions import ServiceUnavailable

    from disputatio.errors import DatabaseError

    class DownDriver(FakeDriver):
        def session(self, database: str | None = None) -> FakeSession:
            raise ServiceUnavailable("Couldn't connect to fake:7687\nmore detail")

    s = Neo4jGraphStore("neo4j://fake", driver=DownDriver())
    with pytest.raises(DatabaseError, match=r"ServiceUnavailable: Couldn't connect to fake:7687$"):
        s.expand("acme", ["x"], 1, 3)
