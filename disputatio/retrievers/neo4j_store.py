"""The entity graph in Neo4j: schema, Cypher statements and :class:`Neo4jGraphStore`."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from disputatio.errors import DatabaseError
from disputatio.ingest.types import DocumentGraph, Entity, Mention, Relation
from disputatio.retrievers.graphstore import NEIGHBOUR_CAP, NEIGHBOUR_DECAY, check_hops


@contextmanager
def database_errors(what: str) -> Iterator[None]:
    """Turn Neo4j driver errors into one-line :class:`DatabaseError` s."""
    try:
        yield
    except DatabaseError:
        raise
    except Exception as exc:
        from neo4j.exceptions import DriverError, Neo4jError

        if isinstance(exc, DriverError | Neo4jError):
            first = (str(exc).splitlines() or [type(exc).__name__])[0]
            raise DatabaseError(f"{what}: {type(exc).__name__}: {first}") from exc
        raise


# Every value travels as a $parameter; no statement is built from text at run time. A RELATED
# edge is one per (source, target, type, document) with ``n``, the relation rows it stands for.

NEO4J_SCHEMA = (
    "CREATE INDEX entity_tenant_key IF NOT EXISTS FOR (e:Entity) ON (e.tenant, e.key)",
    "CREATE INDEX chunk_tenant_id IF NOT EXISTS FOR (c:Chunk) ON (c.tenant, c.id)",
    "CREATE INDEX chunk_document IF NOT EXISTS FOR (c:Chunk) ON (c.document_id)",
)
"""Indexes created once per store (auto-commit statements)."""

DELETE_RELATIONS_CYPHER = """
MATCH (:Entity)-[r:RELATED {document_id: $document_id}]->(:Entity)
DELETE r
"""

DELETE_CHUNKS_CYPHER = """
MATCH (c:Chunk {document_id: $document_id})
OPTIONAL MATCH (c)-[:MENTIONS]->(e:Entity)
WITH collect(DISTINCT c) AS chunks, collect(DISTINCT e) AS entities
FOREACH (c IN chunks | DETACH DELETE c)
WITH entities
UNWIND entities AS e
WITH e WHERE size([(e)<-[:MENTIONS]-(:Chunk) | 1]) = 0
DETACH DELETE e
"""

WRITE_ENTITIES_CYPHER = """
UNWIND $entities AS ent
MERGE (e:Entity {tenant: $tenant, key: ent.key})
ON CREATE SET e.name = ent.name, e.label = ent.label
"""

WRITE_MENTIONS_CYPHER = """
UNWIND $mentions AS m
MATCH (e:Entity {tenant: $tenant, key: m.key})
MERGE (c:Chunk {tenant: $tenant, id: m.chunk_id})
SET c.document_id = $document_id
MERGE (c)-[r:MENTIONS {start: m.start}]->(e)
SET r.end = m.end, r.document_id = $document_id
"""

WRITE_RELATIONS_CYPHER = """
UNWIND $relations AS rel
MATCH (s:Entity {tenant: $tenant, key: rel.source})
MATCH (t:Entity {tenant: $tenant, key: rel.target})
MERGE (s)-[r:RELATED {type: rel.type, document_id: $document_id}]->(t)
SET r.weight = rel.weight, r.chunk_id = rel.chunk_id, r.n = rel.n
"""

EXPAND_CYPHER = """
UNWIND $seeds AS seed
MATCH (s:Entity {tenant: $tenant, key: seed})
WITH DISTINCT s
MATCH (s)<-[:MENTIONS]-(sc:Chunk)
WITH s, 1.0 / log(2.0 + count(DISTINCT sc)) AS w
WITH collect({e: s, w: w}) AS seeds
CALL {
    WITH seeds
    UNWIND seeds AS sd
    WITH seeds, sd, sd.e AS x
    MATCH (x)-[r:RELATED]-(o:Entity {tenant: $tenant})
    WHERE $hops >= 1 AND none(y IN seeds WHERE y.e = o)
    WITH sd, o, toFloat(sum(coalesce(r.n, 1))) AS n
    ORDER BY n DESC, o.key
    WITH sd, collect({o: o, n: n})[..$cap] AS top
    UNWIND top AS t
    WITH t.o AS o, max(sd.w * t.n / (t.n + 1.0)) AS v
    MATCH (o)<-[:MENTIONS]-(oc:Chunk)
    WITH o, v, count(DISTINCT oc) AS chunks
    RETURN collect({e: o, w: $decay * v / log(2.0 + chunks)}) AS neighbours
}
CALL {
    WITH seeds
    UNWIND seeds AS sd
    WITH sd.e AS e, sd.w AS w
    MATCH (e)<-[:MENTIONS]-(c:Chunk {tenant: $tenant})
    WITH DISTINCT c, e, w
    RETURN c.id AS chunk_id, w AS seed_w, 0.0 AS neighbour_w
    UNION ALL
    WITH neighbours
    UNWIND neighbours AS nb
    WITH nb.e AS e, nb.w AS w
    MATCH (e)<-[:MENTIONS]-(c:Chunk {tenant: $tenant})
    WITH DISTINCT c, e, w
    RETURN c.id AS chunk_id, 0.0 AS seed_w, w AS neighbour_w
}
WITH chunk_id, sum(seed_w) + max(neighbour_w) AS score
RETURN chunk_id, score
ORDER BY score DESC, chunk_id
LIMIT $k
"""
"""The expansion statement: the SQL graph channel's scoring in Cypher (one hop at most)."""


