"""The batch loop: load → entities → embed → index, over batches of files.

Models see whole batches: spaCy pipes the child chunks of every document in the batch at once
and the embedding model gets one call for all of them (it batches internally by
``models.embedding_batch_size``, after sorting by length: the larger the batch, the less
padding); the two run one after the other, each on every core. A batch takes up to
``ingest.batch_size`` files and stops at ``ingest.batch_chunks`` child chunks. The batch's new
documents are written in one transaction (:func:`_write_new`: a few statements per batch, one
commit); if that fails, or for documents that replace or repeat stored content, each document
gets its own transaction (:func:`_write`), so a failure leaves nothing of that document and the
rest goes on. A failure inside a batch-wide step is retried document by document, so only the
culprit fails.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from langgraph.runtime import Runtime

from disputatio.errors import DisputatioError
from disputatio.ingest import DocumentGraph, chunk_document, extract
from disputatio.nodes.context import context_of
from disputatio.nodes.ingest.batch import emit, file_result, scope
from disputatio.nodes.ingest.context import IngestContext
from disputatio.state.ingest import FileResult, IngestState, WorkItem
from disputatio.storage.db import connect
from disputatio.storage.documents import (
    DocumentRecord,
    delete_document,
    lock_content,
    previous_versions,
    write_document,
)
from disputatio.storage.documents_batch import (
    NewDocument,
    lock_batch,
    previous_by_item,
    write_new_documents,
)
from disputatio.storage.jobs import JobRecord, finish_jobs, new_job_id, record_jobs

logger = logging.getLogger(__name__)


def _error(item: WorkItem, exc: Exception, step: str) -> str:
    if isinstance(exc, DisputatioError):
        return exc.message
    logger.exception("ingesting %s failed in %s", item.path, step)
    return f"{item.path}: {type(exc).__name__}: {exc}".splitlines()[0]


def _live(batch: list[WorkItem]) -> list[WorkItem]:
    return [item for item in batch if item.error is None]


def load(state: IngestState, runtime: Runtime[IngestContext]) -> dict[str, Any]:
    """Take the next batch off the queue, open its jobs, extract and chunk each file.

    The batch ends after ``ingest.batch_size`` files or once it holds ``ingest.batch_chunks``
    child chunks, whichever comes first.
    """
    ctx = context_of(runtime, IngestContext)
    settings = ctx.get_settings()
    cfg = settings.ingest
    tenant, collection = scope(state, ctx)
    queue = state.get("queue", [])
    cursor = state.get("cursor", 0)
    started = time.monotonic()
    max_bytes = int(cfg.max_file_mb * 2**20)
    batch: list[WorkItem] = []
    chunks = 0
    while cursor < len(queue) and len(batch) < cfg.batch_size and chunks < cfg.batch_chunks:
        path, sha = queue[cursor]
        cursor += 1
        item = WorkItem(path, sha, new_job_id(), started)
        batch.append(item)
        try:
            item.document = extract(Path(item.path), ocr=ctx.get_ocr(), max_bytes=max_bytes)
            item.parents = chunk_document(
                item.document,
                doc_key=f"{tenant}/{item.sha256}",
                parent_min_tokens=cfg.parent_min_tokens,
                parent_max_tokens=cfg.parent_max_tokens,
                child_tokens=cfg.child_tokens,
                child_overlap=cfg.child_overlap,
                child_close_tokens=cfg.child_close_tokens,
            )
            if not item.parents:
                item.error = f"{item.path}: no text to index"
            chunks += len(item.children)
        except Exception as exc:
            item.error = _error(item, exc, "extract")
    with connect(settings) as conn, conn.transaction():
        record_jobs(
            conn,
            [JobRecord(i.job_id, tenant, collection, i.path, "running", i.sha256) for i in batch],
        )
    return {"batch": batch, "cursor": cursor, "batches": state.get("batches", 0) + 1}


def _per_item(batch: list[WorkItem], step: str, run: Callable[[list[WorkItem]], None]) -> None:
    """Run ``run`` on the whole batch; on failure, once per item so only culprits fail."""
    live = _live(batch)
    if not live:
        return
    try:
        run(live)
    except Exception as exc:
        if len(live) == 1:
            live[0].error = _error(live[0], exc, step)
            return
        for item in live:
            try:
                run([item])
            except Exception as inner:
                item.error = _error(item, inner, step)


def entities(state: IngestState, runtime: Runtime[IngestContext]) -> dict[str, Any]:
    """Find entities, mentions and relations in every child chunk of the batch.

    Runs before :func:`embed`, not beside it: a Python-heavy thread beside the embedding
    model's forward pass slows it 2-3x (see :mod:`disputatio.graphs.ingest.graph`).
    """
    extractor = context_of(runtime, IngestContext).get_entity_extractor()
    batch = state.get("batch", [])
    if extractor is None:
        return {}

    def run(items: list[WorkItem]) -> None:
        groups = [item.children for item in items]
        if hasattr(extractor, "extract_batch"):
            found = extractor.extract_batch(groups)
        else:
            found = [extractor.extract(group) for group in groups]
        for item, graph in zip(items, found, strict=True):
            item.graph = graph

    _per_item(batch, "entities", run)
    return {}  # the work items are filled in place


def embedding_text(heading_path: tuple[str, ...], text: str) -> str:
    """What is embedded for a child chunk: its heading path, then its text."""
    return f"{' > '.join(heading_path)}\n{text}" if heading_path else text


def embed(state: IngestState, runtime: Runtime[IngestContext]) -> dict[str, Any]:
    """Embed every child chunk of the batch in one call to the embedding model."""
    ctx = context_of(runtime, IngestContext)
    dim = ctx.get_settings().models.embedding_dim
    batch = state.get("batch", [])

    def run(items: list[WorkItem]) -> None:
        children = [(item, c) for item in items for c in item.children]
        texts = [embedding_text(c.heading_path, c.text) for _, c in children]
        vectors = ctx.get_embeddings().embed_documents(texts) if texts else []
        if len(vectors) != len(texts):
            raise DisputatioError(f"embedding model returned {len(vectors)} of {len(texts)}")
        if vectors and len(vectors[0]) != dim:
            raise DisputatioError(
                f"embedding model returned {len(vectors[0])}-d vectors, expected {dim}"
            )
        for item in items:
            item.embeddings = {}
        for (item, child), vector in zip(children, vectors, strict=True):
            item.embeddings[child.id] = vector

    _per_item(batch, "embed", run)
    return {}  # the work items are filled in place


def index(state: IngestState, runtime: Runtime[IngestContext]) -> dict[str, Any]:
    """Write each document of the batch in its own transaction; record every outcome.

    Inside the transaction a lock on (tenant, content hash) serialises concurrent writers of the
    same content: whoever comes second finds the document and reports it skipped (unchanged).
    With a graph store configured, the document's graph goes to the outbox in the same
    transaction and is replayed after the batch.
    """
    ctx = context_of(runtime, IngestContext)
    settings = ctx.get_settings()
    tenant, collection = scope(state, ctx)
    store = ctx.get_graph_store()
    batch = state.get("batch", [])
    results: list[FileResult] = []
    failed: list[JobRecord] = []
    with connect(settings) as conn:
        written = _write_new(conn, state, ctx, batch, tenant, collection, store)
        for item in batch:
            if item.job_id in written:
                results.append(written[item.job_id])
                continue
            if item.error is None:
                try:
                    results.append(_write(conn, state, ctx, item, tenant, collection, store))
                    continue
                except Exception as exc:
                    item.error = _error(item, exc, "index")
            seconds = time.monotonic() - item.started
            results.append(file_result(item.path, "failed", error=item.error, seconds=seconds))
            failed.append(
                JobRecord(
                    item.job_id, tenant, collection, item.path, "failed", item.sha256,
                    error=item.error,
                )
            )  # fmt: skip
        with conn.transaction():
            finish_jobs(conn, failed)
    if store is not None:
        from disputatio.retrievers.graph_outbox import replay_outbox

        replay_outbox(settings, store, limit=settings.ingest.batch_size * 4)
    emit(results)
    return {"results": results, "batch": []}


def _write(
    conn: Any,
    state: IngestState,
    ctx: IngestContext,
    item: WorkItem,
    tenant: str,
    collection: str,
    store: Any,
) -> FileResult:
    """One document's transaction; returns its result."""
    graph = item.graph or DocumentGraph()
    record = _record(state, item, tenant, collection)
    with conn.transaction():
        with conn.pipeline():  # one round trip for the three
            if not ctx.get_settings().ingest.synchronous_commit:
                conn.execute("SET LOCAL synchronous_commit = off")
            lock_content(conn, tenant, item.sha256)
            previous = previous_versions(conn, tenant, item.sha256, collection, record.source_uri)
        same = [doc_id for doc_id, sha in previous if sha == item.sha256]
        if same and not state.get("force"):
            # a concurrent run (or an earlier file of this run) stored this content first
            result = file_result(
                item.path,
                "skipped",
                document_id=same[0],
                seconds=time.monotonic() - item.started,
            )
            status, document_id, stats = "skipped", same[0], dict(result)
        else:
            for doc_id, _ in previous:
                delete_document(conn, doc_id)
            document_id = write_document(conn, record, item.parents, item.embeddings, graph)
            if store is not None:
                from disputatio.retrievers.graph_outbox import enqueue_delete, enqueue_write

                for doc_id, _ in previous:
                    enqueue_delete(conn, tenant, doc_id)
                enqueue_write(conn, tenant, document_id, graph)
            result = _stored(item, "replaced" if previous else "new", document_id)
            status, stats = "succeeded", dict(result)
        finish_jobs(
            conn,
            [
                JobRecord(
                    item.job_id, tenant, collection, item.path, status, item.sha256,
                    document_id=document_id, stats=stats,
                )
            ],
        )  # fmt: skip
    return result


