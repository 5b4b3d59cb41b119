"""The JSON error shape of every route: ``{"error": {code, message, retryable, field?}}``.

Handlers raise :class:`ApiError`; :func:`error_handlers` turns it, a
:class:`~disputatio.errors.DisputatioError` and any unexpected exception into that shape, so a
client never sees a traceback.
"""

from __future__ import annotations

import logging
from typing import Any

from pydantic import ValidationError
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from disputatio.errors import DatabaseError, DisputatioError, ModelError

logger = logging.getLogger(__name__)

#: ``Retry-After`` (seconds) of a 429 or 503 that names none.
DEFAULT_RETRY_AFTER_S = 5


class ApiError(Exception):
    """An error answered with an HTTP status and the JSON error shape.

    Attributes:
        status: HTTP status code.
        code: Stable machine-readable code (``UNAUTHORIZED``, ``INVALID_FIELD``...).
        message: One line for a person.
        retryable: Whether the same request may succeed later.
        field: The offending request field, for validation errors.
        retry_after: Seconds a client should wait before trying again: sent as ``Retry-After``
            on every 429 and 503 (5 unless given), and on any other status that gives it.
    """

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        *,
        retryable: bool = False,
        field: str | None = None,
        retry_after: int | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.retryable = retryable
        self.field = field
        if retry_after is None and status in (429, 503):
            retry_after = DEFAULT_RETRY_AFTER_S
        self.retry_after = retry_after

    def response(self) -> JSONResponse:
        """The JSON response of this error."""
        body: dict[str, Any] = {
            "code": self.code,
            "message": self.message,
            "retryable": self.retryable,
        }
        if self.field is not None:
            body["field"] = self.field
        headers = {"Retry-After": str(self.retry_after)} if self.retry_after is not None else None
        return JSONResponse({"error": body}, status_code=self.status, headers=headers)


def invalid(field: str, message: str, *, status: int = 422) -> ApiError:
    """A validation error naming ``field``."""
    return ApiError(status, "INVALID_FIELD", f"{field}: {message}", field=field)


def from_validation(exc: ValidationError, prefix: str = "") -> ApiError:
    """The first pydantic error as an :class:`ApiError` naming its field."""
    first = exc.errors()[0]
    where = ".".join(str(p) for p in first.get("loc", ())) or "body"
    field = f"{prefix}{where}" if prefix else where
    return invalid(field, str(first.get("msg", "invalid")))


def from_disputatio(exc: DisputatioError) -> ApiError:
    """Map a library error: services down are 503 and retryable, the rest 400."""
    if isinstance(exc, DatabaseError | ModelError):
        return ApiError(503, exc.code.upper(), exc.message, retryable=True)
    return ApiError(400, exc.code.upper(), exc.message)


async def _api_error(_: Request, exc: Exception) -> Response:
    assert isinstance(exc, ApiError)
    return exc.response()


async def _disputatio_error(_: Request, exc: Exception) -> Response:
    assert isinstance(exc, DisputatioError)
    return from_disputatio(exc).response()


async def _http_error(_: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    code = {404: "NOT_FOUND", 405: "METHOD_NOT_ALLOWED"}.get(exc.status_code, "HTTP_ERROR")
    return ApiError(exc.status_code, code, str(exc.detail)).response()


async def _unexpected(request: Request, exc: Exception) -> Response:
    logger.exception("unexpected error on %s %s", request.method, request.url.path)
    message = f"internal error ({type(exc).__name__}); see the server log"
    return ApiError(500, "INTERNAL", message, retryable=True).response()


def error_handlers() -> dict[Any, Any]:
    """Exception handlers for ``Starlette(exception_handlers=...)``."""
    return {
        ApiError: _api_error,
        DisputatioError: _disputatio_error,
        HTTPException: _http_error,
        Exception: _unexpected,
    }
