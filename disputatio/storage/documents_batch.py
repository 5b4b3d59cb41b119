"""Writing a batch of new documents in one transaction (the fast path of ingestion).

:func:`write_new_documents` stores many documents with a fixed handful of statements per batch
and one commit, where :func:`~disputatio.storage.documents.write_document` takes one
transaction (and its round trips and commit) per document. What is stored is the same:

- the document rows, parents, mentions and relations are inserted from arrays, one statement
  per table for the whole batch, in document order;
- children are inserted one statement per document, in document order, so the BM25 posting
  trigger (statement level) sees the tenant's statistics exactly as it would document by
  document;
- entities are upserted once for the batch, sorted by key (so concurrent writers lock them in
  the same order), each with the name and label of its first mention in batch order (as
  one-by-one writes would have left it).

Callers take :func:`lock_batch` first (advisory locks on every (tenant, content hash), in sorted
order) and pass only documents that replace nothing (:func:`previous_by_item`); the whole batch
commits or nothing of it does, so a caller can fall back to one transaction per document when
the batch fails.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import psycopg

from disputatio.ingest.types import Entity, Mention, ParentChunk, Relation
from disputatio.storage.documents import (
    _UPSERT_ENTITIES,
    DocumentRecord,
    document_uuid,
    insert_children,
)


@dataclass
class NewDocument:
    """One document of a batch, with everything derived from it.

    Attributes:
        record: The document row.
        parents: Parent chunks with their children.
        embeddings: Child chunk id → embedding.
        entities: Entities found in the children.
        mentions: Mentions of those entities.
        relations: Relations between those entities.
    """

    record: DocumentRecord
    parents: Sequence[ParentChunk]
    embeddings: Mapping[str, Sequence[float]]
    entities: Sequence[Entity] = field(default_factory=list)
    mentions: Sequence[Mention] = field(default_factory=list)
    relations: Sequence[Relation] = field(default_factory=list)

    @property
    def id(self) -> str:
        """The document's id (derived from its tenant and content hash)."""
        return document_uuid(self.record.tenant, self.record.sha256)


def lock_batch(conn: psycopg.Connection[Any], tenant: str, hashes: Sequence[str]) -> None:
    """Take the per-content advisory locks of :func:`lock_content` for many hashes, sorted."""
    keys = sorted({f"doc:{tenant}:{sha}" for sha in hashes})
    conn.execute(
        "SELECT count(pg_advisory_xact_lock(hashtextextended(k, 0)))"
        " FROM (SELECT k FROM unnest(%s::text[]) AS k ORDER BY k) AS s",
        (keys,),
    )


def previous_by_item(
    conn: psycopg.Connection[Any],
    tenant: str,
    collection: str,
    items: Sequence[tuple[str, str]],
) -> list[list[tuple[str, str]]]:
    """For each ``(sha256, source_uri)``: the ``(id, sha256)`` of stored documents it replaces.

    The same rule as :func:`~disputatio.storage.documents.previous_versions` (same content in
    the tenant, or an older version of the same file in the collection), in one query.
    """
    if not items:
        return []
    rows = conn.execute(
        "SELECT id, sha256, collection, source_uri FROM documents WHERE tenant = %s"
        " AND (sha256 = ANY(%s) OR (collection = %s AND source_uri = ANY(%s)))",
        (tenant, [sha for sha, _ in items], collection, [uri for _, uri in items]),
    ).fetchall()
    out: list[list[tuple[str, str]]] = []
    for sha, uri in items:
        out.append(
            [
                (str(r[0]), str(r[1]))
                for r in rows
                if r[1] == sha or (r[2] == collection and r[3] == uri)
            ]
        )
    return out


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


def write_new_documents(
    conn: psycopg.Connection[Any], tenant: str, docs: Sequence[NewDocument]
) -> list[str]:
    """Insert documents that replace nothing, in the caller's transaction; return their ids.

    All documents must belong to ``tenant`` and have distinct content hashes. The statements
    are pipelined (one round trip); errors surface when the pipeline syncs.
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
        for doc_id, d in zip(ids, docs, strict=True):
            _insert_children(cur, doc_id, d)
        _write_graph(cur, tenant, ids, docs)
    return ids


def _insert_children(cur: psycopg.Cursor[Any], doc_id: str, doc: NewDocument) -> None:
    """One statement per document: the BM25 trigger fires as it would one by one."""
    children = [c for p in doc.parents for c in p.children]
    insert_children(cur, doc_id, doc.record, children, doc.embeddings)


def _write_graph(
    cur: psycopg.Cursor[Any], tenant: str, ids: Sequence[str], docs: Sequence[NewDocument]
) -> None:
    """Entities (one sorted upsert), mentions and relations (one statement each)."""
    first: dict[str, Entity] = {}
    mentions: list[tuple[str, Mention]] = []
    relations: list[tuple[str, Relation]] = []
    for doc_id, doc in zip(ids, docs, strict=True):
        own = {e.key: e for e in doc.entities}  # within a document the last one wins
        for key, entity in own.items():
            first.setdefault(key, entity)  # across documents the first document's
        mentions += [(doc_id, m) for m in doc.mentions if m.entity_key in own]
        relations += [(doc_id, r) for r in doc.relations if r.source in own and r.target in own]
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
