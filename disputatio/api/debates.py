"""Routes of seeds 003/004: debates, their streams and results, and the tenant's sessions.

Debates: the protocols served, start, stream (SSE, resumable), graph, verdict, ledger,
clarification. Sessions: list, read, delete.
"""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import AsyncIterator
from importlib import resources
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse

from disputatio.api import store
from disputatio.api.errors import ApiError, invalid
from disputatio.api.http import read_json, services, tenant
from disputatio.api.schemas import Clarification, DebateStart, verdict_body
from disputatio.api.uploads import public
from disputatio.graphs import registry
from disputatio.settings import Settings


async def protocols(request: Request) -> JSONResponse:
    """The protocols ``POST /debate/start`` serves, in the registry's order (the page's choices).

    Each is ``{protocol, label, description, needs_question, needs_options, option_forms,
    graph}``: ``needs_question`` false means the request carries a ``case`` instead,
    ``option_forms`` the shapes of ``options`` it takes (``letters``: ``{letter: text}``,
    ``names``: a list), ``graph`` whether ``GET /debate/{id}/graph`` exports one.
    """
    tenant(request)
    return JSONResponse(
        {
            "protocols": [
                {
                    "protocol": name,
                    "label": spec.label or name,
                    "description": spec.description,
                    "needs_question": spec.needs_question,
                    "needs_options": spec.needs_options,
                    "option_forms": list(spec.option_forms),
                    "graph": spec.graph_export is not None,
                }
                for name, spec in registry.api_protocols().items()
            ]
        }
    )


def _validate_start(req: DebateStart, settings: Settings) -> dict[str, Any]:
    """Check what the protocol needs; return the request as stored.

    The common checks come first (a question and its length, answer options, as the protocol's
    registry entry asks), then the protocol's own (``GraphSpec.check``).
    """
    spec = registry.by_protocol(req.protocol)
    limit = settings.server.max_query_chars
    if spec.needs_question:
        if not req.question:
            raise invalid("question", f"the {req.protocol} protocol needs a question")
        if len(req.question) > limit:
            raise invalid("question", f"longer than {limit} characters")
    if spec.needs_options and not req.options:
        raise invalid("options", f"the {req.protocol} protocol needs answer options")
    try:
        return spec.check(req.model_dump(exclude={"protocol"}))
    except registry.InvalidRequest as exc:
        raise invalid(exc.field, exc.message) from None


async def start(request: Request) -> JSONResponse:
    """Start a debate; its moves stream from ``stream_url``."""
    who = tenant(request)
    settings = services(request).settings
    req = await read_json(request, DebateStart)
    stored = _validate_start(req, settings)
    case_id = str(uuid.uuid4())
    run = {
        "id": case_id,
        "tenant": who,
        "protocol": req.protocol,
        "question": stored["question"],
        "request": stored,
    }
    limit = settings.server.max_runs_per_tenant
    active = await run_in_threadpool(lambda: store.create_run(settings, run, limit=limit))
    if active is not None:
        raise ApiError(
            429,
            "TOO_MANY_RUNS",
            f"{active} debates already running for this tenant (limit {limit})",
            retryable=True,
            retry_after=30,  # a debate runs for minutes: asking again in 5 s is wasted
        )
    return JSONResponse(
        {
            "case_id": case_id,
            "protocol": req.protocol,
            "status": "queued",
            "stream_url": f"/debate/{case_id}/stream",
        },
        status_code=202,
    )


async def _owned(request: Request, key: str = "case_id") -> tuple[str, str]:
    """(tenant, case id) of a run the caller owns: 404 when missing, 403 when another's."""
    who = tenant(request)
    raw = request.path_params[key]
    try:
        case_id = str(uuid.UUID(raw))
    except ValueError:
        raise ApiError(404, "NOT_FOUND", f"no debate {raw}") from None
    owner = await run_in_threadpool(store.run_owner, services(request).settings, case_id)
    if owner is None:
        raise ApiError(404, "NOT_FOUND", f"no debate {case_id}")
    if owner != who:
        raise ApiError(403, "FORBIDDEN", "this debate belongs to another tenant")
    return who, case_id


def _sse(seq: int | None, event: str, data: Any) -> bytes:
    head = f"id: {seq}\n" if seq is not None else ""
    return f"{head}event: {event}\ndata: {json.dumps(public(data), default=str)}\n\n".encode()


