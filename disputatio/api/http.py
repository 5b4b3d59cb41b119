"""Request plumbing shared by the routes: auth, size-limited bodies, JSON and pydantic parsing."""

from __future__ import annotations

import json
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError
from starlette.requests import Request

from disputatio.api.auth import request_tenant
from disputatio.api.errors import ApiError, from_validation
from disputatio.api.services import Services

M = TypeVar("M", bound=BaseModel)


def services(request: Request) -> Services:
    """The app's services."""
    svc: Services = request.app.state.services
    return svc


def tenant(request: Request) -> str:
    """The tenant of the request's API key (401 otherwise)."""
    return request_tenant(request, services(request).settings)


async def read_body(request: Request, limit: int) -> bytes:
    """The request body, refused with 413 past ``limit`` bytes (before reading it when known)."""
    declared = request.headers.get("content-length")
    if declared is not None:
        try:
            size = int(declared)
        except ValueError:
            raise ApiError(400, "BAD_REQUEST", "invalid Content-Length header") from None
        if size > limit:
            raise ApiError(413, "TOO_LARGE", f"request body of {size} bytes exceeds {limit}")
    chunks: list[bytes] = []
    total = 0
    async for chunk in request.stream():
        total += len(chunk)
        if total > limit:
            raise ApiError(413, "TOO_LARGE", f"request body exceeds {limit} bytes")
        chunks.append(chunk)
    return b"".join(chunks)


async def read_json(request: Request, model: type[M]) -> M:
    """Parse a JSON body into ``model``: 400 when malformed, 413 when too large, 422 invalid."""
    limit = services(request).settings.server.max_request_kb * 1024
    raw = await read_body(request, limit)
    try:
        data: Any = json.loads(raw or b"null")
    except (ValueError, UnicodeDecodeError) as exc:
        raise ApiError(400, "MALFORMED_JSON", f"the body is not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ApiError(422, "INVALID_FIELD", "body: expected a JSON object", field="body")
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise from_validation(exc) from None
