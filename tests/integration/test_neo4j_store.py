"""Neo4jGraphStore against a real server: runs only when ``NEO4J_URI`` is set and reachable.

No Neo4j server can be installed offline here, so without ``NEO4J_URI`` these tests skip. With
one: ``NEO4J_URI=neo4j://localhost:7687 NEO4J_PASSWORD=... pytest tests/integration/
test_neo4j_store.py``. Every test writes under its own random tenant and deletes what it wrote.
"""

from __future__ import annotations

import math
import os
import uuid
from collections.abc import Iterator

import pytest

from disputatio.ingest.types import DocumentGraph, Entity, Mention, Relation
from disputatio.retrievers.graphstore import InMemoryGraphStore, graph_store_from_settings
from disputatio.retrievers.neo4j_store import Neo4jGraphStore
from disputatio.settings import load_settings

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def neo4j_store() -> Iterator[Neo4jGraphStore]:
    if not os.environ.get("NEO4J_URI"):
        pytest.skip("NEO4J_URI is not set: no Neo4j server to test against")
    store = graph_store_from_settings(load_settings())
    assert isinstance(store, Neo4jGraphStore)
    try:
        store.driver.verify_connectivity()
    except Exception as exc:
        store.close()
        pytest.skip(f"Neo4j at {os.environ['NEO4J_URI']} is not reachable: {exc}")
    yield store
    store.close()


ENTITIES = [
    Entity("marie curie", "Marie Curie", "PERSON"),
    Entity("university of paris", "University of Paris", "ORG"),
    Entity("radium institute", "Radium Institute", "ORG"),
]
MENTIONS = [
    Mention("marie curie", "c1", 0, 11, "Marie Curie"),
    Mention("university of paris", "c1", 25, 44, "University of Paris"),
    Mention("university of paris", "c2", 4, 23, "University of Paris"),
    Mention("radium institute", "c3", 0, 16, "Radium Institute"),
]
RELATIONS = [
    Relation("marie curie", "university of paris", "co_occurs", 1, "c1"),
    Relation("radium institute", "university of paris", "co_occurs", 1, "c3"),
]
GRAPH = DocumentGraph.of(ENTITIES, MENTIONS, RELATIONS)


def test_expand_scores_like_the_in_memory_store(neo4j_store: Neo4jGraphStore) -> None:
    tenant, doc = f"test-{uuid.uuid4()}", str(uuid.uuid4())
    memory = InMemoryGraphStore()
    for store in (neo4j_store, memory):
        store.write_document(tenant, doc, GRAPH)
    try:
        for seeds, hops in ((["marie curie"], 0), (["curie"], 1), (["marie curie"], 2)):
            got = neo4j_store.expand(tenant, seeds, hops, 10)
            want = memory.expand(tenant, seeds, hops, 10)
            assert [c for c, _ in got] == [c for c, _ in want]
            assert [s for _, s in got] == pytest.approx([s for _, s in want])
        # by hand, hops=1 from "marie curie" (1 chunk): seed w = 1/ln 3; "university of paris"
        # (1 relation row, 2 chunks) weighs 0.5 · w · 1/2 / ln 4
        seed = 1 / math.log(3)
        neighbour = 0.5 * seed * 0.5 / math.log(4)
        scores = dict(neo4j_store.expand(tenant, ["marie curie"], 1, 10))
        assert scores == pytest.approx({"c1": seed + neighbour, "c2": neighbour})
        assert neo4j_store.expand(f"other-{tenant}", ["marie curie"], 2, 10) == []
    finally:
        neo4j_store.delete_document(doc)
    assert neo4j_store.expand(tenant, ["marie curie"], 2, 10) == []


def test_write_is_idempotent(neo4j_store: Neo4jGraphStore) -> None:
    tenant, doc = f"test-{uuid.uuid4()}", str(uuid.uuid4())
    try:
        neo4j_store.write_document(tenant, doc, GRAPH)
        first = neo4j_store.expand(tenant, ["university of paris"], 1, 10)
        neo4j_store.write_document(tenant, doc, GRAPH)
        assert neo4j_store.expand(tenant, ["university of paris"], 1, 10) == first
    finally:
        neo4j_store.delete_document(doc)
