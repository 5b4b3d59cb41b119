"""The Starlette app: every route, the page, and the engine's lifecycle.

``app`` is what ``langgraph.json`` mounts (``"http": {"app": "./disputatio/api/app.py:app"}``)
and what ``disputatio serve`` runs; :func:`create_app` builds one with injected services
(tests pass scripted models).

Routes (all but ``/`` and ``/static`` need an API key; errors are ``{"error": {...}}``)::

    POST /ingest                  GET /ingest/status/{job_id}
    POST /query                   GET /health
    GET  /documents               GET /documents/{document_id}     GET /sections/{chunk_id}
    POST /debate/start            GET /debate/cases
    GET  /debate/{id}             GET /debate/{id}/stream (SSE, Last-Event-ID)
    GET  /debate/{id}/graph       GET /debate/{id}/verdict         GET /debate/{id}/ledger
    POST /debate/{id}/clarify
    GET  /sessions                GET /sessions/{id}               DELETE /sessions/{id}
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from disputatio.api import debates, rag
from disputatio.api.errors import error_handlers
from disputatio.api.runs import Engine
from disputatio.api.services import Services

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
        Route("/health", rag.health, methods=["GET"]),
        Route("/documents", rag.documents, methods=["GET"]),
        Route("/documents/{document_id}", rag.document, methods=["GET"]),
        Route("/sections/{chunk_id}", rag.section, methods=["GET"]),
        Route("/debate/start", debates.start, methods=["POST"]),
        Route("/debate/cases", debates.cases, methods=["GET"]),
        Route("/debate/{case_id}", debates.session, methods=["GET"]),
        Route("/debate/{case_id}/stream", debates.stream, methods=["GET"]),
        Route("/debate/{case_id}/graph", debates.graph, methods=["GET"]),
        Route("/debate/{case_id}/verdict", debates.verdict, methods=["GET"]),
        Route("/debate/{case_id}/ledger", debates.ledger, methods=["GET"]),
        Route("/debate/{case_id}/clarify", debates.clarify, methods=["POST"]),
        Route("/sessions", debates.sessions, methods=["GET"]),
        Route("/sessions/{case_id}", debates.session, methods=["GET"]),
        Route("/sessions/{case_id}", debates.delete_session, methods=["DELETE"]),
    ]
    holder: dict[str, Services] = {}

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        svc = holder.get("services") or Services()
        app.state.services = svc
        engine = Engine(svc)
        app.state.engine = engine
        await run_in_threadpool(engine.start)
        try:
            yield
        finally:
            engine.stop()

    if services is not None:
        holder["services"] = services
    app = Starlette(routes=routes, exception_handlers=error_handlers(), lifespan=lifespan)
    return app


app = create_app()
