"""Entity-graph stores behind one protocol: in process, Postgres (the default) and Neo4j.

A :class:`GraphStore` keeps, per tenant, the entities found at ingestion, the chunks mentioning
them and the relations between them, and expands query seeds into scored chunk ids. Every store
scores like the SQL graph channel (:data:`disputatio.retrievers.pg_channels.GRAPH_SQL`): an entity
reached at ``depth`` relation hops from a seed weighs ``0.5^depth · sim / ln(2 + mentions)``
(``sim`` is the seed match for seeds, 1.0 for entities reached by the walk; ``mentions`` counts all
of the entity's mentions, so hubs weigh less), and a chunk scores the sum of that weight over each
mention it holds.

Seed matching: an exact key scores 1.0. Postgres matches partial seeds with pg_trgm
``word_similarity`` (``s <% key``, threshold 0.6); the in-process and Neo4j stores use a
word-containment rule instead (:func:`seed_similarity`): a seed whose words appear as a contiguous
run of the key's words scores ``|seed words| / |key words|`` — ``"curie"`` matches
``"marie curie"`` with 0.5 — and nothing else matches (no fuzzy or misspelled matches).

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
"""Most relation hops any store expands (``settings.retrieval.graph_hops`` is capped at 3 too)."""


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


def seed_similarity(seed: str, key: str) -> float:
    """How well a normalised seed matches an entity key (in-process and Neo4j rule).

    Args:
        seed: A normalised seed (see :func:`~disputatio.ingest.entities.normalize_entity_name`).
        key: A normalised entity key.

    Returns:
        1.0 for an exact match; ``|seed words| / |key words|`` when the seed's words occur as a
        contiguous run of the key's words; 0.0 otherwise.
    """
    if seed == key:
        return 1.0
    want, words = seed.split(), key.split()
    n = len(want)
    if n == 0 or n >= len(words):
        return 0.0
    if any(words[i : i + n] == want for i in range(len(words) - n + 1)):
        return n / len(words)
    return 0.0


def entity_weight(depth: int, sim: float, mentions: int) -> float:
    """``0.5^depth · sim / ln(2 + mentions)``: the graph channel's entity weight."""
    return 0.5**depth * sim / math.log(2 + mentions)


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
        self._words: dict[str, dict[str, set[str]]] = {}  # tenant → word → keys
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
                    if node not in self._mentions:
                        self._mentions[node] = {}
                        for word in m.entity_key.split():
                            self._words.setdefault(tenant, {}).setdefault(word, set()).add(
                                m.entity_key
                            )
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
        tenant, key = node
        del self._mentions[node]
        self._adjacent.pop(node, None)
        for word in key.split():
            self._words.get(tenant, {}).get(word, set()).discard(key)

    def chunk_scores(self, tenant: str | None, seeds: Sequence[str], hops: int) -> dict[str, float]:
        """Every chunk reached from ``seeds`` with its score (``tenant=None``: all tenants)."""
        _check_hops(hops)
        with self._lock:
            tenants = [tenant] if tenant is not None else sorted(self._words)
            scores: dict[str, float] = {}
            for t in tenants:
                for key, depth, sim in self._walk(t, self._seeds(t, seeds), hops):
                    found = self._mentions[(t, key)]
                    w = entity_weight(depth, sim, len(found))
                    for chunk_id, _ in found:
                        scores[chunk_id] = scores.get(chunk_id, 0.0) + w
            return scores

    def expand(
        self, tenant: str, seeds: Sequence[str], hops: int, k: int
    ) -> list[tuple[str, float]]:
        """The ``k`` best chunks reached from ``seeds``."""
        return top_k(self.chunk_scores(tenant, seeds, hops).items(), k)

    def _seeds(self, tenant: str, seeds: Sequence[str]) -> dict[str, float]:
        words = self._words.get(tenant, {})
        sims: dict[str, float] = {}
        for seed in seeds:
            parts = seed.split()
            if not parts:
                continue
            candidates = set.intersection(*(words.get(w, set()) for w in parts))
            for key in candidates:
                sim = seed_similarity(seed, key)
                if sim > sims.get(key, 0.0):
                    sims[key] = sim
        return sims

    def _walk(
        self, tenant: str, seeds: dict[str, float], hops: int
    ) -> Iterator[tuple[str, int, float]]:
        """Breadth-first: ``(key, min depth, seed sim or 1.0)`` for every reached entity."""
        depth_of = dict.fromkeys(seeds, 0)
        frontier = list(seeds)
        for depth in range(1, hops + 1):
            nxt = []
            for key in frontier:
                for other in self._adjacent.get((tenant, key), Counter()):
                    if other not in depth_of:
                        depth_of[other] = depth
                        nxt.append(other)
            frontier = nxt
        for key, depth in depth_of.items():
            yield key, depth, seeds.get(key, 1.0)


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
# Every value travels as a $parameter. The only text put into a statement is the hop bound of
# the variable-length path (Cypher cannot take it as a parameter): one statement per allowed
# bound is built here, at import time, from the integers 0..MAX_HOPS.

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
SET r.weight = rel.weight, r.chunk_id = rel.chunk_id
"""

_EXPAND_TEMPLATE = """
UNWIND $seeds AS seed
MATCH (e:Entity {tenant: $tenant})
WHERE e.key = seed OR (' ' + e.key + ' ') CONTAINS (' ' + seed + ' ')
WITH e, max(CASE WHEN e.key = seed THEN 1.0
            ELSE toFloat(size(split(seed, ' '))) / size(split(e.key, ' ')) END) AS sim
WITH collect({entity: e, sim: sim}) AS matched
UNWIND matched AS m
WITH matched, m.entity AS start
MATCH p = (start)-[:RELATED*0..HOPS]-(n:Entity {tenant: $tenant})
WITH matched, n, min(length(p)) AS depth
WITH n, depth, coalesce(head([x IN matched WHERE x.entity = n | x.sim]), 1.0) AS sim,
     size([(n)<-[:MENTIONS]-(:Chunk) | 1]) AS mentions
WITH n, 0.5 ^ depth * sim / log(2.0 + mentions) AS w
MATCH (n)<-[:MENTIONS]-(c:Chunk {tenant: $tenant})
RETURN c.id AS chunk_id, sum(w) AS score
ORDER BY score DESC, chunk_id
LIMIT $k
"""

EXPAND_CYPHER = {h: _EXPAND_TEMPLATE.replace("HOPS", str(h)) for h in range(MAX_HOPS + 1)}
"""Hop bound → the expansion statement (same scoring as the SQL graph channel)."""


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
            (WRITE_RELATIONS_CYPHER, {"relations": [_relation(r) for r in relations], **scoped}),
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
        """Seed match and variable-length walk in Cypher; ``(chunk_id, score)`` best first."""
        _check_hops(hops)
        if not seeds or k <= 0:
            return []
        params = {"tenant": tenant, "seeds": list(seeds), "k": int(k)}
        with database_errors(f"Neo4j at {self.uri}"), self._session() as session:
            return list(session.execute_read(_read_scores, EXPAND_CYPHER[hops], params))

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


def _relation(r: Relation) -> dict[str, Any]:
    return {
        "source": r.source,
        "target": r.target,
        "type": r.type,
        "weight": float(r.weight),
        "chunk_id": r.evidence_chunk_id,
    }
