"""The Starlette app: every route, the page, and the embedded queue worker's lifecycle.

``app`` is what ``langgraph.json`` mounts (``"http": {"app": "./disputatio/api/app.py:app"}``)
and what ``disputatio serve`` runs; :func:`create_app` builds one with injected services
(tests pass scripted models).

Routes (all but ``/``, ``/static``, ``/livez`` and ``/metrics`` need an API key; errors are
``{"error": {...}}``)::

    GET  /livez                   GET /readyz (= GET /health)       GET /metrics
    POST /ingest                  GET /ingest/status/{job_id}
    POST /query
    GET  /documents               GET /documents/{document_id}     GET /sections/{chunk_id}
    POST /debate/start            GET /debate/cases                GET /debate/protocols
    GET  /debate/{id}             GET /debate/{id}/stream (SSE, Last-Event-ID)
    GET  /debate/{id}/graph       GET /debate/{id}/verdict         GET /debate/{id}/ledger
    POST /debate/{id}/clarify     POST /debate/{id}/cancel
    GET  /jobs (?state=failed)    POST /jobs/{id}/retry
    GET  /sessions                GET /sessions/{id}               DELETE /sessions/{id}
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from disputatio.api import debates, jobs, metrics, probes, rag
from disputatio.api.errors import error_handlers
from disputatio.api.services import Services
from disputatio.api.worker import Worker
from disputatio.storage import queue

logger = logging.getLogger(__name__)

STATIC = Path(__file__).parent / "static"


async def page(_: Request) -> Response:
    """The web page (no key needed to load it; it asks for one)."""
    return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})


def create_app(services: Services | None = None) -> Starlette:
    """Build the app.

    Args:
        services: Settings and injection hooks (default: the process settings, real models).
    """
    routes = [
        Route("/", page, methods=["GET"]),
        Mount("/static", app=StaticFiles(directory=STATIC), name="static"),
        Route("/ingest", rag.ingest, methods=["POST"]),
        Route("/ingest/status/{job_id}", rag.ingest_status, methods=["GET"]),
        Route("/query", rag.query, methods=["POST"]),
        Route("/livez", probes.livez, methods=["GET"]),
        Route("/readyz", probes.readyz, methods=["GET"]),
        Route("/health", probes.readyz, methods=["GET"]),
        Route("/metrics", metrics.metrics, methods=["GET"]),
        Route("/documents", rag.documents, methods=["GET"]),
        Route("/documents/{document_id}", rag.document, methods=["GET"]),
        Route("/sections/{chunk_id}", rag.section, methods=["GET"]),
        Route("/debate/start", debates.start, methods=["POST"]),
        Route("/debate/cases", debates.cases, methods=["GET"]),
        Route("/debate/protocols", debates.protocols, methods=["GET"]),
        Route("/debate/{case_id}", debates.session, methods=["GET"]),
        Route("/debate/{case_id}/stream", debates.stream, methods=["GET"]),
        Route("/debate/{case_id}/graph", debates.graph, methods=["GET"]),
        Route("/debate/{case_id}/verdict", debates.verdict, methods=["GET"]),
        Route("/debate/{case_id}/ledger", debates.ledger, methods=["GET"]),
        Route("/debate/{case_id}/clarify", debates.clarify, methods=["POST"]),
        Route("/debate/{case_id}/cancel", debates.cancel, methods=["POST"]),
        Route("/jobs", jobs.list_jobs, methods=["GET"]),
        Route("/jobs/{job_id}/retry", jobs.retry, methods=["POST"]),
        Route("/sessions", debates.sessions, methods=["GET"]),
        Route("/sessions/{case_id}", debates.session, methods=["GET"]),
        Route("/sessions/{case_id}", debates.delete_session, methods=["DELETE"]),
    ]
    holder: dict[str, Services] = {}

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        svc = holder.get("services") or Services()
        app.state.services = svc
        await run_in_threadpool(queue.ensure_schema, svc.settings)
        prewarm = svc.settings.server.worker_prewarm  # its models load as it starts
        worker = Worker(svc, prewarm=prewarm) if svc.embedded_worker else None  # or --no-worker
        if worker is not None:
            await run_in_threadpool(worker.start)
        sampler = metrics.QueueSampler(svc.settings)  # /metrics of the LangGraph server too
        sampler.start()
        try:
            yield
        finally:
            sampler.stop()
            if worker is not None:
                await run_in_threadpool(worker.stop)

    if services is not None:
        holder["services"] = services
    # the middleware becomes the LangGraph server's when mounted there: it times its routes too
    app = Starlette(
        routes=routes,
        middleware=[Middleware(metrics.HttpMetrics)],
        exception_handlers=error_handlers(),
        lifespan=lifespan,
    )
    return app


app = create_app()
