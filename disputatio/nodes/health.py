"""Nodes of the health-check graph: each check reports instead of raising."""

from __future__ import annotations

import time
from typing import Any

from langgraph.runtime import Runtime
from langgraph.types import Send

from disputatio.errors import DisputatioError
from disputatio.state.health import HealthContext, HealthState

KNOWN_CHECKS = ("database", "model")


def fan_out(state: HealthState) -> list[Send]:
    """Send one branch per requested check (unknown names are reported as failures)."""
    checks = state.get("checks") or ["database"]
    return [Send("run_check", {"checks": [name]}) for name in checks]


def run_check(state: HealthState, runtime: Runtime[HealthContext]) -> dict[str, Any]:
    """Run one check and append its result."""
    name = (state.get("checks") or ["?"])[0]
    t0 = time.monotonic()
    try:
        detail = _CHECKS[name](runtime.context or HealthContext())
        ok = True
    except KeyError:
        ok, detail = False, f"unknown check {name!r} (known: {', '.join(KNOWN_CHECKS)})"
    except DisputatioError as exc:
        ok, detail = False, exc.message
    result = {"check": name, "ok": ok, "detail": detail, "seconds": time.monotonic() - t0}
    return {"results": [result]}


def summarize(state: HealthState) -> dict[str, Any]:
    """Set ``ok`` from the results."""
    return {"ok": all(bool(r["ok"]) for r in state.get("results", []))}


def _check_database(_: HealthContext) -> str:
    from disputatio.storage import pg_info
    from disputatio.storage.db import connect

    with connect() as conn:
        server, vector = pg_info.versions(conn)
        where = f"{conn.info.host}:{conn.info.port}/{conn.info.dbname}"
    return f"{server.split(' on ')[0]}, pgvector {vector} at {where}"


def _check_model(context: HealthContext) -> str:
    from disputatio.models import get_chat_model

    reply = get_chat_model(context.model, max_tokens=8).invoke("Reply with the word: ok")
    return f"model answered {str(reply.content).strip()[:40]!r}"


_CHECKS = {"database": _check_database, "model": _check_model}
