"""Ingest an evaluation corpus through the real ingestion graph (the path of ``disputatio ingest``).

A shipped corpus (BioASQ) is written as one file per document and ingested in blocks of
:data:`BLOCK` files, block ``i`` into collection ``block-<i>``: a slice of the first ``N``
documents is then searched with a collection filter, and an interrupted ingestion resumes at the
first incomplete block (ingestion itself skips unchanged files by content hash).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, cast

from disputatio.errors import DisputatioError
from disputatio.settings import Settings

#: Files per block (and per collection) of a shipped corpus.
BLOCK = 500
#: Progress callback: ``(event, payload)`` with events ``total`` (files), ``file`` (status).
Progress = Callable[[str, dict[str, Any]], None]


def block_collection(index: int) -> str:
    """The collection of block ``index`` of a shipped corpus."""
    return f"block-{index:03d}"


def collections_for(n_documents: int) -> tuple[str, ...]:
    """The collections holding the first ``n_documents`` of a shipped corpus."""
    return tuple(block_collection(i) for i in range((n_documents + BLOCK - 1) // BLOCK))


def ingest_files(
    settings: Settings,
    paths: Sequence[Path],
    tenant: str,
    collection: str | None,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Ingest ``paths`` with the ingestion graph; return its summary.

    Raises:
        DisputatioError: If every file failed.
    """
    from disputatio.graphs.ingest import IngestContext, graph

    inputs = {"paths": [str(p) for p in paths], "tenant": tenant, "collection": collection}
    summary: dict[str, Any] = {}
    failures: list[str] = []
    events = graph.stream(
        inputs,
        context=IngestContext(settings=settings),
        stream_mode=["custom", "updates"],
        subgraphs=True,
    )
    for _ns, mode, data in cast(Iterator[tuple[Any, str, dict[str, Any]]], events):
        if mode == "custom" and data.get("event") == "file":
            if data.get("status") == "failed":
                failures.append(f"{data.get('path')}: {data.get('error')}")
            if progress:
                progress("file", data)
        elif mode == "updates" and "summarize" in data:
            summary = data["summarize"]["summary"]
    if failures and len(failures) == summary.get("files", len(failures)):
        raise DisputatioError(f"ingestion failed for every file, first: {failures[0]}")
    summary["failures"] = failures
    return summary


def ingest_blocks(
    settings: Settings,
    paths: Sequence[Path],
    tenant: str,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Ingest a shipped corpus block by block, skipping blocks already complete.

    Returns:
        ``{"ingested": files sent to the graph, "skipped_blocks": n, "new": n, "failed": n}``.
    """
    done = documents_per_collection(settings, tenant)
    if progress:
        progress("total", {"count": len(paths)})
    totals = {"ingested": 0, "skipped_blocks": 0, "new": 0, "failed": 0}
    failures: list[str] = []
    for start in range(0, len(paths), BLOCK):
        block = list(paths[start : start + BLOCK])
        name = block_collection(start // BLOCK)
        if done.get(name, 0) >= len(block):
            totals["skipped_blocks"] += 1
            if progress:
                progress("skip", {"count": len(block)})
            continue
        summary = ingest_files(settings, block, tenant, name, progress)
        totals["ingested"] += len(block)
        totals["new"] += int(summary.get("new", 0))
        totals["failed"] += int(summary.get("failed", 0))
        failures += summary.get("failures", [])
    return {**totals, "failures": failures}


def documents_per_collection(settings: Settings, tenant: str) -> dict[str, int]:
    """Documents stored per collection of ``tenant``."""
    from disputatio.storage.db import get_pool
    from disputatio.storage.document_reads import documents_per_collection as per_collection

    with get_pool(settings).connection() as conn:
        return per_collection(conn, tenant)
