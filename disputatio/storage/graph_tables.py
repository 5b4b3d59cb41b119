"""Documents' rows of the entity graph (``entities``, ``entity_mentions``, ``relations``).

Ingestion writes the graph with its documents (:func:`write_graph_rows`, in the documents'
transaction; :func:`write_graph` for one document) and
:func:`disputatio.storage.documents.delete_orphan_entities` drops entities left without a
mention; :func:`delete_graph_rows` clears a document's own graph rows so that it can be written
again, and :func:`document_tenant` names the tenant whose orphan entities to drop afterwards.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import psycopg

from disputatio.ingest.types import DocumentGraph, Entity, Mention, Relation


def delete_graph_rows(conn: psycopg.Connection[Any], document_id: str) -> None:
    """Delete the document's relations and entity mentions (its entities stay)."""
    conn.execute("DELETE FROM relations WHERE document_id = %s", (document_id,))
    conn.execute("DELETE FROM entity_mentions WHERE document_id = %s", (document_id,))


def document_tenant(conn: psycopg.Connection[Any], document_id: str) -> str | None:
    """The tenant owning a document (``documents.tenant``), or None when it is not stored."""
    row = conn.execute("SELECT tenant FROM documents WHERE id = %s", (document_id,)).fetchone()
    return str(row[0]) if row else None


_UPSERT_ENTITIES = (
    "INSERT INTO entities (tenant, key, name, label)"
    " SELECT %s, t.key, t.name, t.label"
    " FROM unnest(%s::text[], %s::text[], %s::text[]) AS t(key, name, label) ORDER BY t.key"
    # DO UPDATE ... WHERE false locks existing rows (so no concurrent orphan sweep deletes them
    # before this transaction's mentions commit) without writing new row versions.
    " ON CONFLICT (tenant, key) DO UPDATE SET name = entities.name WHERE false"
)

_INSERT_MENTIONS = (
    "INSERT INTO entity_mentions (entity_id, chunk_id, document_id, char_start, char_end)"
    " SELECT e.id, m.chunk_id, m.doc, m.s, m.e"
    " FROM unnest(%s::text[], %s::text[], %s::uuid[], %s::int[], %s::int[]) WITH ORDINALITY"
    " AS m(key, chunk_id, doc, s, e, n)"
    " JOIN entities e ON e.tenant = %s AND e.key = m.key"
    " ORDER BY m.n"
    " ON CONFLICT DO NOTHING"
)

_INSERT_RELATIONS = (
    "INSERT INTO relations (tenant, source_id, target_id, type, weight, document_id, chunk_id)"
    " SELECT %s, s.id, t.id, r.type, r.weight, r.doc, r.chunk_id"
    " FROM unnest(%s::text[], %s::text[], %s::text[], %s::real[], %s::uuid[], %s::text[])"
    " WITH ORDINALITY AS r(source, target, type, weight, doc, chunk_id, n)"
    " JOIN entities s ON s.tenant = %s AND s.key = r.source"
    " JOIN entities t ON t.tenant = %s AND t.key = r.target"
    " ORDER BY r.n"
)


def write_graph_rows(
    cur: psycopg.Cursor[Any], tenant: str, graphs: Sequence[tuple[str, DocumentGraph]]
) -> None:
    """Write the graphs of a tenant's documents: three statements, whatever their size.

    Entities are upserted once, sorted by key (so concurrent writers lock them in the same
    order), each with its name and label in the first document naming it (within a document,
    the last entity of a key); mentions and relations follow in document order, each only when
    its document names its entities (:meth:`DocumentGraph.linked`).

    Args:
        cur: Cursor of the writing transaction.
        tenant: The documents' tenant.
        graphs: ``(document_id, graph)`` per document, in document order.
    """
    first: dict[str, Entity] = {}
    mentions: list[tuple[str, Mention]] = []
    relations: list[tuple[str, Relation]] = []
    for doc_id, graph in graphs:
        own = graph.linked()
        for entity in own.entities:
            first.setdefault(entity.key, entity)
        mentions += [(doc_id, m) for m in own.mentions]
        relations += [(doc_id, r) for r in own.relations]
    if not first:
        return
    ents = sorted(first.values(), key=lambda e: e.key)
    cur.execute(
        _UPSERT_ENTITIES,
        (tenant, [e.key for e in ents], [e.name for e in ents], [e.label for e in ents]),
    )
    if mentions:
        cur.execute(
            _INSERT_MENTIONS,
            (
                [m.entity_key for _, m in mentions],
                [m.chunk_id for _, m in mentions],
                [doc_id for doc_id, _ in mentions],
                [m.start for _, m in mentions],
                [m.end for _, m in mentions],
                tenant,
            ),
        )
    if relations:
        cur.execute(
            _INSERT_RELATIONS,
            (
                tenant,
                [r.source for _, r in relations],
                [r.target for _, r in relations],
                [r.type for _, r in relations],
                [float(r.weight) for _, r in relations],
                [doc_id for doc_id, _ in relations],
                [r.evidence_chunk_id for _, r in relations],
                tenant,
                tenant,
            ),
        )


def write_graph(
    conn: psycopg.Connection[Any], tenant: str, document_id: str, graph: DocumentGraph
) -> None:
    """Upsert a document's entities (per tenant) and insert its mentions and relations.

    Runs in the caller's transaction; used by the Postgres graph store.
    """
    with conn.cursor() as cur:
        write_graph_rows(cur, tenant, [(document_id, graph)])