async def stream(request: Request) -> StreamingResponse:
    """Server-sent events of a debate, replayed from ``Last-Event-ID`` (or ``?last_event_id``)."""
    _, case_id = await _owned(request)
    settings = services(request).settings
    raw = request.headers.get("last-event-id") or request.query_params.get("last_event_id") or "0"
    try:
        after = max(int(raw), 0)
    except ValueError:
        raise invalid("Last-Event-ID", "must be an integer event id", status=400) from None
    poll = settings.server.stream_poll_s
    budget = settings.server.stream_max_s

    async def events() -> AsyncIterator[bytes]:
        nonlocal after
        loop = asyncio.get_running_loop()
        deadline = loop.time() + budget
        idle = 0.0
        yield b"retry: 1000\n\n"
        while loop.time() < deadline:
            rows = await run_in_threadpool(store.events_after, settings, case_id, after)
            for row in rows:
                after = row["seq"]
                yield _sse(row["seq"], row["type"], row["data"])
            if rows:
                idle = 0.0
                continue
            status = await run_in_threadpool(store.run_status, settings, case_id)
            if status is None or status in store.TERMINAL:
                # events are written before the status: one last read sends any written since
                for row in await run_in_threadpool(store.events_after, settings, case_id, after):
                    after = row["seq"]
                    yield _sse(row["seq"], row["type"], row["data"])
                yield _sse(None, "end", {"status": status})
                return
            if await request.is_disconnected():
                return
            await asyncio.sleep(poll)
            idle += poll
            if idle >= 15.0:
                idle = 0.0
                yield b": keep-alive\n\n"
        yield _sse(None, "timeout", {"last_event_id": after})

    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    return StreamingResponse(events(), media_type="text/event-stream", headers=headers)


def _session(row: dict[str, Any]) -> dict[str, Any]:
    plain = {k: v.isoformat() if hasattr(v, "isoformat") else v for k, v in row.items()}
    return dict(public(plain))  # citations' sources by file name, never a server path


async def session(request: Request) -> JSONResponse:
    """One of the tenant's debates: request, status, result."""
    who, case_id = await _owned(request)
    row = await run_in_threadpool(store.get_run, services(request).settings, who, case_id)
    assert row is not None
    return JSONResponse(_session(row))


async def sessions(request: Request) -> JSONResponse:
    """The tenant's debates, newest first."""
    who = tenant(request)
    settings = services(request).settings
    rows = await run_in_threadpool(
        store.list_runs, settings, who, settings.server.sessions_page_size
    )
    return JSONResponse({"sessions": [_session(r) for r in rows]})


async def delete_session(request: Request) -> Response:
    """Delete a finished debate, its events and checkpoints (the ledger is append-only: kept)."""
    who, case_id = await _owned(request)
    settings = services(request).settings
    status = await run_in_threadpool(store.run_status, settings, case_id)
    if status in ("queued", "running"):
        raise ApiError(409, "RUNNING", "a running debate cannot be deleted", retryable=True)

    def drop() -> None:
        from disputatio.storage.checkpoint import open_checkpointer

        with open_checkpointer(settings) as saver:
            saver.delete_thread(case_id)
        store.delete_run(settings, who, case_id)

    await run_in_threadpool(drop)
    return Response(status_code=204)


async def _result(request: Request) -> tuple[dict[str, Any], str]:
    who, case_id = await _owned(request)
    row = await run_in_threadpool(store.get_run, services(request).settings, who, case_id)
    assert row is not None
    return row, case_id


async def verdict(request: Request) -> JSONResponse:
    """The verdict of a finished debate (409 while it runs), with its answer's claims.

    The shape is :func:`~disputatio.api.schemas.verdict_body`'s; a run stored before answers
    carried claims answers ``claims: []``.
    """
    row, case_id = await _result(request)
    if row["status"] != "done":
        raise ApiError(
            409,
            "NOT_FINISHED",
            f"debate {case_id} is {row['status']}" + (f": {row['error']}" if row["error"] else ""),
            retryable=row["status"] != "failed",
        )
    return JSONResponse(public(verdict_body(row["protocol"], case_id, row["result"] or {})))


def _checkpoint_values(settings: Settings, case_id: str) -> dict[str, Any]:
    from disputatio.storage.checkpoint import open_checkpointer

    with open_checkpointer(settings) as saver:
        found = saver.get_tuple({"configurable": {"thread_id": case_id, "checkpoint_ns": ""}})
    return dict(found.checkpoint.get("channel_values", {})) if found else {}


