"""Run-level nodes: find the files, screen them by content hash, route the batch loop, summarise.

Screening happens before any parsing or model work: every file is hashed, the hashes are looked
up in one query, and files whose content the tenant already stores are recorded as skipped
(unchanged) at once, in bulk. Only the rest enter the batch loop.
"""

from __future__ import annotations

import time
from collections import Counter
from pathlib import Path
from typing import Any, Literal

from langgraph.config import get_stream_writer
from langgraph.runtime import Runtime

from disputatio.ingest import sha256_file
from disputatio.ingest.util import one_line
from disputatio.nodes.ingest.context import IngestContext
from disputatio.state.ingest import FileResult, IngestState
from disputatio.storage.db import connect
from disputatio.storage.documents import known_documents
from disputatio.storage.jobs import JobRecord, new_job_id, record_jobs

#: Extensions picked up when walking a folder (explicit file paths are always tried).
SUPPORTED_SUFFIXES = frozenset(
    {
        ".txt",
        ".md",
        ".markdown",
        ".html",
        ".htm",
        ".pdf",
        ".docx",
        ".png",
        ".jpg",
        ".jpeg",
        ".tif",
        ".tiff",
    }
)

#: Hashes looked up per query while screening.
_LOOKUP_CHUNK = 5000


def discover(state: IngestState) -> dict[str, Any]:
    """Expand folders into files (recursive, sorted, hidden files and READMEs skipped)."""
    files: list[str] = []
    for raw in state.get("paths", []):
        path = Path(raw).expanduser()
        if path.is_dir():
            for child in sorted(path.rglob("*")):
                rel = child.relative_to(path)
                if any(part.startswith(".") for part in rel.parts):
                    continue
                wanted = child.suffix.lower() in SUPPORTED_SUFFIXES
                if wanted and child.stem.upper() != "README" and child.is_file():
                    files.append(str(child))
        else:
            files.append(str(path))
    get_stream_writer()({"event": "files", "count": len(files)})
    return {"files": files, "started": time.monotonic(), "cursor": 0, "batches": 0}


def scope(state: IngestState, ctx: IngestContext) -> tuple[str, str]:
    """``(tenant, collection)`` of the run (settings fill what the input leaves out)."""
    settings = ctx.get_settings()
    return (
        settings.run_tenant(state.get("tenant")),
        state.get("collection") or settings.collection,
    )


def screen(state: IngestState, runtime: Runtime[IngestContext]) -> dict[str, Any]:
    """Hash every file; record unchanged and unreadable ones; queue the rest.

    Unchanged files (content already stored for the tenant, no ``force``) get a ``skipped``
    result and job row; files that cannot be read get a ``failed`` one. Both are written in one
    bulk insert, and no file content is parsed here.
    """
    ctx = runtime.context or IngestContext()
    tenant, collection = scope(state, ctx)
    hashed: list[tuple[str, str]] = []
    results: list[FileResult] = []
    jobs: list[JobRecord] = []
    for path in state.get("files", []):
        try:
            hashed.append((path, sha256_file(Path(path))))
        except OSError as exc:
            reason = "no such file" if not Path(path).exists() else (exc.strerror or one_line(exc))
            error = f"{path}: {reason}"
            results.append(file_result(path, "failed", error=error))
            jobs.append(JobRecord(new_job_id(), tenant, collection, path, "failed", error=error))
    known: dict[str, str] = {}
    force = bool(state.get("force"))
    with connect(ctx.get_settings()) as conn:
        if not force:
            shas = sorted({sha for _, sha in hashed})
            for i in range(0, len(shas), _LOOKUP_CHUNK):
                known.update(known_documents(conn, tenant, shas[i : i + _LOOKUP_CHUNK]))
        queue: list[tuple[str, str]] = []
        for path, sha in hashed:
            if sha in known:
                results.append(file_result(path, "skipped", document_id=known[sha]))
                jobs.append(
                    JobRecord(
                        new_job_id(),
                        tenant,
                        collection,
                        path,
                        "skipped",
                        sha256=sha,
                        document_id=known[sha],
                    )
                )
            else:
                queue.append((path, sha))
        with conn.transaction():
            record_jobs(conn, jobs)
    emit(results)
    return {"queue": queue, "cursor": 0, "results": results}


def route(state: IngestState, runtime: Runtime[IngestContext]) -> Literal["load", "summarize"]:
    """Take another batch while files are queued (at most ``ingest.max_batches`` batches)."""
    ctx = runtime.context or IngestContext()
    limit = ctx.get_settings().ingest.max_batches
    more = state.get("cursor", 0) < len(state.get("queue", []))
    return "load" if more and state.get("batches", 0) < limit else "summarize"


def summarize(state: IngestState, runtime: Runtime[IngestContext]) -> dict[str, Any]:
    """Count outcomes, chunks, entities and seconds; report files left by the batch bound.

    With an external graph store, the outbox is replayed once more (rows an earlier run could
    not deliver included) and the rows still pending are counted in ``graph_pending``.
    """
    ctx = runtime.context or IngestContext()
    store = ctx.get_graph_store()
    pending: dict[str, Any] = {}
    if store is not None:
        from disputatio.retrievers.graph_outbox import replay_outbox

        replay = replay_outbox(ctx.get_settings(), store, limit=1_000_000)
        pending = {"graph_pending": replay["pending"]}
    results = list(state.get("results", []))
    left = state.get("queue", [])[state.get("cursor", 0) :]
    extra = [
        file_result(path, "failed", error=f"{path}: not processed (ingest.max_batches reached)")
        for path, _ in left
    ]
    emit(extra)
    results += extra
    counts = Counter(r["status"] for r in results)
    return {
        "results": extra,
        "summary": {
            "files": len(results),
            **{s: counts.get(s, 0) for s in ("new", "replaced", "skipped", "failed")},
            "chunks": sum(r.get("chunks", 0) for r in results),
            "entities": sum(r.get("entities", 0) for r in results),
            "seconds": round(time.monotonic() - state.get("started", time.monotonic()), 3),
            **pending,
        },
    }


def file_result(path: str, status: str, *, seconds: float = 0.0, **extra: Any) -> FileResult:
    """A :class:`FileResult` with every field set."""
    result: dict[str, Any] = {
        "path": path,
        "status": status,
        "document_id": None,
        "error": None,
        "chunks": 0,
        "parents": 0,
        "entities": 0,
        "warnings": [],
        "seconds": round(seconds, 3),
    }
    result.update(extra)
    return result  # type: ignore[return-value]


def emit(results: list[FileResult]) -> None:
    """Stream one ``file`` event per result (the CLI's progress bar counts them)."""
    if not results:
        return
    writer = get_stream_writer()
    for result in results:
        writer({"event": "file", **result})
