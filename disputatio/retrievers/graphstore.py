"""Entity-graph stores behind one protocol: in process, Postgres (the default) and Neo4j.

A :class:`GraphStore` keeps, per tenant, the entities found at ingestion, the chunks mentioning
them and the relations between them, and expands query seeds into scored chunk ids. Every store
scores like the SQL graph channel (:data:`disputatio.retrievers.pg_channels.GRAPH_SQL`, see
:func:`disputatio.retrievers.pg_channels.graph`):

* seeds are whole entity keys (the query's NER entities and its n-grams equal to a key); a seed
  weighs ``1 / ln(2 + chunks mentioning it)``, so rare entities count more;
* one hop at most: each seed keeps its ``neighbour_cap`` neighbours with the most relation rows
  ``n`` (either direction); a neighbour weighs
  ``decay · max over seeds(w_seed · n / (n + 1)) / ln(2 + chunks mentioning it)``;
* a chunk scores the sum of the distinct seeds it names plus its best neighbour's weight, so
  naming many entities earns nothing by itself.

Consistency with an external store (Neo4j): ingestion never writes it directly. Each document's
Postgres transaction appends the document's graph (and a delete for every document it replaces)
to the ``graph_outbox`` table (:func:`enqueue_write`, :func:`enqueue_delete`); after the commit,
:func:`replay_outbox` applies the rows to the store in id order and deletes them, stopping at
the first failure (kept with its error, retried by the next replay, so order is preserved). A
crash or an unreachable store thus delays the graph, never leaves it with a document Postgres
does not hold, and replaced or deleted documents leave nothing behind once replayed.
"""

from __future__ import annotations

import json
import logging
import math
import os
import threading
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, Protocol, runtime_checkable

from disputatio.errors import DatabaseError, RetrievalError
from disputatio.ingest.types import Entity, Mention, Relation
from disputatio.settings import Settings

logger = logging.getLogger(__name__)

MAX_HOPS = 3
"""Most hops a caller may ask for; every store walks one at most (more are treated as one)."""

NEIGHBOUR_CAP = 20
"""Default neighbours kept per seed (``settings.retrieval.graph_neighbour_cap``)."""

NEIGHBOUR_DECAY = 0.5
"""Weight of a neighbour relative to a seed."""


@runtime_checkable
class GraphStore(Protocol):
    """Where the entity graph lives, and how the graph channel walks it."""

    def write_document(
        self,
        tenant: str,
        document_id: str,
        entities: Sequence[Entity],
        mentions: Sequence[Mention],
        relations: Sequence[Relation],
    ) -> None:
        """Store (or replace) one document's entities, mentions and relations."""
        ...

    def delete_document(self, document_id: str) -> None:
        """Remove one document's mentions and relations, and entities left without mentions."""
        ...

    def expand(
        self, tenant: str, seeds: Sequence[str], hops: int, k: int
    ) -> list[tuple[str, float]]:
        """Match seeds, walk up to ``hops`` relations; ``(chunk_id, score)`` best first."""
        ...


def _check_hops(hops: int) -> None:
    if not 0 <= hops <= MAX_HOPS:
        raise RetrievalError(f"graph hops must be between 0 and {MAX_HOPS}, got {hops}")


def top_k(scores: Iterable[tuple[str, float]], k: int) -> list[tuple[str, float]]:
    """``(id, score)`` pairs sorted by score (ties by id, as the SQL orders), cut to ``k``."""
    return sorted(scores, key=lambda p: (-p[1], p[0]))[:k]


