"""Writing documents, chunks and their knowledge graph to Postgres, in the caller's transaction.

:func:`write_new_documents` is the only writer (:func:`write_document` writes one document with
it): it inserts the document rows, their parent and child chunks (with embeddings) and the
entities, mentions and relations (:func:`disputatio.storage.graph_tables.write_graph_rows`), all
in the caller's transaction, so a failure anywhere leaves nothing half-written. A write is a
fixed handful of pipelined statements whatever its size (one network round trip, not one per
row): rows are inserted from arrays (``unnest``), entities are upserted in one statement (sorted
by key, so concurrent writers lock them in the same order) and mentions and relations are joined
to their entity ids inside the database. Batches of documents (one transaction for many) are
prepared by :mod:`disputatio.storage.documents_batch`.

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
from dataclasses import dataclass, field
from typing import Any

import psycopg

from disputatio.ingest.types import DocumentGraph, ParentChunk
from disputatio.storage.graph_tables import write_graph_rows


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


@dataclass
class NewDocument:
    """One document to write, with everything derived from it.

    Attributes:
        record: The document row.
        parents: Parent chunks with their children.
        embeddings: Child chunk id → embedding.
        graph: The entities found in the children, their mentions and relations.
        document_id: Id to give the document (None: :func:`document_uuid` of its tenant and
            content hash).
    """

    record: DocumentRecord
    parents: Sequence[ParentChunk]
    embeddings: Mapping[str, Sequence[float]]
    graph: DocumentGraph = field(default_factory=DocumentGraph)
    document_id: str | None = None

    @property
    def id(self) -> str:
        """The document's id (given, or derived from its tenant and content hash)."""
        return self.document_id or document_uuid(self.record.tenant, self.record.sha256)


def write_new_documents(
    conn: psycopg.Connection[Any], tenant: str, docs: Sequence[NewDocument]
) -> list[str]:
    """Insert documents that replace nothing, in the caller's transaction; return their ids.

    All documents must belong to ``tenant`` and have distinct content hashes. The statements
    are pipelined (one round trip); errors surface when the pipeline syncs (at the latest when
    this function returns). One statement per table for the whole batch, in document order: the
    BM25 trigger (statement level) fires once and still gives each chunk the tenant's mean
    length as a document-by-document write would have seen it (migration 0011).
    """
    if not docs:
        return []
    ids = [d.id for d in docs]
    with conn.pipeline(), conn.cursor() as cur:
        recs = [d.record for d in docs]
        cur.execute(
            _INSERT_DOCUMENTS,
            (
                ids,
                [r.tenant for r in recs],
                [r.collection for r in recs],
                [r.sha256 for r in recs],
                [r.source_uri for r in recs],
                [r.title for r in recs],
                [r.kind for r in recs],
                [json.dumps(list(r.tags)) for r in recs],
                [json.dumps(dict(r.metadata)) for r in recs],
                [r.markdown for r in recs],
                [r.n_pages for r in recs],
            ),
        )
        parents = [
            (doc_id, p, d.record) for doc_id, d in zip(ids, docs, strict=True) for p in d.parents
        ]
        cur.execute(
            _INSERT_PARENTS,
            (
                [p.id for _, p, _ in parents],
                [doc_id for doc_id, _, _ in parents],
                [r.tenant for _, _, r in parents],
                [r.collection for _, _, r in parents],
                [p.ordinal for _, p, _ in parents],
                [p.text for _, p, _ in parents],
                [json.dumps(list(p.heading_path)) for _, p, _ in parents],
                [p.page for _, p, _ in parents],
                [p.char_start for _, p, _ in parents],
                [p.char_end for _, p, _ in parents],
                [p.token_count for _, p, _ in parents],
            ),
        )
        insert_children(cur, list(zip(ids, docs, strict=True)))
        write_graph_rows(cur, tenant, [(i, d.graph) for i, d in zip(ids, docs, strict=True)])
    return ids


def write_document(
    conn: psycopg.Connection[Any],
    doc: DocumentRecord,
    parents: Sequence[ParentChunk],
    embeddings: Mapping[str, Sequence[float]],
    graph: DocumentGraph,
    *,
    document_id: str | None = None,
) -> str:
    """Insert one document and everything derived from it; return the document id.

    Must run inside a transaction (``with conn.transaction():``): the caller decides whether the
    whole write commits. This is :func:`write_new_documents` of one :class:`NewDocument`, whose
    attributes the other arguments are (``doc`` is its ``record``); ``conn`` is an open
    connection with pgvector registered.
    """
    new = NewDocument(doc, parents, embeddings, graph, document_id)
    return write_new_documents(conn, doc.tenant, [new])[0]