class Neo4jGraphStore:
    """The entity graph in Neo4j, written and walked with the official driver.

    Nodes ``(:Entity {tenant, key, name, label})`` (merged per tenant) and
    ``(:Chunk {tenant, id, document_id})``; edges ``(:Chunk)-[:MENTIONS {start, end}]->(:Entity)``
    and ``(:Entity)-[:RELATED {type, weight, document_id}]->(:Entity)``.

    Args:
        uri: Bolt/neo4j URI, e.g. ``neo4j://localhost:7687``.
        auth: ``(user, password)``, or None for a server without auth.
        database: Database name (None = the server's default).
        driver: An already built driver (tests inject a fake); built from ``uri`` when None.
    """

    def __init__(
        self,
        uri: str,
        auth: tuple[str, str] | None = None,
        database: str | None = None,
        *,
        driver: Any = None,
    ) -> None:
        if driver is None:
            from neo4j import GraphDatabase

            with database_errors(f"cannot open Neo4j at {uri}"):
                driver = GraphDatabase.driver(uri, auth=auth)
        self.uri = uri
        self.database = database
        self.driver = driver
        self._schema_ready = False

    def close(self) -> None:
        """Close the driver."""
        self.driver.close()

    def __enter__(self) -> Neo4jGraphStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def ensure_schema(self) -> None:
        """Create the lookup indexes (once per store)."""
        if self._schema_ready:
            return
        with database_errors(f"Neo4j at {self.uri}"), self._session() as session:
            for statement in NEO4J_SCHEMA:
                session.run(statement).consume()
        self._schema_ready = True

    def write_document(self, tenant: str, document_id: str, graph: DocumentGraph) -> None:
        """Replace the document's graph, in one write transaction."""
        self.ensure_schema()
        doc = {"document_id": document_id}
        scoped = {"tenant": tenant, **doc}
        batches = (
            (WRITE_ENTITIES_CYPHER, {"entities": [_entity(e) for e in graph.entities], **scoped}),
            (WRITE_MENTIONS_CYPHER, {"mentions": [_mention(m) for m in graph.mentions], **scoped}),
            (WRITE_RELATIONS_CYPHER, {"relations": _relations(graph.relations), **scoped}),
        )
        statements = [(DELETE_RELATIONS_CYPHER, doc), (DELETE_CHUNKS_CYPHER, doc), *batches]
        with database_errors(f"Neo4j at {self.uri}"), self._session() as session:
            session.execute_write(_run_all, statements)

    def delete_document(self, document_id: str) -> None:
        """Delete the document's chunks, mentions, relations and orphaned entities."""
        doc = {"document_id": document_id}
        statements = [(DELETE_RELATIONS_CYPHER, doc), (DELETE_CHUNKS_CYPHER, doc)]
        with database_errors(f"Neo4j at {self.uri}"), self._session() as session:
            session.execute_write(_run_all, statements)

    def expand(
        self, tenant: str, seeds: Sequence[str], hops: int, k: int
    ) -> list[tuple[str, float]]:
        """Whole-key seeds, one hop, scored as the SQL channel; ``(chunk_id, score)`` best first."""
        check_hops(hops)
        if not seeds or k <= 0:
            return []
        params = {
            "tenant": tenant,
            "seeds": list(dict.fromkeys(seeds)),
            "k": int(k),
            "hops": min(hops, 1),
            "cap": NEIGHBOUR_CAP,
            "decay": NEIGHBOUR_DECAY,
        }
        with database_errors(f"Neo4j at {self.uri}"), self._session() as session:
            return list(session.execute_read(_read_scores, EXPAND_CYPHER, params))

    def _session(self) -> Any:
        return self.driver.session(database=self.database)


def _run_all(tx: Any, statements: Sequence[tuple[str, dict[str, Any]]]) -> None:
    for query, params in statements:
        tx.run(query, params).consume()


def _read_scores(tx: Any, query: str, params: dict[str, Any]) -> list[tuple[str, float]]:
    return [(str(r["chunk_id"]), float(r["score"])) for r in tx.run(query, params)]


def _entity(e: Entity) -> dict[str, Any]:
    return {"key": e.key, "name": e.name, "label": e.label}


def _mention(m: Mention) -> dict[str, Any]:
    return {"key": m.entity_key, "chunk_id": m.chunk_id, "start": m.start, "end": m.end}


def _relations(relations: Sequence[Relation]) -> list[dict[str, Any]]:
    """One row per ``(source, target, type)`` with ``n``, its relation rows (edge count)."""
    rows: dict[tuple[str, str, str], dict[str, Any]] = {}
    for r in relations:
        key = (r.source, r.target, r.type)
        if key in rows:
            rows[key]["n"] += 1
            continue
        rows[key] = {
            "source": r.source,
            "target": r.target,
            "type": r.type,
            "weight": float(r.weight),
            "chunk_id": r.evidence_chunk_id,
            "n": 1,
        }
    return list(rows.values())
