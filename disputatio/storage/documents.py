"""Writing documents, chunks and their knowledge graph to Postgres — one transaction each.

:func:`write_document` is the only writer: it inserts the document row, its parent and child
chunks (with embeddings) and the entities, mentions and relations, all in the caller's
transaction, so a failure anywhere leaves nothing half-written. One document is a fixed handful
of pipelined statements whatever its size (one network round trip, not one per row): parents and
children are inserted from arrays (``unnest``), entities are upserted in one statement (sorted by
key, so concurrent writers lock them in the same order) and mentions and relations are joined
to their entity ids inside the database.

Document ids are derived, not drawn: :func:`document_uuid` of (tenant, content hash), so a caller
knows a document's id before ingesting it (``POST /ingest`` answers it at acceptance) and the
same content gets the same id again after a forced re-ingest.

Idempotency: :func:`lock_content` takes a transaction-scoped advisory lock on (tenant, sha256),
so two writers of the same content serialise and the second finds the first's document.
Ingestion jobs are written by :mod:`disputatio.storage.jobs`, outside the document transactions.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import psycopg

from disputatio.ingest.types import Entity, Mention, ParentChunk, Relation


@dataclass(frozen=True)
class DocumentRecord:
    """Everything stored about one document.

    Attributes:
        tenant: Tenant owning the document.
        collection: Collection inside the tenant.
        sha256: Content hash of the source bytes.
        source_uri: Where the document came from.
        title: Display title.
        kind: Source kind (txt, md, html, pdf, docx, image).
        tags: Tags used as retrieval filters.
        metadata: Free-form metadata (JSON).
        markdown: The normalised text every chunk offset points into.
        n_pages: Page count, if any.
    """

    tenant: str
    collection: str
    sha256: str
    source_uri: str
    title: str
    kind: str
    tags: tuple[str, ...]
    metadata: Mapping[str, Any]
    markdown: str
    n_pages: int | None


#: Namespace of :func:`document_uuid` (fixed: changing it would change every future id).
DOCUMENT_NAMESPACE = uuid.UUID("3f6c1a52-9b7e-5d2a-8c41-0e5b7d9a2f10")


def document_uuid(tenant: str, sha256: str) -> str:
    """The id a tenant's document with this content hash gets (a UUIDv5; the same every time).

    A tenant stores a content hash at most once (``UNIQUE (tenant, sha256)``), so the id is
    unique; documents written before ids were derived keep their random ids.
    """
    return str(uuid.uuid5(DOCUMENT_NAMESPACE, f"{tenant}\x00{sha256}"))


def find_document(conn: psycopg.Connection[Any], tenant: str, sha256: str) -> str | None:
    """Return the id of the tenant's document with this content hash, if any."""
    row = conn.execute(
        "SELECT id FROM documents WHERE tenant = %s AND sha256 = %s", (tenant, sha256)
    ).fetchone()
    return str(row[0]) if row else None


def known_documents(
    conn: psycopg.Connection[Any], tenant: str, hashes: Sequence[str]
) -> dict[str, str]:
    """Map each of ``hashes`` the tenant already stores to its document id (one query)."""
    if not hashes:
        return {}
    rows = conn.execute(
        "SELECT sha256, id FROM documents WHERE tenant = %s AND sha256 = ANY(%s)",
        (tenant, list(hashes)),
    ).fetchall()
    return {str(sha): str(doc_id) for sha, doc_id in rows}


def lock_content(conn: psycopg.Connection[Any], tenant: str, sha256: str) -> None:
    """Serialise writers of the same (tenant, content) until the transaction ends."""
    conn.execute(
        "SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", (f"doc:{tenant}:{sha256}",)
    )


def previous_versions(
    conn: psycopg.Connection[Any], tenant: str, sha256: str, collection: str, source_uri: str
) -> list[tuple[str, str]]:
    """``(id, sha256)`` of the stored documents a new one would replace.

    That is the same content in the tenant, and older versions of the same file (same
    collection and source) in the tenant.
    """
    rows = conn.execute(
        "SELECT id, sha256 FROM documents WHERE tenant = %s AND (sha256 = %s OR"
        " (collection = %s AND source_uri = %s))",
        (tenant, sha256, collection, source_uri),
    ).fetchall()
    return [(str(r[0]), str(r[1])) for r in rows]