def insert_children(cur: psycopg.Cursor[Any], docs: Sequence[tuple[str, NewDocument]]) -> None:
    """Insert the child chunks of documents with their vectors, in one statement.

    Rows go in document order, then chunk order: the BM25 trigger reads a document's place in
    the batch from it (migration 0011).

    Args:
        cur: Cursor of the writing transaction.
        docs: ``(document id, document)`` pairs.
    """
    rows = [(doc_id, d, c) for doc_id, d in docs for p in d.parents for c in p.children]
    cur.execute(
        _INSERT_CHILDREN,
        (
            [doc_id for doc_id, _, _ in rows],
            [d.record.tenant for _, d, _ in rows],
            [d.record.collection for _, d, _ in rows],
            [json.dumps(list(d.record.tags)) for _, d, _ in rows],
            [c.id for _, _, c in rows],
            [c.parent_id for _, _, c in rows],
            [c.ordinal for _, _, c in rows],
            [c.text for _, _, c in rows],
            [json.dumps(list(c.heading_path)) for _, _, c in rows],
            [" > ".join(c.heading_path) for _, _, c in rows],
            [c.page for _, _, c in rows],
            [c.char_start for _, _, c in rows],
            [c.char_end for _, _, c in rows],
            [c.token_count for _, _, c in rows],
            [_vector(d.embeddings[c.id]) for _, d, c in rows],
        ),
    )


def _vector(values: Sequence[float]) -> Any:
    import numpy as np

    return np.asarray(values, dtype=np.float32)


_INSERT_DOCUMENTS = (
    "INSERT INTO documents (id, tenant, collection, sha256, source_uri, title, kind, tags,"
    " metadata, markdown, n_pages)"
    " SELECT t.id, t.tenant, t.collection, t.sha256, t.uri, t.title, t.kind,"
    " ARRAY(SELECT jsonb_array_elements_text(t.tags::jsonb)), t.metadata::jsonb, t.markdown,"
    " t.pages"
    " FROM unnest(%s::uuid[], %s::text[], %s::text[], %s::text[], %s::text[], %s::text[],"
    " %s::text[], %s::text[], %s::text[], %s::text[], %s::int[]) WITH ORDINALITY"
    " AS t(id, tenant, collection, sha256, uri, title, kind, tags, metadata, markdown, pages, n)"
    " ORDER BY t.n"
)

_INSERT_PARENTS = (
    "INSERT INTO parent_chunks (id, document_id, tenant, collection, ordinal, text,"
    " heading_path, page, char_start, char_end, token_count)"
    " SELECT t.id, t.doc, t.tenant, t.collection, t.ordinal, t.text,"
    " ARRAY(SELECT jsonb_array_elements_text(t.heading::jsonb)), t.page, t.cs, t.ce, t.tokens"
    " FROM unnest(%s::text[], %s::uuid[], %s::text[], %s::text[], %s::int[], %s::text[],"
    " %s::text[], %s::int[], %s::int[], %s::int[], %s::int[]) WITH ORDINALITY"
    " AS t(id, doc, tenant, collection, ordinal, text, heading, page, cs, ce, tokens, n)"
    " ORDER BY t.n"
)

_INSERT_CHILDREN = (
    "INSERT INTO child_chunks (id, parent_id, document_id, tenant, collection, tags, ordinal,"
    " text, heading_path, heading, page, char_start, char_end, token_count, embedding)"
    " SELECT t.id, t.parent_id, t.doc, t.tenant, t.collection,"
    " ARRAY(SELECT jsonb_array_elements_text(t.tags::jsonb)), t.ordinal, t.text,"
    " ARRAY(SELECT jsonb_array_elements_text(t.path::jsonb)), t.heading, t.page, t.cs, t.ce,"
    " t.tokens, t.embedding"
    " FROM unnest(%s::uuid[], %s::text[], %s::text[], %s::text[], %s::text[], %s::text[],"
    " %s::int[], %s::text[], %s::text[], %s::text[], %s::int[], %s::int[], %s::int[],"
    " %s::int[], %s::vector[]) WITH ORDINALITY"
    " AS t(doc, tenant, collection, tags, id, parent_id, ordinal, text, path, heading, page, cs,"
    " ce, tokens, embedding, n)"
    " ORDER BY t.n"
)
