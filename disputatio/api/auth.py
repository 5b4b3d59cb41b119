"""API keys → tenants, for the custom routes and for the LangGraph server's own routes.

A key is never stored: ``settings.server.api_keys`` maps ``sha256(key)`` (hex) to a tenant.
Clients send the key as ``X-API-Key: KEY`` or ``Authorization: Bearer KEY``. The tenant always
comes from the key: a ``tenant`` in a request body is ignored, one in a graph input dropped.

:data:`auth` is the ``langgraph_sdk.Auth`` object named in ``langgraph.json``: under
``langgraph dev`` or LangGraph Platform it authenticates every request with the same keys, tags
threads, runs and crons with the caller's tenant and filters every read by it, and forces the
tenant of the graphs' contexts, so one tenant never sees another's threads or corpus.

Assistants: the graphs' default assistants (``created_by: system``) are shared read-only; an
assistant a tenant creates is tagged with its tenant and seen and run by that tenant only. A run
on ANY assistant gets the key's tenant: the handler resolves the assistant's graph (the default
ones by their fixed ids, the others from the server's own store) and overwrites the tenant of
the graph's context, whatever the request body or the assistant's saved configuration says; a
``tenant`` in the run's input (which the ``rag`` graph's input once had) is still accepted and
dropped there, so no graph's state carries a tenant. The ingest graph is refused (it reads
server paths: use POST /ingest). Which graphs carry a tenant in their context, and which are
refused, is read from their entries in the graph registry (:mod:`disputatio.graphs.registry`).
"""

from __future__ import annotations

import hashlib
import hmac
import logging
from typing import Any
from uuid import UUID, uuid5

from langgraph_sdk import Auth
from starlette.requests import Request

from disputatio.api.errors import ApiError
from disputatio.graphs import registry
from disputatio.settings import Settings, get_settings

logger = logging.getLogger(__name__)

#: The LangGraph server's namespace for the ids of the graphs' default assistants.
_NAMESPACE_GRAPH = UUID("6ba7b821-9dad-11d1-80b4-00c04fd430c8")


def tenant_context_graphs() -> tuple[str, ...]:
    """Graphs whose runtime context carries the tenant (``AgentContext.tenant``)."""
    return tuple(s.name for s in registry.specs() if s.tenant_context)


def refused_graphs() -> tuple[str, ...]:
    """Graphs refused over the LangGraph routes (``ingest`` reads server paths: POST /ingest)."""
    return tuple(s.name for s in registry.specs() if not s.langgraph_runs)


def hash_key(key: str) -> str:
    """The hex sha256 of an API key (what ``server.api_keys`` stores)."""
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def tenant_for_key(key: str | None, settings: Settings | None = None) -> str | None:
    """The tenant of ``key``, or None when the key is missing or unknown."""
    if not key:
        return None
    settings = settings or get_settings()
    digest = hash_key(key.strip())
    for stored, tenant in settings.server.api_keys.items():
        if hmac.compare_digest(stored.lower().removeprefix("sha256:"), digest):
            return tenant
    return None


def key_from_headers(x_api_key: str | None, authorization: str | None) -> str | None:
    """The API key of a request: ``X-API-Key`` first, else a bearer token."""
    if x_api_key:
        return x_api_key
    if authorization and authorization.lower().startswith("bearer "):
        return authorization[7:].strip()
    return None


def request_tenant(request: Request, settings: Settings) -> str:
    """Authenticate a request of the custom routes and return its tenant.

    Raises:
        ApiError: 401 when the key is missing or unknown.
    """
    key = key_from_headers(request.headers.get("x-api-key"), request.headers.get("authorization"))
    if key is None:
        raise ApiError(401, "UNAUTHORIZED", "missing API key (send X-API-Key or a bearer token)")
    tenant = tenant_for_key(key, settings)
    if tenant is None:
        raise ApiError(401, "UNAUTHORIZED", "unknown API key")
    return tenant


def _default_assistants() -> dict[str, str]:
    """The ids of the served graphs' default assistants → their graphs."""
    return {str(uuid5(_NAMESPACE_GRAPH, n)): n for n in registry.langgraph_graphs()}


class _Unavailable(Exception):
    """The LangGraph server's store could not be read from an auth handler."""


