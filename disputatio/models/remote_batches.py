"""Calling a remote model server at scale: batches, a concurrency cap and retries.

Remote embedding (``vllm:<model>@<url>``: vLLM, TEI, llama.cpp) and rerank
(``remote:<model>@<url>``) endpoints are called through a :class:`RemoteBatcher`: the inputs
are cut into batches of ``batch_size``, at most ``concurrency`` requests are in flight at once
for one endpoint object (whoever calls it, from however many threads), and each request is
retried with exponential backoff (tenacity) on what is worth retrying: timeouts, connection
errors, HTTP 429 and 5xx. Other 4xx answers fail at once. A request that fails after
``attempts`` tries raises :class:`~disputatio.errors.ModelError` naming the URL.

The knobs are settings (``models.remote_batch_size``, ``remote_concurrency``,
``remote_attempts``, ``remote_timeout_s``).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import httpx
from tenacity import (
    RetryError,
    Retrying,
    retry_if_exception,
    stop_after_attempt,
    wait_exponential,
)

from disputatio.errors import ModelError

T = TypeVar("T")
R = TypeVar("R")


def retryable(exc: BaseException) -> bool:
    """Whether a failed request is worth another try (timeouts, connection errors, 429, 5xx)."""
    if isinstance(exc, httpx.HTTPStatusError):
        status = exc.response.status_code
        return status == 429 or status >= 500
    return isinstance(exc, httpx.TransportError)  # timeouts, refused connections, resets


class RemoteBatcher:
    """POSTs JSON to one endpoint in batches, with a concurrency cap and retries.

    Args:
        url: Endpoint URL.
        what: What the endpoint is, for error messages (e.g. ``"reranker"``).
        headers: Extra request headers (e.g. ``Authorization``).
        batch_size: Items per request.
        concurrency: Requests in flight at once, over every caller of this object.
        attempts: Tries per request (1 = no retry).
        timeout_s: Timeout of one request.
        backoff_s: First wait between tries (doubles each time, at most 30 s).
        transport: httpx transport (tests pass an ``httpx.MockTransport``).
    """

    def __init__(
        self,
        url: str,
        what: str,
        *,
        headers: dict[str, str] | None = None,
        batch_size: int = 64,
        concurrency: int = 4,
        attempts: int = 3,
        timeout_s: float = 60.0,
        backoff_s: float = 0.2,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        if batch_size < 1 or concurrency < 1 or attempts < 1:
            raise ValueError("batch_size, concurrency and attempts must be at least 1")
        self.url = url
        self.what = what
        self.batch_size = batch_size
        self.concurrency = concurrency
        self.attempts = attempts
        self.backoff_s = backoff_s
        self._client = httpx.Client(headers=headers or {}, timeout=timeout_s, transport=transport)
        self._slots = threading.BoundedSemaphore(concurrency)
        self._pool: ThreadPoolExecutor | None = None
        self._pool_lock = threading.Lock()

    def post(self, body: dict[str, Any]) -> Any:
        """POST one JSON body (waiting for a free slot; retried); return the decoded answer.

        Raises:
            ModelError: If the request still fails after its attempts, or the answer is not JSON.
        """
        retrying = Retrying(
            stop=stop_after_attempt(self.attempts),
            wait=wait_exponential(multiplier=self.backoff_s, max=30),
            retry=retry_if_exception(retryable),
            reraise=False,
        )
        try:
            for attempt in retrying:
                with attempt, self._slots:
                    resp = self._client.post(self.url, json=body)
                    resp.raise_for_status()
                    return resp.json()
        except RetryError as exc:
            last = exc.last_attempt.exception()
            raise ModelError(
                f"{self.what} at {self.url} failed after {self.attempts} attempts: {last}"
            ) from last
        except (httpx.HTTPError, ValueError) as exc:
            raise ModelError(f"{self.what} at {self.url} failed: {exc}") from exc
        raise AssertionError("unreachable: tenacity either returns or raises")  # pragma: no cover

    def map(
        self,
        items: Sequence[T],
        body: Callable[[list[T]], dict[str, Any]],
        parse: Callable[[Any, list[T]], list[R]],
    ) -> list[R]:
        """Send ``items`` in batches (concurrently, up to the cap); results in input order.

        Args:
            items: Inputs (texts).
            body: Builds the request body of one batch.
            parse: Turns one batch's answer into one result per item of the batch.

        Raises:
            ModelError: If a batch fails after its attempts or its answer has the wrong length.
        """
        batches = [
            list(items[i : i + self.batch_size]) for i in range(0, len(items), self.batch_size)
        ]

        def run(batch: list[T]) -> list[R]:
            out = parse(self.post(body(batch)), batch)
            if len(out) != len(batch):
                raise ModelError(
                    f"{self.what} at {self.url} answered {len(out)} results for {len(batch)} inputs"
                )
            return out

        if len(batches) <= 1:
            return run(batches[0]) if batches else []
        results: list[R] = []
        for part in self._executor().map(run, batches):
            results.extend(part)
        return results

    def _executor(self) -> ThreadPoolExecutor:
        with self._pool_lock:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(
                    max_workers=self.concurrency, thread_name_prefix="remote-model"
                )
            return self._pool

    def close(self) -> None:
        """Close the HTTP client and the worker threads."""
        with self._pool_lock:
            if self._pool is not None:
                self._pool.shutdown(wait=False)
                self._pool = None
        self._client.close()
