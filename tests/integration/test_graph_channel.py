"""The graph channel on a small hand-built graph (plain SQL rows, no NER)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest

from disputatio.ingest.types import DocumentGraph, Entity, Mention, Relation
from disputatio.retrievers import pg_channels
from disputatio.retrievers.base import RetrievalFilters
from disputatio.retrievers.graphstore import InMemoryGraphStore
from disputatio.settings import Settings
from disputatio.storage.db import connect

pytestmark = pytest.mark.integration

TENANT = "graph-hand"
SCOPE = RetrievalFilters(tenant=TENANT)


class Graph:
    """Writes documents, one chunk each, entity mentions and relations for one test."""

    def __init__(self, conn: psycopg.Connection[Any]) -> None:
        self.conn = conn
        self.entities: dict[str, int] = {}
        self.mentions: list[Mention] = []
        self.relations: list[Relation] = []
        self.doc = uuid.uuid4()
        conn.execute(
            "INSERT INTO documents (id, tenant, collection, sha256, source_uri, kind, markdown)"
            " VALUES (%s, %s, 'c', %s, 'graph.txt', 'text', 'x')",
            (self.doc, TENANT, self.doc.hex),
        )
        conn.execute(
            "INSERT INTO parent_chunks (id, document_id, tenant, collection, ordinal, text,"
            " char_start, char_end, token_count) VALUES (%s, %s, %s, 'c', 0, 'x', 0, 1, 1)",
            (f"{self.doc.hex}-p", self.doc, TENANT),
        )

    def entity(self, key: str) -> int:
        if key not in self.entities:
            row = self.conn.execute(
                "INSERT INTO entities (tenant, key, name, label) VALUES (%s, %s, %s, 'X')"
                " RETURNING id",
                (TENANT, key, key),
            ).fetchone()
            assert row is not None
            self.entities[key] = int(row[0])
        return self.entities[key]

    def chunk(self, name: str, keys: list[str]) -> str:
        cid = f"{self.doc.hex}-{name}"
        self.conn.execute(
            "INSERT INTO child_chunks (id, parent_id, document_id, tenant, collection, ordinal,"
            " text, char_start, char_end, token_count) VALUES (%s, %s, %s, %s, 'c', 0, %s,"
            " 0, 1, 1)",
            (cid, f"{self.doc.hex}-p", self.doc, TENANT, " ".join(keys)),
        )
        for i, key in enumerate(keys):
            self.conn.execute(
                "INSERT INTO entity_mentions (entity_id, chunk_id, document_id, char_start,"
                " char_end) VALUES (%s, %s, %s, %s, %s)",
                (self.entity(key), cid, self.doc, i, i + 1),
            )
            self.mentions.append(Mention(key, cid, i, i + 1, key))
        return cid

    def relate(self, a: str, b: str, times: int = 1) -> None:
        for _ in range(times):  # one row per co-occurrence, as ingestion writes them
            self.conn.execute(
                "INSERT INTO relations (tenant, source_id, target_id, type, document_id)"
                " VALUES (%s, %s, %s, 'co_occurs', %s)",
                (TENANT, self.entity(a), self.entity(b), self.doc),
            )
            self.relations.append(Relation(a, b, "co_occurs", 1.0, ""))

    def in_memory(self) -> InMemoryGraphStore:
        """The same graph in the in-process store."""
        store = InMemoryGraphStore()
        entities = [Entity(key, key, "X") for key in self.entities]
        store.write_document(
            TENANT, str(self.doc), DocumentGraph.of(entities, self.mentions, self.relations)
        )
        return store


@pytest.fixture
def graph(settings: Settings, db_url: str) -> Iterator[tuple[Graph, dict[str, str]]]:
    with connect(settings) as conn:
        g = Graph(conn)
        chunks = {
            "seed": g.chunk("seed", ["marie curie"]),
            "seed_plus": g.chunk("seed_plus", ["marie curie", "e1", "e2", "e3", "e4", "e5"]),
            "many": g.chunk("many", ["f1", "f2", "f3", "f4", "f5", "f6", "f7"]),
            "strong": g.chunk("strong", ["radium"]),
            "weak": g.chunk("weak", ["x rays"]),
            "far": g.chunk("far", ["polonium"]),
        }
        g.relate("marie curie", "radium", times=3)
        g.relate("x rays", "marie curie", times=1)
        g.relate("radium", "polonium", times=5)  # two hops from the seed
        for i in range(1, 7):
            g.relate(f"f{i}", f"f{i + 1}")
        yield g, chunks
        conn.rollback()


def test_seed_chunks_first_then_neighbours_by_edge_count(
    graph: tuple[Graph, dict[str, str]],
) -> None:
    g, c = graph
    hits = pg_channels.graph(g.conn, ["marie curie"], SCOPE, 10, hops=1)
    order = [cid for cid, _ in hits]
    assert set(order[:2]) == {c["seed"], c["seed_plus"]}
    assert order.index(c["strong"]) < order.index(c["weak"])  # 3 co-occurrences beat 1
    assert c["far"] not in order  # one hop by default: polonium is two away
    assert c["many"] not in order  # naming many unrelated entities earns nothing


def test_chunk_score_does_not_grow_with_the_entities_it_names(
    graph: tuple[Graph, dict[str, str]],
) -> None:
    g, c = graph
    scores = dict(pg_channels.graph(g.conn, ["marie curie"], SCOPE, 10, hops=1))
    assert scores[c["seed_plus"]] == pytest.approx(scores[c["seed"]])


def test_only_whole_keys_seed_the_walk(graph: tuple[Graph, dict[str, str]]) -> None:
    g, c = graph
    assert pg_channels.graph(g.conn, ["curie", "marie"], SCOPE, 10, hops=1) == []
    seeds_only = pg_channels.graph(g.conn, ["marie curie"], SCOPE, 10, hops=0)
    assert {cid for cid, _ in seeds_only} == {c["seed"], c["seed_plus"]}


def test_neighbour_cap_keeps_the_strongest_edges(graph: tuple[Graph, dict[str, str]]) -> None:
    g, c = graph
    capped = [
        cid for cid, _ in pg_channels.graph(g.conn, ["marie curie"], SCOPE, 10, neighbour_cap=1)
    ]
    assert c["strong"] in capped and c["weak"] not in capped


def test_rare_seed_outweighs_common_seed(graph: tuple[Graph, dict[str, str]]) -> None:
    g, _ = graph
    common = [g.chunk(f"common{i}", ["cell"]) for i in range(8)]
    rare = g.chunk("rare", ["brca1"])
    hits = pg_channels.graph(g.conn, ["cell", "brca1"], SCOPE, 20, hops=0)
    assert hits[0][0] == rare and {cid for cid, _ in hits[1:]} == set(common)


@pytest.mark.parametrize(
    ("seeds", "hops"),
    [(["marie curie"], 0), (["marie curie"], 1), (["radium", "x rays"], 1), (["f3"], 1)],
)
def test_the_in_memory_store_scores_like_the_sql(
    graph: tuple[Graph, dict[str, str]], seeds: list[str], hops: int
) -> None:
    g, _ = graph
    sql = pg_channels.graph(g.conn, seeds, SCOPE, 20, hops=hops)
    memory = g.in_memory().expand(TENANT, seeds, hops, 20)
    assert sql, "the hand-built graph should answer these seeds"
    assert [c for c, _ in memory] == [c for c, _ in sql]
    assert [v for _, v in memory] == pytest.approx([v for _, v in sql])
