"""Liveness and readiness probes.

``GET /livez`` (no key) says the process serves HTTP: it reads no tenant data and calls no
database, model or embedding server, so an orchestrator may call it every second.

``GET /readyz`` and ``GET /health`` (the same route; ``/health`` is its older name) need a key
and check what the caller's requests need: the database, the chat model server, and each
retrieval channel on the caller's tenant, each with its latency. 200 when every check passes,
503 with ``Retry-After`` otherwise. A local model server recorded by a process that has died
since (a crash leaves its ``<home>/run/llm-*.json`` behind) is recognised as stale and reported
as not started, not as down (:func:`disputatio.models.local.running_server`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial
from typing import Any

import httpx
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse

from disputatio.api import store
from disputatio.api.http import services, tenant
from disputatio.api.services import Services
from disputatio.models import local
from disputatio.settings import Settings
from disputatio.storage import pg_info

#: Headers of every probe answer: a probe is never cached.
_NO_STORE = {"Cache-Control": "no-store"}


async def livez(_: Request) -> JSONResponse:
    """The process is up and answers HTTP (no key; no tenant data, database or model call)."""
    return JSONResponse({"ok": True, "status": "alive"}, headers=_NO_STORE)


def _timed(fn: Callable[[], Any]) -> dict[str, Any]:
    t0 = time.perf_counter()
    try:
        detail = fn()
        ok = True
    except Exception as exc:  # a health check reports its failure in the answer, never raises
        ok, detail = False, f"{type(exc).__name__}: {exc}".splitlines()[0][:300]
    return {"ok": ok, "detail": detail, "latency_ms": round((time.perf_counter() - t0) * 1000, 1)}


def _check_database(settings: Settings) -> str:
    with store.db(settings) as conn:
        return f"PostgreSQL {pg_info.server_version(conn)}"


def check_model(settings: Settings, injected: bool) -> str:
    """The chat model server's state in one line.

    Raises:
        httpx.HTTPError: A live local server does not answer ``/models`` well.
    """
    if injected:
        return "injected models (no model server)"
    name = settings.chat_model_for()
    if not name.startswith("local:"):
        return f"{name} (remote; not probed)"
    base = local.running_server(name.removeprefix("local:"), settings)
    if base is None:  # none recorded, or the stale record of a dead process
        return f"{name}: not started (starts on first use)"
    httpx.get(f"{base}/models", timeout=3.0).raise_for_status()
    return f"{name} serving at {base}"


def _channel_check(svc: Services, who: str, name: str) -> str:
    from disputatio.retrievers.funnel import run_channel

    ctx = svc.context("rag", who)
    funnel = ctx.funnel()
    plan = funnel.plan("health check")
    filters = ctx.retrieval_filters()
    hits = run_channel(name, funnel.backend, plan, funnel.embeddings, filters, funnel.config)
    return f"{len(hits)} hits"


async def readyz(request: Request) -> JSONResponse:
    """Database, model server and each retrieval channel of the tenant, with latencies."""
    who = tenant(request)
    svc = services(request)
    settings = svc.settings

    def run() -> dict[str, Any]:
        checks: dict[str, Any] = {"database": _timed(lambda: _check_database(settings))}
        checks["model_server"] = _timed(lambda: check_model(settings, svc.injected_models))
        channels: dict[str, Any] = {}
        if checks["database"]["ok"]:
            funnel = svc.context("rag", who).get_retriever()
            for name in funnel.config.channels:
                channels[name] = _timed(partial(_channel_check, svc, who, name))
        checks["channels"] = channels
        return checks

    checks = await run_in_threadpool(run)
    ok = (
        checks["database"]["ok"]
        and checks["model_server"]["ok"]
        and all(c["ok"] for c in checks["channels"].values())
    )
    headers = _NO_STORE if ok else {**_NO_STORE, "Retry-After": "5"}
    return JSONResponse(
        {"ok": ok, "tenant": who, **checks}, status_code=200 if ok else 503, headers=headers
    )