class InMemoryGraphStore:
    """The entity graph in process memory (used by the in-process funnel). Thread-safe."""

    def __init__(self) -> None:
        self._lock = threading.RLock()
        # (tenant, key) → {(chunk_id, start): document_id}: one entry per mention, as in SQL
        self._mentions: dict[tuple[str, str], dict[tuple[str, int], str]] = {}
        # (tenant, key) → Counter of neighbour keys (undirected; counts parallel edges)
        self._adjacent: dict[tuple[str, str], Counter[str]] = {}
        self._tenants: set[str] = set()
        self._relations: dict[str, list[tuple[str, str, str]]] = {}  # doc → (tenant, a, b)
        self._spots: dict[str, list[tuple[tuple[str, str], tuple[str, int]]]] = {}  # doc → spots

    def write_document(
        self,
        tenant: str,
        document_id: str,
        entities: Sequence[Entity],
        mentions: Sequence[Mention],
        relations: Sequence[Relation],
    ) -> None:
        """Store (or replace) one document's graph."""
        with self._lock:
            self.delete_document(document_id)
            known = {e.key for e in entities}
            for m in mentions:
                if m.entity_key in known:
                    node = (tenant, m.entity_key)
                    self._mentions.setdefault(node, {})
                    self._tenants.add(tenant)
                    self._mentions[node][(m.chunk_id, m.start)] = document_id
                    self._spots.setdefault(document_id, []).append((node, (m.chunk_id, m.start)))
            edges = self._relations.setdefault(document_id, [])
            for r in relations:
                if (tenant, r.source) in self._mentions and (tenant, r.target) in self._mentions:
                    self._adjacent.setdefault((tenant, r.source), Counter())[r.target] += 1
                    self._adjacent.setdefault((tenant, r.target), Counter())[r.source] += 1
                    edges.append((tenant, r.source, r.target))

    def delete_document(self, document_id: str) -> None:
        """Remove one document's graph (and entities no other document mentions)."""
        with self._lock:
            for tenant, a, b in self._relations.pop(document_id, []):
                for x, y in ((a, b), (b, a)):
                    counter = self._adjacent.get((tenant, x), Counter())
                    counter[y] -= 1
                    if counter[y] <= 0:
                        del counter[y]
            for node, spot in self._spots.pop(document_id, []):
                found = self._mentions.get(node, {})
                if found.get(spot) == document_id:
                    del found[spot]
                if node in self._mentions and not found:
                    self._drop(node)

    def _drop(self, node: tuple[str, str]) -> None:
        del self._mentions[node]
        self._adjacent.pop(node, None)

    def chunk_scores(
        self,
        tenant: str | None,
        seeds: Sequence[str],
        hops: int,
        *,
        neighbour_cap: int = NEIGHBOUR_CAP,
        decay: float = NEIGHBOUR_DECAY,
    ) -> dict[str, float]:
        """Every chunk reached from ``seeds`` with its score (``tenant=None``: all tenants).

        Args:
            tenant: The tenant, or None for every tenant.
            seeds: Normalised entity keys (exact matches only).
            hops: 0 (seeds only) or more (one hop; more hops are treated as one).
            neighbour_cap: Neighbours kept per seed (most relation rows first).
            decay: Weight of a neighbour relative to a seed.
        """
        _check_hops(hops)
        with self._lock:
            tenants = [tenant] if tenant is not None else sorted(self._tenants)
            scores: dict[str, float] = {}
            for t in tenants:
                for chunk_id, score in self._tenant_scores(
                    t, seeds, hops, neighbour_cap, decay
                ).items():
                    scores[chunk_id] = scores.get(chunk_id, 0.0) + score
            return scores

    def expand(
        self, tenant: str, seeds: Sequence[str], hops: int, k: int
    ) -> list[tuple[str, float]]:
        """The ``k`` best chunks reached from ``seeds``."""
        return top_k(self.chunk_scores(tenant, seeds, hops).items(), k)

    def _chunks(self, tenant: str, key: str) -> set[str]:
        return {chunk_id for chunk_id, _ in self._mentions.get((tenant, key), {})}

    def _tenant_scores(
        self, tenant: str, seeds: Sequence[str], hops: int, cap: int, decay: float
    ) -> dict[str, float]:
        seed_w = {
            key: 1.0 / math.log(2 + len(chunks))
            for key in dict.fromkeys(seeds)
            if (chunks := self._chunks(tenant, key))
        }
        reach: dict[str, float] = {}
        if hops >= 1:
            for key, w in seed_w.items():
                edges = self._adjacent.get((tenant, key), Counter())
                ranked = top_k(((o, float(n)) for o, n in edges.items() if o not in seed_w), cap)
                for other, n in ranked:
                    reach[other] = max(reach.get(other, 0.0), w * n / (n + 1.0))
        seed_score: dict[str, float] = {}
        for key, w in seed_w.items():
            for chunk_id in self._chunks(tenant, key):
                seed_score[chunk_id] = seed_score.get(chunk_id, 0.0) + w
        best_neighbour: dict[str, float] = {}
        for other, v in reach.items():
            chunks = self._chunks(tenant, other)
            w = decay * v / math.log(2 + len(chunks))
            for chunk_id in chunks:
                best_neighbour[chunk_id] = max(best_neighbour.get(chunk_id, 0.0), w)
        return {
            c: seed_score.get(c, 0.0) + best_neighbour.get(c, 0.0)
            for c in seed_score.keys() | best_neighbour.keys()
        }


