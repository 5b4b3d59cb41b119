"""API keys → tenants, for the custom routes and for the LangGraph server's own routes.

A key is never stored: ``settings.server.api_keys`` maps ``sha256(key)`` (hex) to a tenant.
Clients send the key as ``X-API-Key: KEY`` or ``Authorization: Bearer KEY``. The tenant always
comes from the key; a ``tenant`` in a request body or a graph input is overwritten.

:data:`auth` is the ``langgraph_sdk.Auth`` object named in ``langgraph.json``: under
``langgraph dev`` or LangGraph Platform it authenticates every request with the same keys, tags
threads, runs and crons with the caller's tenant and filters every read by it, and forces the
tenant of the graphs' inputs and contexts, so one tenant never sees another's threads or corpus.
"""

from __future__ import annotations

import hashlib
import hmac
from typing import Any
from uuid import UUID, uuid5

from langgraph_sdk import Auth
from starlette.requests import Request

from disputatio.api.errors import ApiError
from disputatio.settings import Settings, get_settings

#: Graphs whose runtime context carries the tenant (``AgentContext.tenant``).
TENANT_CONTEXT_GRAPHS = ("rag", "debate", "medrag_debate", "referee", "rdc")
#: Graphs refused over the LangGraph routes (``ingest`` reads server paths: use POST /ingest).
REFUSED_GRAPHS = ("ingest",)
#: The LangGraph server's namespace for the ids of the graphs' default assistants.
_NAMESPACE_GRAPH = UUID("6ba7b821-9dad-11d1-80b4-00c04fd430c8")


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


def _graph_ids(names: tuple[str, ...]) -> dict[str, str]:
    return {str(uuid5(_NAMESPACE_GRAPH, n)): n for n in names}


_CONTEXT_ASSISTANTS = _graph_ids(TENANT_CONTEXT_GRAPHS)
_REFUSED_ASSISTANTS = _graph_ids(REFUSED_GRAPHS)

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


@auth.on
async def scope_to_tenant(ctx: Auth.types.AuthContext, value: Any) -> dict[str, str]:
    """Tag what a tenant creates with its tenant and show it only what carries that tag."""
    tenant = _tenant(ctx)
    if isinstance(value, dict):
        metadata = value.get("metadata")
        if metadata is None and ctx.action in ("create", "create_run", "update"):
            value["metadata"] = metadata = {}
        if isinstance(metadata, dict):
            metadata["tenant"] = tenant
    return {"tenant": tenant}


@auth.on.assistants.read
async def read_assistant(ctx: Auth.types.AuthContext, value: Any) -> None:
    """The graphs' assistants are shared by every tenant (read-only)."""
    return None


@auth.on.assistants.search
async def search_assistants(ctx: Auth.types.AuthContext, value: Any) -> None:
    """Every tenant lists the graphs' assistants."""
    return None


@auth.on.threads.create_run
async def force_run_tenant(ctx: Auth.types.AuthContext, value: Any) -> dict[str, str]:
    """Runs read and write only the caller's tenant: input and context tenants are forced."""
    tenant = _tenant(ctx)
    assistant = str(value.get("assistant_id") or "")
    if assistant in _REFUSED_ASSISTANTS:
        raise Auth.exceptions.HTTPException(
            status_code=403, detail="the ingest graph is not served here: use POST /ingest"
        )
    kwargs = value.setdefault("kwargs", {})
    graph_input = kwargs.get("input")
    if isinstance(graph_input, dict) and _CONTEXT_ASSISTANTS.get(assistant) == "rag":
        graph_input["tenant"] = tenant
    if assistant in _CONTEXT_ASSISTANTS:
        context = kwargs.get("context")
        if not isinstance(context, dict):
            kwargs["context"] = context = {}
        context["tenant"] = tenant
    return await scope_to_tenant(ctx, value)


@auth.on.store()
async def scope_store(ctx: Auth.types.AuthContext, value: Any) -> None:
    """Store items live under the caller's tenant namespace."""
    namespace = tuple(value.get("namespace") or ())
    tenant = _tenant(ctx)
    if not namespace or namespace[0] != tenant:
        value["namespace"] = (tenant, *namespace)