def delete_document(conn: psycopg.Connection[Any], document_id: str) -> None:
    """Delete a document with its chunks, mentions and relations (cascades).

    Then the entities it mentioned that nothing mentions any more are deleted too.
    """
    mentioned = [
        r[0]
        for r in conn.execute(
            "SELECT DISTINCT entity_id FROM entity_mentions WHERE document_id = %s",
            (document_id,),
        ).fetchall()
    ]
    conn.execute("DELETE FROM documents WHERE id = %s", (document_id,))
    if mentioned:
        # entities a concurrent writer holds (it is about to mention them) are skipped
        conn.execute(
            "DELETE FROM entities WHERE id IN (SELECT e.id FROM entities e"
            " WHERE e.id = ANY(%s) AND NOT EXISTS"
            " (SELECT 1 FROM entity_mentions m WHERE m.entity_id = e.id)"
            " FOR UPDATE SKIP LOCKED)",
            (mentioned,),
        )


def delete_orphan_entities(conn: psycopg.Connection[Any], tenant: str) -> int:
    """Delete the tenant's entities no chunk mentions any more; return how many."""
    cur = conn.execute(
        "DELETE FROM entities e WHERE e.tenant = %s AND NOT EXISTS"
        " (SELECT 1 FROM entity_mentions m WHERE m.entity_id = e.id)",
        (tenant,),
    )
    return cur.rowcount


def write_document(
    conn: psycopg.Connection[Any],
    doc: DocumentRecord,
    parents: Sequence[ParentChunk],
    embeddings: Mapping[str, Sequence[float]],
    entities: Sequence[Entity],
    mentions: Sequence[Mention],
    relations: Sequence[Relation],
    *,
    document_id: str | None = None,
) -> str:
    """Insert one document and everything derived from it; return the document id.

    Must run inside a transaction (``with conn.transaction():``): the caller decides whether the
    whole write commits. The statements are pipelined; errors surface when the pipeline syncs
    (at the latest when this function returns).

    Args:
        conn: Open connection (pgvector registered).
        doc: The document row.
        parents: Parent chunks with their children.
        embeddings: Child chunk id → embedding.
        entities: Entities found in the children.
        mentions: Mentions of those entities.
        relations: Relation between those entities.
        document_id: Id to give the document (default: :func:`document_uuid` of its tenant and
            content hash).
    """
    document_id = document_id or document_uuid(doc.tenant, doc.sha256)
    with conn.pipeline(), conn.cursor() as cur:
        cur.execute(
            "INSERT INTO documents (id, tenant, collection, sha256, source_uri, title, kind, tags,"
            " metadata, markdown, n_pages) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
            (
                document_id,
                doc.tenant,
                doc.collection,
                doc.sha256,
                doc.source_uri,
                doc.title,
                doc.kind,
                list(doc.tags),
                json.dumps(dict(doc.metadata)),
                doc.markdown,
                doc.n_pages,
            ),
        )
        children = [c for p in parents for c in p.children]
        # one statement per table (statement-level triggers such as BM25 fire once)
        cur.execute(
            _INSERT_PARENTS,
            (
                document_id,
                doc.tenant,
                doc.collection,
                [p.id for p in parents],
                [p.ordinal for p in parents],
                [p.text for p in parents],
                [json.dumps(list(p.heading_path)) for p in parents],
                [p.page for p in parents],
                [p.char_start for p in parents],
                [p.char_end for p in parents],
                [p.token_count for p in parents],
            ),
        )
        insert_children(cur, document_id, doc, children, embeddings)
        _write_graph_rows(cur, doc.tenant, document_id, entities, mentions, relations)
    return document_id


def insert_children(
    cur: psycopg.Cursor[Any],
    document_id: str,
    doc: Any,
    children: Sequence[Any],
    embeddings: Mapping[str, Sequence[float]],
) -> None:
    """Insert a document's child chunks with their vectors, in one statement.

    One statement per document, so the BM25 trigger scores them as it always has.

    Args:
        cur: Cursor of the writing transaction.
        document_id: The document's id.
        doc: Its record (``tenant``, ``collection``, ``tags``).
        children: Its child chunks.
        embeddings: Child id → vector.
    """
    cur.execute(
        _INSERT_CHILDREN,
        (
            document_id,
            doc.tenant,
            doc.collection,
            list(doc.tags),
            [c.id for c in children],
            [c.parent_id for c in children],
            [c.ordinal for c in children],
            [c.text for c in children],
            [json.dumps(list(c.heading_path)) for c in children],
            [" > ".join(c.heading_path) for c in children],
            [c.page for c in children],
            [c.char_start for c in children],
            [c.char_end for c in children],
            [c.token_count for c in children],
            [_vector(embeddings[c.id]) for c in children],
        ),
    )


