"""Entity-graph stores behind one protocol: in process, Postgres (the default) and Neo4j.

A :class:`GraphStore` keeps, per tenant, the entities found at ingestion, the chunks mentioning
them and the relations between them, and expands query seeds into scored chunk ids. Every store
scores like the SQL graph channel (:data:`disputatio.storage.retrieval_channels.GRAPH_SQL`,
see :func:`disputatio.retrievers.pg_channels.graph`):

* seeds are whole entity keys (the query's NER entities and its n-grams equal to a key); a seed
  weighs ``1 / ln(2 + chunks mentioning it)``, so rare entities count more;
* one hop at most: each seed keeps its ``neighbour_cap`` neighbours with the most relation rows
  ``n`` (either direction); a neighbour weighs
  ``decay · max over seeds(w_seed · n / (n + 1)) / ln(2 + chunks mentioning it)``;
* a chunk scores the sum of the distinct seeds it names plus its best neighbour's weight, so
  naming many entities earns nothing by itself.

How an external store stays consistent with Postgres (the outbox) is in
:mod:`disputatio.retrievers.graph_outbox`; the Neo4j store is in
:mod:`disputatio.retrievers.neo4j_store`.
"""

from __future__ import annotations

import logging
import math
import os
import threading
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Protocol, runtime_checkable

from disputatio.errors import RetrievalError
from disputatio.ingest.types import DocumentGraph
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

    def write_document(self, tenant: str, document_id: str, graph: DocumentGraph) -> None:
        """Store (or replace) one document's graph (its entities, mentions and relations)."""
        ...

    def delete_document(self, document_id: str) -> None:
        """Remove one document's mentions and relations, and entities left without mentions."""
        ...

    def expand(
        self, tenant: str, seeds: Sequence[str], hops: int, k: int
    ) -> list[tuple[str, float]]:
        """Match seeds, walk up to ``hops`` relations; ``(chunk_id, score)`` best first."""
        ...


def check_hops(hops: int) -> None:
    """Refuse a hop count outside ``0..MAX_HOPS`` (:class:`RetrievalError`)."""
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

    def write_document(self, tenant: str, document_id: str, graph: DocumentGraph) -> None:
        """Store (or replace) one document's graph."""
        with self._lock:
            self.delete_document(document_id)
            for m in graph.linked().mentions:
                node = (tenant, m.entity_key)
                self._mentions.setdefault(node, {})
                self._tenants.add(tenant)
                self._mentions[node][(m.chunk_id, m.start)] = document_id
                self._spots.setdefault(document_id, []).append((node, (m.chunk_id, m.start)))
            edges = self._relations.setdefault(document_id, [])
            for r in graph.relations:
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
        check_hops(hops)
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

    def write_document(self, tenant: str, document_id: str, graph: DocumentGraph) -> None:
        """Replace the document's graph rows (its chunks must already be stored)."""
        from disputatio.storage.db import connect
        from disputatio.storage.graph_tables import delete_graph_rows, write_graph

        with connect(self.settings) as conn, conn.transaction():
            delete_graph_rows(conn, document_id)
            write_graph(conn, tenant, document_id, graph)

    def delete_document(self, document_id: str) -> None:
        """Delete the document's mentions and relations, then the tenant's orphan entities."""
        from disputatio.storage.db import connect
        from disputatio.storage.documents import delete_orphan_entities
        from disputatio.storage.graph_tables import delete_graph_rows, document_tenant

        with connect(self.settings) as conn, conn.transaction():
            tenant = document_tenant(conn, document_id)
            delete_graph_rows(conn, document_id)
            if tenant is not None:
                delete_orphan_entities(conn, tenant)

    def expand(
        self, tenant: str, seeds: Sequence[str], hops: int, k: int
    ) -> list[tuple[str, float]]:
        """The SQL graph channel over the whole tenant."""
        from disputatio.retrievers import pg_channels
        from disputatio.retrievers.base import RetrievalFilters
        from disputatio.storage.db import get_pool

        check_hops(hops)
        with get_pool(self.settings).connection() as conn:
            return pg_channels.graph(conn, seeds, RetrievalFilters(tenant=tenant), k, hops)


def graph_store_from_settings(settings: Settings) -> GraphStore | None:
    """The extra graph store the settings ask for: Neo4j when ``neo4j_uri`` is set, else None.

    Postgres needs no extra store (ingestion writes its graph tables in the document's
    transaction). Neo4j credentials come from ``NEO4J_USER`` (default ``neo4j``) and
    ``NEO4J_PASSWORD`` (no auth when unset); ``NEO4J_DATABASE`` picks a database.
    """
    from disputatio.retrievers.neo4j_store import Neo4jGraphStore

    if not settings.neo4j_uri:
        return None
    password = os.environ.get("NEO4J_PASSWORD")
    auth = (os.environ.get("NEO4J_USER", "neo4j"), password) if password is not None else None
    return Neo4jGraphStore(settings.neo4j_uri, auth, os.environ.get("NEO4J_DATABASE") or None)
