"""Routes of seed 002: ingest, job status, query; and the tenant's documents.

The documents and sections routes serve a citation's source to the page. The health routes
are in :mod:`disputatio.api.probes`.
"""

from __future__ import annotations

import hashlib
import json
import re
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import UploadFile
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse

from disputatio.api import store
from disputatio.api.errors import ApiError, from_validation, invalid
from disputatio.api.fetch import fetch
from disputatio.api.http import read_body, read_json, services, tenant
from disputatio.api.schemas import IngestRequest, QueryRequest
from disputatio.api.uploads import check_upload, public, scrub
from disputatio.settings import Settings
from disputatio.state.retrieval import NO_SUITABLE_CONTEXT, NOTHING_IN_SCOPE
from disputatio.storage.documents import document_uuid

SNIPPET_CHARS = 600


def _safe(name: str, fallback: str) -> str:
    cleaned = re.sub(r"[^A-Za-z0-9._-]+", "_", Path(name).name).strip("._")
    return cleaned[:200] or fallback


def _upload_dir(settings: Settings, tenant_name: str, sha256: str) -> Path:
    return settings.home / "api" / "uploads" / _safe(tenant_name, "tenant") / sha256


# File access runs in a worker thread: blocking calls on the event loop stall every request
# (and `langgraph dev` refuses them: BlockingError, a 500).


def _read_upload(folder: Path) -> bytes | None:
    """The bytes of the file uploaded into ``folder`` before, or None."""
    files = sorted(folder.glob("*")) if folder.is_dir() else []
    return files[0].read_bytes() if files else None