def _vector(values: Sequence[float]) -> Any:
    import numpy as np

    return np.asarray(values, dtype=np.float32)


_INSERT_PARENTS = (
    "INSERT INTO parent_chunks (id, document_id, tenant, collection, ordinal, text,"
    " heading_path, page, char_start, char_end, token_count)"
    " SELECT t.id, %s, %s, %s, t.ordinal, t.text,"
    " ARRAY(SELECT jsonb_array_elements_text(t.heading::jsonb)), t.page, t.cs, t.ce, t.tokens"
    " FROM unnest(%s::text[], %s::int[], %s::text[], %s::text[], %s::int[], %s::int[],"
    " %s::int[], %s::int[]) AS t(id, ordinal, text, heading, page, cs, ce, tokens)"
)

_INSERT_CHILDREN = (
    "INSERT INTO child_chunks (id, parent_id, document_id, tenant, collection, tags, ordinal,"
    " text, heading_path, heading, page, char_start, char_end, token_count, embedding)"
    " SELECT t.id, t.parent_id, %s, %s, %s, %s::text[], t.ordinal, t.text,"
    " ARRAY(SELECT jsonb_array_elements_text(t.path::jsonb)), t.heading, t.page, t.cs, t.ce,"
    " t.tokens, t.embedding"
    " FROM unnest(%s::text[], %s::text[], %s::int[], %s::text[], %s::text[], %s::text[],"
    " %s::int[], %s::int[], %s::int[], %s::int[], %s::vector[])"
    " AS t(id, parent_id, ordinal, text, path, heading, page, cs, ce, tokens, embedding)"
    " ORDER BY t.ordinal"
)

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
    " SELECT e.id, m.chunk_id, %s, m.s, m.e"
    " FROM unnest(%s::text[], %s::text[], %s::int[], %s::int[]) AS m(key, chunk_id, s, e)"
    " JOIN entities e ON e.tenant = %s AND e.key = m.key"
    " ON CONFLICT DO NOTHING"
)

_INSERT_RELATIONS = (
    "INSERT INTO relations (tenant, source_id, target_id, type, weight, document_id, chunk_id)"
    " SELECT %s, s.id, t.id, r.type, r.weight, %s, r.chunk_id"
    " FROM unnest(%s::text[], %s::text[], %s::text[], %s::real[], %s::text[])"
    " AS r(source, target, type, weight, chunk_id)"
    " JOIN entities s ON s.tenant = %s AND s.key = r.source"
    " JOIN entities t ON t.tenant = %s AND t.key = r.target"
)


def _write_graph_rows(
    cur: psycopg.Cursor[Any],
    tenant: str,
    document_id: str,
    entities: Sequence[Entity],
    mentions: Sequence[Mention],
    relations: Sequence[Relation],
) -> None:
    """Three statements, whatever the number of entities, mentions and relations."""
    if not entities:
        return
    ents = sorted({e.key: e for e in entities}.values(), key=lambda e: e.key)
    cur.execute(
        _UPSERT_ENTITIES,
        (tenant, [e.key for e in ents], [e.name for e in ents], [e.label for e in ents]),
    )
    keys = {e.key for e in ents}
    found = [m for m in mentions if m.entity_key in keys]
    if found:
        cur.execute(
            _INSERT_MENTIONS,
            (
                document_id,
                [m.entity_key for m in found],
                [m.chunk_id for m in found],
                [m.start for m in found],
                [m.end for m in found],
                tenant,
            ),
        )
    edges = [r for r in relations if r.source in keys and r.target in keys]
    if edges:
        cur.execute(
            _INSERT_RELATIONS,
            (
                tenant,
                document_id,
                [r.source for r in edges],
                [r.target for r in edges],
                [r.type for r in edges],
                [float(r.weight) for r in edges],
                [r.evidence_chunk_id for r in edges],
                tenant,
                tenant,
            ),
        )


def write_graph(
    conn: psycopg.Connection[Any],
    tenant: str,
    document_id: str,
    entities: Sequence[Entity],
    mentions: Sequence[Mention],
    relations: Sequence[Relation],
) -> None:
    """Upsert a document's entities (per tenant) and insert its mentions and relations.

    Runs in the caller's transaction; used by :func:`write_document` and the Postgres graph store.
    """
    with conn.cursor() as cur:
        _write_graph_rows(cur, tenant, document_id, entities, mentions, relations)