async def graph(request: Request) -> Response:
    """The debate's graph: ``?format=jsonld`` (default) or ``graphml``; live while it runs.

    The protocol's registry entry exports it (``GraphSpec.graph_export``): 404 for a protocol
    that builds no graph, 409 while the graph is not built yet.
    """
    row, case_id = await _result(request)
    settings = services(request).settings
    fmt = request.query_params.get("format", "jsonld")
    if fmt not in ("jsonld", "graphml"):
        raise invalid("format", "jsonld or graphml")
    protocol = row["protocol"]
    spec = registry.find_protocol(protocol)
    export = spec.graph_exporter() if spec is not None else None
    if export is None:
        raise ApiError(404, "NO_GRAPH", f"the {protocol} protocol builds no graph")
    values = row["result"] or await run_in_threadpool(_checkpoint_values, settings, case_id)
    try:
        jsonld, graphml = export(values, case_id)
    except registry.GraphNotReady as exc:
        raise ApiError(409, "NOT_READY", str(exc), retryable=True) from None
    if fmt == "graphml":
        return Response(graphml, media_type="application/graphml+xml")
    return JSONResponse(jsonld, media_type="application/ld+json")


async def ledger(request: Request) -> JSONResponse:
    """The provenance ledger of the debate's thread, with its hash-chain verification.

    The chain is checked against its head table and, for an RDC debate, against the head its
    verdict anchored (``anchored``), which catches a rewrite that re-hashed the chain.
    """
    row, case_id = await _result(request)
    settings = services(request).settings
    result = row["result"] or {}
    thread = result.get("ledger_thread") or case_id
    head = (result.get("verdict") or {}).get("ledger") or {}
    anchor = (
        (int(head["entries"]) - 1, str(head["head_hash"]))
        if "entries" in head and "head_hash" in head
        else None
    )

    def read() -> dict[str, Any]:
        from disputatio.storage.ledger import PostgresLedger

        book = PostgresLedger(settings)
        entries = book.entries(thread)
        check = book.verify(thread, anchor=anchor) if entries else None
        return {
            "case_id": case_id,
            "thread": thread,
            "verified": bool(check.ok) if check else None,
            "anchored": anchor is not None,
            "reason": check.reason if check else "no entries",
            "entries": [_entry(e) for e in entries],
        }

    return JSONResponse(await run_in_threadpool(read))


def _entry(entry: Any) -> dict[str, Any]:
    fields = getattr(entry, "__dataclass_fields__", None)
    if fields:
        return {k: _json_safe(getattr(entry, k)) for k in fields}
    return dict(entry)


def _json_safe(value: Any) -> Any:
    return value.isoformat() if hasattr(value, "isoformat") else value


async def clarify(request: Request) -> JSONResponse:
    """Answer the clarification questions of an interrupted debate; the debate goes on."""
    who, case_id = await _owned(request)
    settings = services(request).settings
    req = await read_json(request, Clarification)
    row = await run_in_threadpool(store.get_run, settings, who, case_id)
    assert row is not None
    if row["status"] != "interrupted":
        raise ApiError(409, "NOT_WAITING", f"debate {case_id} is {row['status']}, not waiting")
    await run_in_threadpool(store.requeue_run, settings, case_id, who, req.answers)
    return JSONResponse({"case_id": case_id, "status": "queued"}, status_code=202)


async def cancel(request: Request) -> JSONResponse:
    """Cancel a queued or running debate: its task is dropped, or aborted at its next step.

    The moves made so far stay; the stream ends with a ``cancelled`` event. 409 when the debate
    has finished already.
    """
    _, case_id = await _owned(request)
    settings = services(request).settings
    if not await run_in_threadpool(store.cancel_run, settings, case_id):
        status = await run_in_threadpool(store.run_status, settings, case_id)
        raise ApiError(409, "FINISHED", f"debate {case_id} is {status}, nothing to cancel")
    return JSONResponse({"case_id": case_id, "status": "cancelled"}, status_code=202)


async def cases(request: Request) -> JSONResponse:
    """The sample CASE files shipped with the package (to start a debate over a CASE)."""
    tenant(request)

    def read() -> list[Any]:  # file reads in a worker thread, not on the event loop
        folder = resources.files("disputatio") / "data" / "cases"
        return [
            json.loads(p.read_text(encoding="utf-8"))
            for p in sorted(folder.iterdir(), key=lambda p: p.name)
            if p.name.endswith(".json")
        ]

    return JSONResponse({"cases": await run_in_threadpool(read)})
