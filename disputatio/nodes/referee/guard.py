"""Error boundary of the referee's model nodes: retry what is transient, report the rest.

A model node runs its work through :func:`run_guarded`. A transient error (connection, timeout,
rate limit, 5xx) is re-raised while attempts remain, so the node's ``RetryPolicy`` (whose
``retry_on`` is :func:`is_retryable`) retries it with backoff; any other error, or a transient
one on the last attempt, becomes a typed :class:`~disputatio.state.referee.PhaseError` (the
seed's codes, with ``retryable``) in the state instead of an exception, so the run keeps its
completed phases. Rate limits get their own, smaller retry budget (``rate_limit_retries``).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

import httpx
from langgraph.errors import GraphBubbleUp
from langgraph.runtime import Runtime

from disputatio.errors import ConfigError, DisputatioError
from disputatio.models.accounting import usage_record
from disputatio.state.referee import ErrorCode, Phase, PhaseError

logger = logging.getLogger(__name__)

#: Exception class names of provider SDKs that mean "try again later".
_RETRYABLE_NAMES = frozenset(
    {
        "APIConnectionError",
        "APITimeoutError",
        "RateLimitError",
        "InternalServerError",
        "ServiceUnavailable",
        "ResourceExhausted",
        "DeadlineExceeded",
        "TooManyRequests",
    }
)
_RETRYABLE_STATUS = frozenset({408, 409, 425, 429, 500, 502, 503, 504})


def is_retryable(exc: BaseException) -> bool:
    """True for transient model/service errors: connection, timeout, rate limit, 5xx."""
    if isinstance(exc, GraphBubbleUp | DisputatioError):
        return False
    if isinstance(exc, ConnectionError | TimeoutError | httpx.TransportError):
        return True
    if isinstance(exc, httpx.HTTPStatusError):
        return exc.response.status_code in _RETRYABLE_STATUS
    status = getattr(exc, "status_code", None)
    if isinstance(status, int) and status in _RETRYABLE_STATUS:
        return True
    return any(cls.__name__ in _RETRYABLE_NAMES for cls in type(exc).__mro__)


_AUTH_NAMES = frozenset({"AuthenticationError", "PermissionDeniedError", "Unauthenticated"})
_RATE_NAMES = frozenset({"RateLimitError", "ResourceExhausted", "TooManyRequests"})
_BAD_REQUEST_NAMES = frozenset({"BadRequestError", "UnprocessableEntityError", "InvalidArgument"})


def _status(exc: BaseException) -> int | None:
    if isinstance(exc, httpx.HTTPStatusError):
        return exc.response.status_code
    status = getattr(exc, "status_code", None)
    return status if isinstance(status, int) else None


def _named(exc: BaseException, names: frozenset[str]) -> bool:
    return any(cls.__name__ in names for cls in type(exc).__mro__)


def is_rate_limit(exc: BaseException) -> bool:
    """True for a provider's rate limit (HTTP 429 or its SDK's rate-limit error)."""
    return _status(exc) == 429 or _named(exc, _RATE_NAMES)


def classify(exc: BaseException) -> tuple[ErrorCode, bool]:
    """The seed's error code of ``exc`` and whether retrying later may succeed.

    Missing key (a config error naming an ``API_KEY``) → ``API_KEY_MISSING``; 401/403 →
    ``API_KEY_INVALID``; 429 → ``RATE_LIMITED`` (retryable); 400/422 or another config error
    → ``INVALID_REQUEST``; transient errors → ``AGENT_FAILED`` (retryable); the rest →
    ``AGENT_FAILED``.
    """
    status = _status(exc)
    if isinstance(exc, ConfigError):
        if exc.code == "API_KEY_MISSING" or "API_KEY" in exc.message:
            return ErrorCode.API_KEY_MISSING, False
        return ErrorCode.INVALID_REQUEST, False
    if status in (401, 403) or _named(exc, _AUTH_NAMES):
        return ErrorCode.API_KEY_INVALID, False
    if is_rate_limit(exc):
        return ErrorCode.RATE_LIMITED, True
    if status in (400, 422) or _named(exc, _BAD_REQUEST_NAMES):
        return ErrorCode.INVALID_REQUEST, False
    return ErrorCode.AGENT_FAILED, is_retryable(exc)


def describe(exc: BaseException) -> str:
    """One line saying what went wrong."""
    if isinstance(exc, DisputatioError):
        return exc.message
    first = (str(exc).splitlines() or [""])[0][:200]
    return f"{type(exc).__name__}: {first}" if first else type(exc).__name__


def run_guarded(
    runtime: Runtime[Any] | None,
    phase: Phase,
    agent: str,
    work: Callable[[], dict[str, Any]],
    *,
    max_attempts: int,
    rate_limit_retries: int = 2,
    role: str | None = None,
) -> dict[str, Any]:
    """Announce the agent's turn, run ``work``, and turn its failure into ``{"errors": [...]}``.

    The turn's ``start`` event is emitted on every attempt; a failure is a ``PhaseError``
    unless it is retried.

    A rate limit is re-raised (so the node's ``RetryPolicy`` retries it with exponential
    backoff) for the first ``rate_limit_retries`` retries; another transient error while
    attempts remain of ``max_attempts``.

    Args:
        runtime: The node's runtime (gives the attempt number and the stream writer).
        phase: The phase the agent works in (recorded with the error).
        agent: Agent name, for the error and the progress events.
        work: Returns the node's state update.
        max_attempts: Attempts for transient errors other than rate limits.
        rate_limit_retries: Retries after a rate limit.
        role: Agent role; when given, a failure still reports one call and its latency (token
            counts are unknown then) in ``usage``.

    Returns:
        The work's update, or an ``errors`` (and ``usage``) update.

    Raises:
        Exception: A transient error while the retry policy has attempts left, and LangGraph's
            own control-flow exceptions (interrupts).
    """
    emit(runtime, {"event": "turn", "phase": phase, "agent": agent, "status": "start"})
    info = runtime.execution_info if runtime is not None else None
    attempt = info.node_attempt if info is not None else 1
    t0 = time.perf_counter()
    try:
        return work()
    except GraphBubbleUp:
        raise
    except Exception as exc:
        limit = rate_limit_retries + 1 if is_rate_limit(exc) else max_attempts
        if is_retryable(exc) and attempt < limit:
            logger.warning("%s: transient error on attempt %d, retrying: %s", agent, attempt, exc)
            raise
        code, retryable = classify(exc)
        # one line by default; the traceback only with ``disputatio -v`` (INFO), never on a
        # user's terminal for an error the run already reports as a PhaseError
        logger.warning("%s failed (%s): %s", agent, code, describe(exc))
        logger.info("%s failed; traceback:", agent, exc_info=exc)
        emit(runtime, {"event": "turn", "agent": agent, "status": "failed", "error": str(code)})
        error = PhaseError(
            code=code, message=describe(exc), agent=agent, phase=phase, retryable=retryable
        )
        update: dict[str, Any] = {"errors": [error.model_dump(mode="json")]}
        if role is not None:
            update["usage"] = usage_record(agent, role, None, time.perf_counter() - t0)
        return update


def search_warnings(agent: str, phase: Phase, limitations: list[str]) -> list[dict[str, Any]]:
    """``SEARCH_FAILED`` warnings (JSON) for the searches an agent had to do without."""
    return [
        PhaseError(
            code=ErrorCode.SEARCH_FAILED, message=line, agent=agent, phase=phase, retryable=True
        ).model_dump(mode="json")
        for line in limitations
    ]


def emit(runtime: Runtime[Any] | None, event: dict[str, Any]) -> None:
    """Write a custom progress event to the stream (a no-op outside a streamed run)."""
    if runtime is not None:
        runtime.stream_writer(event)