def _record(state: IngestState, item: WorkItem, tenant: str, collection: str) -> DocumentRecord:
    """The document row of a work item."""
    doc = item.document
    return DocumentRecord(
        tenant=tenant,
        collection=collection,
        sha256=item.sha256,
        source_uri=str(Path(item.path).resolve()),
        title=doc.title,
        kind=doc.source_kind,
        tags=tuple(state.get("tags") or []),
        metadata={**doc.metadata, **(state.get("metadata") or {}), "warnings": list(doc.warnings)},
        markdown=doc.markdown,
        n_pages=len(doc.pages) or None,
    )


def _stored(item: WorkItem, status: str, document_id: str) -> FileResult:
    """The result of a document that was written (``new`` or ``replaced``)."""
    return file_result(
        item.path,
        status,
        document_id=document_id,
        chunks=len(item.children),
        parents=len(item.parents),
        entities=len(item.graph.entities) if item.graph else 0,
        warnings=list(item.document.warnings),
        seconds=time.monotonic() - item.started,
    )


def _write_new(
    conn: Any,
    state: IngestState,
    ctx: IngestContext,
    batch: list[WorkItem],
    tenant: str,
    collection: str,
    store: Any,
) -> dict[str, FileResult]:
    """Write the batch's new documents in one transaction; their results by job id.

    Under the content locks of the whole batch, documents that replace nothing (and are the
    first of their content in the batch) are written together (:func:`write_new_documents`)
    with their jobs. The others (replacements, same content twice, a concurrent writer's
    content) are left to :func:`_write`, one transaction each. If the batch transaction fails,
    nothing of it is stored and every document goes through :func:`_write`, so only a
    culprit fails.
    """
    live = _live(batch)
    if len(live) < 2:
        return {}
    try:
        with conn.transaction():
            with conn.pipeline():
                if not ctx.get_settings().ingest.synchronous_commit:
                    conn.execute("SET LOCAL synchronous_commit = off")
                lock_batch(conn, tenant, [item.sha256 for item in live])
                records = [_record(state, item, tenant, collection) for item in live]
                previous = previous_by_item(
                    conn, tenant, collection, [(r.sha256, r.source_uri) for r in records]
                )
            fresh: list[tuple[WorkItem, DocumentRecord]] = []
            seen: set[str] = set()
            for item, record, older in zip(live, records, previous, strict=True):
                if not older and item.sha256 not in seen:
                    fresh.append((item, record))
                seen.add(item.sha256)
            docs = [
                NewDocument(record, item.parents, item.embeddings, item.graph or DocumentGraph())
                for item, record in fresh
            ]
            ids = write_new_documents(conn, tenant, docs)
            results: dict[str, FileResult] = {}
            jobs: list[JobRecord] = []
            for (item, _), document_id in zip(fresh, ids, strict=True):
                if store is not None:
                    from disputatio.retrievers.graph_outbox import enqueue_write

                    enqueue_write(conn, tenant, document_id, item.graph or DocumentGraph())
                result = results[item.job_id] = _stored(item, "new", document_id)
                jobs.append(
                    JobRecord(
                        item.job_id, tenant, collection, item.path, "succeeded", item.sha256,
                        document_id=document_id, stats=dict(result),
                    )
                )  # fmt: skip
            finish_jobs(conn, jobs)
    except Exception:
        logger.warning(
            "writing a batch of %d documents together failed; writing them one by one",
            len(live),
            exc_info=True,
        )
        return {}
    return results