async def stored(resource: str, item_id: str) -> dict[str, Any] | None:
    """A thread or assistant as the LangGraph server stores it, read past the auth handlers.

    Uses the server runtime's own store (``langgraph_runtime.ops``, the interface the in-memory
    runtime of ``langgraph dev`` and the Postgres runtime of the platform share), with the
    request's auth context cleared so the read neither recurses into these handlers nor is
    filtered by the caller's tenant.

    Args:
        resource: ``"threads"`` or ``"assistants"``.
        item_id: Its id.

    Returns:
        The stored row, or None when there is none.

    Raises:
        _Unavailable: Outside a LangGraph server, or when its store API changed.
    """
    try:
        from langgraph_api.utils import AuthContext
        from langgraph_runtime.database import connect
        from langgraph_runtime.ops import Assistants, Threads
    except Exception as exc:  # not inside a LangGraph server
        raise _Unavailable(f"{type(exc).__name__}: {exc}") from exc
    ops: Any = Threads if resource == "threads" else Assistants
    token = AuthContext.set(None)
    try:
        async with connect() as conn:
            async for row in await ops.get(conn, item_id):
                return dict(row)
        return None
    except Exception as exc:
        if getattr(exc, "status_code", None) == 404:
            return None
        raise _Unavailable(f"{type(exc).__name__}: {exc}") from exc
    finally:
        AuthContext.reset(token)


async def graph_of_assistant(assistant_id: str, tenant: str) -> str | None:
    """The graph of an assistant ``tenant`` may run (None when there is no such assistant).

    Raises:
        Auth.exceptions.HTTPException: 403 when the assistant is another tenant's, or when its
            graph cannot be resolved (fail closed).
    """
    defaults = _default_assistants()
    if assistant_id in defaults:
        return defaults[assistant_id]
    try:
        row = await stored("assistants", assistant_id)
    except _Unavailable as exc:
        logger.warning("cannot resolve the graph of assistant %s: %s", assistant_id, exc)
        raise Auth.exceptions.HTTPException(
            status_code=403, detail="cannot resolve this assistant's graph"
        ) from None
    if row is None:
        return None
    metadata = row.get("metadata") or {}
    if metadata.get("created_by") != "system" and metadata.get("tenant") != tenant:
        raise Auth.exceptions.HTTPException(
            status_code=403, detail="this assistant belongs to another tenant"
        )
    return str(row["graph_id"])


auth = Auth()


@auth.authenticate
async def authenticate(headers: dict[bytes, bytes]) -> Auth.types.MinimalUserDict:
    """Map the request's API key to its tenant (401 when missing or unknown)."""
    raw = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in headers.items()}
    tenant = tenant_for_key(key_from_headers(raw.get("x-api-key"), raw.get("authorization")))
    if tenant is None:
        raise Auth.exceptions.HTTPException(status_code=401, detail="missing or unknown API key")
    return {"identity": tenant, "permissions": []}


def _tenant(ctx: Auth.types.AuthContext) -> str:
    return str(ctx.user.identity)


async def deny_foreign_thread(value: Any, tenant: str) -> None:
    """403 when ``value`` names an existing thread of another tenant.

    Without this, the tenant filter alone would answer 404 (the server filters the thread
    away). Thread ids are random UUIDs, so the 403 tells another tenant nothing it could not
    already name. When the server's store cannot be read, the filter's 404 stands.

    Raises:
        Auth.exceptions.HTTPException: 403 on another tenant's thread.
    """
    thread_id = value.get("thread_id") if isinstance(value, dict) else None
    if not thread_id:
        return
    try:
        row = await stored("threads", str(thread_id))
    except _Unavailable as exc:
        logger.debug("thread %s: owner unknown (%s); the tenant filter applies", thread_id, exc)
        return
    if row is not None and (row.get("metadata") or {}).get("tenant") != tenant:
        raise Auth.exceptions.HTTPException(
            status_code=403, detail="this thread belongs to another tenant"
        )