class PostgresGraphStore:
    """The Postgres graph tables (what ingestion writes and the SQL channel walks).

    Ingestion already writes these tables inside each document's transaction; this store is for
    code that manages the graph on its own (re-extraction, another pipeline). Writes replace the
    document's previous mentions and relations, so they are idempotent.

    Args:
        settings: Settings naming the database.
    """

    def __init__(self, settings: Settings) -> None:
        self.settings = settings

    def write_document(
        self,
        tenant: str,
        document_id: str,
        entities: Sequence[Entity],
        mentions: Sequence[Mention],
        relations: Sequence[Relation],
    ) -> None:
        """Replace the document's graph rows (its chunks must already be stored)."""
        from disputatio.storage.db import connect
        from disputatio.storage.documents import write_graph

        with connect(self.settings) as conn, conn.transaction():
            _delete_graph_rows(conn, document_id)
            write_graph(conn, tenant, document_id, entities, mentions, relations)

    def delete_document(self, document_id: str) -> None:
        """Delete the document's mentions and relations, then the tenant's orphan entities."""
        from disputatio.storage.db import connect
        from disputatio.storage.documents import delete_orphan_entities

        with connect(self.settings) as conn, conn.transaction():
            row = conn.execute("SELECT tenant FROM documents WHERE id = %s", (document_id,))
            found = row.fetchone()
            _delete_graph_rows(conn, document_id)
            if found:
                delete_orphan_entities(conn, found[0])

    def expand(
        self, tenant: str, seeds: Sequence[str], hops: int, k: int
    ) -> list[tuple[str, float]]:
        """The SQL graph channel over the whole tenant."""
        from disputatio.retrievers import pg_channels
        from disputatio.retrievers.base import RetrievalFilters
        from disputatio.storage.db import get_pool

        _check_hops(hops)
        with get_pool(self.settings).connection() as conn:
            return pg_channels.graph(conn, seeds, RetrievalFilters(tenant=tenant), k, hops)


def _delete_graph_rows(conn: Any, document_id: str) -> None:
    conn.execute("DELETE FROM relations WHERE document_id = %s", (document_id,))
    conn.execute("DELETE FROM entity_mentions WHERE document_id = %s", (document_id,))


def graph_store_from_settings(settings: Settings) -> GraphStore | None:
    """The extra graph store the settings ask for: Neo4j when ``neo4j_uri`` is set, else None.

    Postgres needs no extra store (ingestion writes its graph tables in the document's
    transaction). Neo4j credentials come from ``NEO4J_USER`` (default ``neo4j``) and
    ``NEO4J_PASSWORD`` (no auth when unset); ``NEO4J_DATABASE`` picks a database.
    """
    if not settings.neo4j_uri:
        return None
    password = os.environ.get("NEO4J_PASSWORD")
    auth = (os.environ.get("NEO4J_USER", "neo4j"), password) if password is not None else None
    return Neo4jGraphStore(settings.neo4j_uri, auth, os.environ.get("NEO4J_DATABASE") or None)


# --- outbox ----------------------------------------------------------------------------------

_OUTBOX_LOCK = 0x6F75_7462  # "outb": one replayer at a time keeps the id order


