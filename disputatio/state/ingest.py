"""State of the ingestion graph: files are screened by content hash, then processed in batches.

The batch loop carries in-process objects (extracted documents, chunks, vectors) in
:attr:`IngestState.batch`; they are replaced by every batch and never leave the process.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

from typing_extensions import TypedDict

FileStatus = Literal["new", "replaced", "skipped", "failed"]


class FileResult(TypedDict, total=False):
    """Outcome of one file.

    Attributes:
        path: The file.
        status: new, replaced (``--force`` or a changed file at the same path), skipped
            (unchanged: the same content is already ingested) or failed.
        document_id: Id of the stored document (new/replaced/skipped).
        error: One-line error (failed).
        chunks: Child chunks written.
        parents: Parent chunks written.
        entities: Distinct entities found.
        warnings: Lossy or guessed extraction steps.
        seconds: Wall time for the file (its share of its batch).
    """

    path: str
    status: FileStatus
    document_id: str | None
    error: str | None
    chunks: int
    parents: int
    entities: int
    warnings: list[str]
    seconds: float


@dataclass
class WorkItem:
    """One file moving through a batch (in-process only).

    Attributes:
        path: The file.
        sha256: Content hash.
        job_id: Row of ``ingestion_jobs`` (``running`` until the document commits or fails).
        started: ``time.monotonic()`` when its batch started.
        document: The extracted document (``ExtractedDocument``).
        parents: Parent chunks with children (``list[ParentChunk]``).
        graph: Its ``DocumentGraph`` (entities, mentions, relations); None until extracted.
        embeddings: Child chunk id → vector.
        error: One-line error; the item is then only recorded as failed.
    """

    path: str
    sha256: str
    job_id: str
    started: float = 0.0
    document: Any = None
    parents: list[Any] = field(default_factory=list)
    graph: Any = None
    embeddings: dict[str, Any] = field(default_factory=dict)
    error: str | None = None

    @property
    def children(self) -> list[Any]:
        """The item's child chunks, in order."""
        return [c for p in self.parents for c in p.children]


class IngestInput(TypedDict, total=False):
    """What a caller passes.

    Attributes:
        paths: Files and folders (folders are walked recursively, hidden files skipped).
        tenant: Tenant (default: settings).
        collection: Collection (default: settings).
        tags: Tags attached to every document (retrieval filters).
        metadata: Metadata attached to every document.
        force: Re-ingest unchanged content, replacing its chunks and entities.
    """

    paths: list[str]
    tenant: str | None
    collection: str | None
    tags: list[str]
    metadata: dict[str, Any]
    force: bool


class IngestState(IngestInput, total=False):
    """Batch state.

    Attributes:
        files: Files found under ``paths``, in order.
        started: ``time.monotonic()`` when the run started (for the wall time).
        queue: ``(path, sha256)`` of the files left to process after screening, in order.
        cursor: How many entries of ``queue`` have been taken into batches.
        batches: Batches taken so far (bounded by ``settings.ingest.max_batches``).
        batch: The work items of the current batch.
        results: One result per file.
        summary: Counts per status, chunks, entities and seconds.
    """

    files: list[str]
    started: float
    queue: list[tuple[str, str]]
    cursor: int
    batches: int
    batch: list[WorkItem]
    results: Annotated[list[FileResult], operator.add]
    summary: dict[str, Any]


class IngestOutput(TypedDict):
    """What the ingestion graph returns.

    Attributes:
        results: One result per file.
        summary: Counts per status, chunks, entities and seconds.
    """

    results: list[FileResult]
    summary: dict[str, Any]