def _store_upload(folder: Path, file_name: str, data: bytes) -> Path:
    """Keep ``data`` as ``folder/file_name`` (once per content) and return its path."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / file_name
    if not path.exists():
        path.write_bytes(data)
    return path


async def _from_multipart(request: Request, limit: int) -> tuple[bytes, IngestRequest]:
    body = await read_body(request, limit + 64 * 1024)

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": body, "more_body": False}

    try:
        form = await Request(request.scope, receive).form(max_files=1, max_fields=20)
    except HTTPException as exc:  # starlette's answer to a malformed multipart body
        raise ApiError(400, "MALFORMED_MULTIPART", str(exc.detail), field="file") from None
    upload = form.get("file")
    if not isinstance(upload, UploadFile):
        raise invalid("file", "a multipart upload needs one file in the field 'file'")
    data = await upload.read()
    if len(data) > limit:
        raise ApiError(413, "TOO_LARGE", f"file of {len(data)} bytes exceeds {limit}")
    fields: dict[str, Any] = {k: v for k, v in form.items() if isinstance(v, str)}
    meta_raw = fields.pop("metadata", None)
    try:
        meta = json.loads(meta_raw) if meta_raw else {}
    except ValueError:
        raise invalid("metadata", "must be a JSON object") from None
    fields.setdefault("file_name", upload.filename or "upload")
    try:
        return data, IngestRequest.model_validate({**fields, "metadata": meta})
    except ValidationError as exc:
        raise from_validation(exc) from None


async def ingest(request: Request) -> JSONResponse:
    """Accept a document (multipart upload or JSON url/file_id) and ingest it in the background.

    The answer carries the document's id at once: the id the job gives the document (derived
    from the tenant and the content hash), or the id the same content already has.
    """
    who = tenant(request)
    svc = services(request)
    settings = svc.settings
    limit = int(settings.server.max_upload_mb * 1024 * 1024)
    ctype = request.headers.get("content-type", "")
    if ctype.startswith("multipart/form-data"):
        data, req = await _from_multipart(request, limit)
    elif ctype.startswith("application/json") or not ctype:
        req = await read_json(request, IngestRequest)
        if (req.url is None) == (req.file_id is None):
            raise invalid("url", "give exactly one of url and file_id")
        if req.url is not None:
            data = await fetch(req.url, limit, allow_private=settings.server.ingest_private_urls)
        else:
            assert req.file_id is not None
            found = await run_in_threadpool(_read_upload, _upload_dir(settings, who, req.file_id))
            if found is None:
                raise invalid("file_id", "no file with this id was uploaded by this tenant")
            data = found
    else:
        raise ApiError(415, "UNSUPPORTED_MEDIA_TYPE", f"content-type {ctype!r} is not accepted")
    name = req.file_name or (Path(req.url).name if req.url else "") or "document"
    file_name = _safe(name, "document")
    if "." not in file_name and req.mime_type:
        ext = {"text/plain": ".txt", "text/markdown": ".md", "text/html": ".html",
               "application/pdf": ".pdf"}.get(req.mime_type, "")  # fmt: skip
        file_name += ext
    await run_in_threadpool(check_upload, data, file_name, settings)  # 415/422 naming `file`
    limit = settings.server.max_jobs_per_tenant
    if await run_in_threadpool(store.active_jobs, settings, who) >= limit:  # before any write
        raise ApiError(429, "TOO_MANY_JOBS", "too many ingestion jobs running", retryable=True)
    sha = hashlib.sha256(data).hexdigest()
    collection = req.metadata.collection or settings.collection
    path = await run_in_threadpool(_store_upload, _upload_dir(settings, who, sha), file_name, data)
    job_id = str(uuid.uuid4())
    # the id the job writes (derived from tenant and content), or the id this content already has
    stored = await run_in_threadpool(store.document_for_hash, settings, who, sha)
    document_id = stored or document_uuid(who, sha)
    record = req.model_dump(exclude_none=True)
    job = {
        "id": job_id,
        "tenant": who,
        "collection": collection,
        "file_name": file_name,
        "path": str(path),
        "sha256": sha,
        "request": record,
        "document_id": document_id,
        "bytes": len(data),
    }
    # counted again with the insert, atomically: concurrent uploads cannot pass the limit together
    if await run_in_threadpool(lambda: store.create_job(settings, job, limit=limit)) is not None:
        raise ApiError(429, "TOO_MANY_JOBS", "too many ingestion jobs running", retryable=True)
    return JSONResponse(
        {
            "status": "accepted",
            "document_id": document_id,
            "ingestion_job_id": job_id,
            "file_id": sha,
            "status_url": f"/ingest/status/{job_id}",
        },
        status_code=202,
    )


def _uuid(value: str, field: str) -> str:
    try:
        return str(uuid.UUID(value))
    except ValueError:
        raise invalid(field, "not a valid id", status=404) from None


async def _owned(
    request: Request,
    read: Callable[[Settings, str, str], dict[str, Any] | None],
    param: str,
    what: str,
    *,
    uuid_id: bool = True,
) -> dict[str, Any]:
    """The tenant's row named by the path parameter ``param``, read by ``read``.

    Args:
        request: The request (its tenant and path parameters).
        read: ``(settings, tenant, id)`` → the tenant's row, or None.
        param: The path parameter holding the id.
        what: What the row is, for the 404 message.
        uuid_id: The id is a UUID (404 naming ``param`` when it is not one).

    Raises:
        ApiError: 404 when the tenant has no such row (someone else's included).
    """
    key = request.path_params[param]
    if uuid_id:
        key = _uuid(key, param)
    row = await run_in_threadpool(read, services(request).settings, tenant(request), key)
    if row is None:
        raise ApiError(404, "NOT_FOUND", f"no {what} {key}")
    return row


async def ingest_status(request: Request) -> JSONResponse:
    """Status of one of the tenant's ingestion jobs."""
    job = await _owned(request, store.get_job, "job_id", "ingestion job")
    result = job.get("result") or {}
    return JSONResponse(
        {
            "ingestion_job_id": job["id"],
            "status": job["status"],
            "document_id": job["document_id"],
            "file_name": job["file_name"],
            "collection": job["collection"],
            "error": scrub(job["error"], services(request).settings) if job["error"] else None,
            "chunks": result.get("chunks"),
            "entities": result.get("entities"),
            "created_at": job["created_at"].isoformat(),
            "finished_at": job["finished_at"].isoformat() if job["finished_at"] else None,
        }
    )


def _context_of(section: dict[str, Any], full: bool) -> dict[str, Any]:
    headings = section.get("heading_path") or []
    text = section.get("text") or ""
    return {
        "document_id": section.get("document_id"),
        "parent_chunk_id": section.get("id"),
        "score": section.get("score"),
        "snippet": text if full else text[:SNIPPET_CHARS],
        "metadata": {
            "page": section.get("page"),
            "section_heading": headings[-1] if headings else None,
            "source": Path(section.get("source") or "").name or None,
            "title": section.get("title"),
        },
    }


async def query(request: Request) -> JSONResponse:
    """Answer from the tenant's corpus, or refuse with NO_SUITABLE_CONTEXT.

    The answer comes with its claims, each judged against the sentence it cites
    (:class:`~disputatio.api.schemas.QueryAnswer`).
    """
    who = tenant(request)
    svc = services(request)
    limits = svc.settings.server
    req = await read_json(request, QueryRequest)
    if len(req.query) > limits.max_query_chars:
        raise invalid("query", f"longer than {limits.max_query_chars} characters")
    if req.top_k is not None and req.top_k > limits.max_top_k:
        raise invalid("top_k", f"at most {limits.max_top_k}")
    # the key's tenant travels in the run's context alone (services.context sets it)
    inputs = {
        "question": req.query,
        "k": req.top_k,
        "collections": req.filters.collections or None,
        "tags": req.filters.tags or None,
        "language": req.language,
    }

    def run() -> dict[str, Any]:
        from disputatio.graphs.rag import graph

        t0 = time.perf_counter()
        out = dict(graph.invoke(inputs, context=svc.context("rag", who)))
        out.setdefault("timings_ms", {})["total"] = (time.perf_counter() - t0) * 1000
        return out

    with svc.queries.hold(who, limits.max_queries_per_tenant) as admitted:
        if not admitted:
            raise ApiError(
                429,
                "TOO_MANY_QUERIES",
                f"{limits.max_queries_per_tenant} queries of this tenant are being answered "
                "already (server.max_queries_per_tenant)",
                retryable=True,
            )
        result = await run_in_threadpool(run)
    sections = result.get("sections") or []
    trace = _trace(result, debug=req.debug)
    checked = _checked(result)
    if result.get("refused"):
        best = result.get("best_score") or 0.0
        empty = any(c.get("reason") == NOTHING_IN_SCOPE for c in checked["claims"])
        return JSONResponse(
            {
                "answer": None,
                **checked,
                "error": {
                    "code": NO_SUITABLE_CONTEXT,
                    "message": f"{NOTHING_IN_SCOPE} (POST /ingest)"
                    if empty
                    else "no section of the corpus is relevant enough to answer",
                    "max_rerank_score": best,
                },
                "trace": trace,
            }
        )
    cited = set(result.get("citations") or [])
    body: dict[str, Any] = {
        "answer": result.get("answer"),
        **checked,
        "citations": sorted(cited),
        "confidence": result.get("confidence"),
    }
    if req.return_context:
        body["contexts"] = [_context_of(s, full=req.debug) for s in sections]
    body["trace"] = trace
    return JSONResponse(body)


def _trace(result: dict[str, Any], *, debug: bool) -> dict[str, Any]:
    """A quick answer's ``trace``: scores, channels, timings; the model's own text on debug."""
    sections = result.get("sections") or []
    failed = result.get("failed_channels") or {}
    trace: dict[str, Any] = {
        "max_rerank_score": result.get("best_score"),
        "channels_used": sorted({c for s in sections for c in s.get("channels") or []}),
        "timings_ms": {k: round(v, 1) for k, v in (result.get("timings_ms") or {}).items()},
    }
    if failed:
        trace["failed_channels"] = failed
    if result.get("relevance") is not None:
        trace["relevance"] = result["relevance"]
    if debug:
        trace["usage"] = result.get("usage") or {}
        trace["invalid_citations"] = result.get("invalid_citations") or []
        if result.get("draft") is not None:
            trace["draft"] = result["draft"]  # the answerer's own text, before the check
        if result.get("repaired") is not None:
            trace["repaired"] = result["repaired"]  # its reply to the one repair request
    return trace


def _checked(result: dict[str, Any]) -> dict[str, Any]:
    """The claim check of a quick answer: ``claims``, ``grounded``, ``not_found``."""
    return {
        "claims": list(result.get("claims") or []),
        "grounded": bool(result.get("grounded", False)),
        "not_found": bool(result.get("not_found", bool(result.get("refused")))),
    }


async def documents(request: Request) -> JSONResponse:
    """The tenant's documents."""
    who = tenant(request)
    settings = services(request).settings
    rows = await run_in_threadpool(store.list_documents, settings, who, 200)
    return JSONResponse({"documents": [_plain(r, settings) for r in rows]})


async def document(request: Request) -> JSONResponse:
    """One of the tenant's documents with its text (404 for anyone else's)."""
    row = await _owned(request, store.get_document, "document_id", "document")
    return JSONResponse(_plain(row, services(request).settings))


async def section(request: Request) -> JSONResponse:
    """One of the tenant's parent sections: the full text behind a citation."""
    row = await _owned(request, store.get_parent_chunk, "chunk_id", "section", uuid_id=False)
    return JSONResponse(_plain(row, services(request).settings))


def _plain(row: dict[str, Any], settings: Settings) -> dict[str, Any]:
    """A row as JSON values, its server paths cut to file names (:func:`uploads.public`)."""
    plain = {k: v.isoformat() if hasattr(v, "isoformat") else v for k, v in row.items()}
    return dict(public(plain, settings))