def enqueue_write(
    conn: Any,
    tenant: str,
    document_id: str,
    entities: Sequence[Entity],
    mentions: Sequence[Mention],
    relations: Sequence[Relation],
) -> None:
    """Append a document's graph to the outbox (in the caller's transaction)."""
    payload = {
        "entities": [[e.key, e.name, e.label] for e in entities],
        "mentions": [[m.entity_key, m.chunk_id, m.start, m.end, m.text] for m in mentions],
        "relations": [
            [r.source, r.target, r.type, r.weight, r.evidence_chunk_id] for r in relations
        ],
    }
    conn.execute(
        "INSERT INTO graph_outbox (tenant, document_id, op, payload) VALUES (%s, %s, 'write', %s)",
        (tenant, document_id, json.dumps(payload)),
    )


def enqueue_delete(conn: Any, tenant: str, document_id: str) -> None:
    """Append the removal of a document's graph to the outbox (in the caller's transaction)."""
    conn.execute(
        "INSERT INTO graph_outbox (tenant, document_id, op) VALUES (%s, %s, 'delete')",
        (tenant, document_id),
    )


def _apply(store: GraphStore, tenant: str, document_id: str, op: str, payload: Any) -> None:
    if op == "delete":
        store.delete_document(document_id)
        return
    store.write_document(
        tenant,
        document_id,
        [Entity(*e) for e in payload.get("entities", [])],
        [Mention(*m) for m in payload.get("mentions", [])],
        [Relation(*r) for r in payload.get("relations", [])],
    )


def replay_outbox(settings: Settings, store: GraphStore, *, limit: int = 1000) -> dict[str, Any]:
    """Apply pending outbox rows to ``store`` in id order; delete each row once applied.

    Stops at the first failure: that row keeps its place with ``attempts`` and ``last_error``,
    and the next replay starts from it. One replayer runs at a time (advisory lock).

    Args:
        settings: Settings naming the database.
        store: The external graph store.
        limit: Most rows applied by this call (the rest wait for the next replay).

    Returns:
        ``{"applied": n, "pending": rows left, "error": the failure or None}``.
    """
    from disputatio.storage.db import connect

    applied, error = 0, None
    with connect(settings) as conn:
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_OUTBOX_LOCK,))
            rows = conn.execute(
                "SELECT id, tenant, document_id, op, payload FROM graph_outbox"
                " ORDER BY id LIMIT %s",
                (limit,),
            ).fetchall()
            for row_id, tenant, document_id, op, payload in rows:
                try:
                    _apply(store, tenant, str(document_id), op, payload)
                except Exception as exc:
                    error = f"{type(exc).__name__}: {exc}".splitlines()[0]
                    logger.warning("graph outbox row %s (%s) not applied: %s", row_id, op, error)
                    conn.execute(
                        "UPDATE graph_outbox SET attempts = attempts + 1, last_error = %s"
                        " WHERE id = %s",
                        (error, row_id),
                    )
                    break
                conn.execute("DELETE FROM graph_outbox WHERE id = %s", (row_id,))
                applied += 1
        found = conn.execute("SELECT count(*) FROM graph_outbox").fetchone()
    return {"applied": applied, "pending": int(found[0]) if found else 0, "error": error}


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


# --- Neo4j -----------------------------------------------------------------------------------
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

    def write_document(
        self,
        tenant: str,
        document_id: str,
        entities: Sequence[Entity],
        mentions: Sequence[Mention],
        relations: Sequence[Relation],
    ) -> None:
        """Replace the document's graph, in one write transaction."""
        self.ensure_schema()
        doc = {"document_id": document_id}
        scoped = {"tenant": tenant, **doc}
        batches = (
            (WRITE_ENTITIES_CYPHER, {"entities": [_entity(e) for e in entities], **scoped}),
            (WRITE_MENTIONS_CYPHER, {"mentions": [_mention(m) for m in mentions], **scoped}),
            (WRITE_RELATIONS_CYPHER, {"relations": _relations(relations), **scoped}),
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
        _check_hops(hops)
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