@auth.on
async def scope_to_tenant(ctx: Auth.types.AuthContext, value: Any) -> dict[str, str]:
    """Tag what a tenant creates with its tenant and show it only what carries that tag.

    A request naming another tenant's thread (read, update, delete, a run on it) is a 403.
    """
    tenant = _tenant(ctx)
    if ctx.resource == "threads":
        await deny_foreign_thread(value, tenant)
    if isinstance(value, dict):
        metadata = value.get("metadata")
        if metadata is None and ctx.action in ("create", "create_run", "update"):
            value["metadata"] = metadata = {}
        if isinstance(metadata, dict):
            metadata["tenant"] = tenant
    return {"tenant": tenant}


def _visible_assistants(tenant: str) -> dict[str, Any]:
    return {"$or": [{"created_by": "system"}, {"tenant": tenant}]}


@auth.on.assistants.read
async def read_assistant(ctx: Auth.types.AuthContext, value: Any) -> dict[str, Any]:
    """The graphs' default assistants are shared; a tenant's own assistants are its alone."""
    return _visible_assistants(_tenant(ctx))


@auth.on.assistants.search
async def search_assistants(ctx: Auth.types.AuthContext, value: Any) -> dict[str, Any]:
    """Every tenant lists the graphs' default assistants and its own."""
    return _visible_assistants(_tenant(ctx))


def _refuse_graph(graph: str | None) -> None:
    if graph in refused_graphs():
        raise Auth.exceptions.HTTPException(
            status_code=403, detail=f"the {graph} graph is not served here: use POST /ingest"
        )


def _overwrite_tenant(value: Any, tenant: str) -> None:
    """Overwrite a ``tenant`` key of a dict (and of its ``configurable``) where there is one."""
    if isinstance(value, dict):
        if "tenant" in value:
            value["tenant"] = tenant
        _overwrite_tenant(value.get("configurable"), tenant)


async def _own_assistant(ctx: Auth.types.AuthContext, value: Any) -> dict[str, str]:
    _refuse_graph(value.get("graph_id"))
    tenant = _tenant(ctx)
    _overwrite_tenant(value.get("context"), tenant)
    _overwrite_tenant(value.get("config"), tenant)
    return await scope_to_tenant(ctx, value)


@auth.on.assistants.create
async def create_assistant(ctx: Auth.types.AuthContext, value: Any) -> dict[str, str]:
    """A tenant's assistant: tagged with its tenant; a saved tenant is overwritten with it."""
    return await _own_assistant(ctx, value)


@auth.on.assistants.update
async def update_assistant(ctx: Auth.types.AuthContext, value: Any) -> dict[str, str]:
    """Only the tenant's own assistants change (the default ones are read-only)."""
    return await _own_assistant(ctx, value)


@auth.on.threads.create_run
async def force_run_tenant(ctx: Auth.types.AuthContext, value: Any) -> dict[str, str]:
    """Runs on any assistant read and write only the caller's tenant.

    The assistant's graph is resolved (a user-created assistant included): the ingest graph is
    refused and the tenant of the graph's context is set. A ``tenant`` in the input (or in a
    ``command.update``) is accepted and dropped: the tenant travels in the context alone, and no
    graph's state carries one (older ``rag`` clients sent it in the input).
    """
    tenant = _tenant(ctx)
    graph = await graph_of_assistant(str(value.get("assistant_id") or ""), tenant)
    _refuse_graph(graph)
    kwargs = value.setdefault("kwargs", {})
    graph_input = kwargs.get("input")
    if isinstance(graph_input, dict):
        graph_input.pop("tenant", None)
    command = kwargs.get("command")
    if isinstance(command, dict) and isinstance(command.get("update"), dict):
        command["update"].pop("tenant", None)
    if graph in tenant_context_graphs():
        context = kwargs.get("context")
        if not isinstance(context, dict):
            kwargs["context"] = context = {}
        context["tenant"] = tenant
    _overwrite_tenant(kwargs.get("config"), tenant)
    return await scope_to_tenant(ctx, value)


@auth.on.store()
async def scope_store(ctx: Auth.types.AuthContext, value: Any) -> None:
    """Store items live under the caller's tenant namespace."""
    namespace = tuple(value.get("namespace") or ())
    tenant = _tenant(ctx)
    if not namespace or namespace[0] != tenant:
        value["namespace"] = (tenant, *namespace)
