"""Calling a remote model server at scale: batches, a concurrency cap and retries.

Remote embedding (``vllm:<model>@<url>``: vLLM, TEI, llama.cpp) and rerank
(``remote:<model>@<url>``) endpoints are called through a :class:`RemoteBatcher`: the inputs
are cut into batches of ``batch_size``, at most ``concurrency`` requests are in flight at once
for one endpoint object (whoever calls it, from however many threads), and each request is
retried with exponential backoff (tenacity) on what is worth retrying: timeouts, connection
errors, HTTP 429 and 5xx. Other 4xx answers fail at once. A request that fails after
``attempts`` tries raises :class:`~disputatio.errors.ModelError` naming the URL.
:class:`RemoteModel` is what both remote models share: the endpoint's URL, the bearer key and
the batcher.

The knobs are settings (``models.remote_batch_size``, ``remote_concurrency``,
``remote_attempts``, ``remote_timeout_s``).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, ClassVar, Self, TypedDict, TypeVar, Unpack

import httpx
from tenacity import (
    RetryError,
    Retrying,
    retry_if_exception,
    stop_after_attempt,
    wait_exponential,
)

from disputatio.errors import ModelError
from disputatio.settings import ModelSettings

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


class BatcherOptions(TypedDict, total=False):
    """The knobs of a :class:`RemoteBatcher` (its keyword arguments but ``headers``)."""

    batch_size: int
    concurrency: int
    attempts: int
    timeout_s: float
    backoff_s: float
    transport: httpx.BaseTransport | None


class RemoteModel:
    """A model served at ``<base_url><endpoint>``, called through a :class:`RemoteBatcher`.

    Subclasses name their ``endpoint`` (e.g. ``"/embeddings"``) and ``what`` (for messages).

    Args:
        base_url: Server root, e.g. ``http://127.0.0.1:8080/v1`` (``endpoint`` is appended).
        model: Model name sent with each request.
        api_key: Bearer token, if the server needs one.
        **options: The batcher's knobs (:class:`BatcherOptions`: ``batch_size``,
            ``concurrency``, ``attempts``, ``timeout_s``, ``backoff_s``, ``transport``).
    """

    endpoint: ClassVar[str]
    what: ClassVar[str]

    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        api_key: str | None = None,
        **options: Unpack[BatcherOptions],
    ) -> None:
        self.model = model
        self.url = base_url.rstrip("/") + self.endpoint
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else None
        self.batcher = RemoteBatcher(self.url, self.what, headers=headers, **options)

    @classmethod
    def from_target(cls, target: str, models: ModelSettings, key_env: str) -> Self | None:
        """The model named by ``<model>@<http(s) base_url>``, with the settings' remote knobs.

        Args:
            target: What follows the model string's ``provider:``.
            models: ``settings.models`` (``remote_batch_size``, ``remote_concurrency``,
                ``remote_attempts``, ``remote_timeout_s``).
            key_env: Environment variable holding the bearer token, if any.

        Returns:
            The model, or None when ``target`` is not of that form.
        """
        name, at, base_url = target.rpartition("@")
        if not at or not base_url.startswith(("http://", "https://")):
            return None
        return cls(
            base_url,
            name,
            api_key=os.environ.get(key_env),
            batch_size=models.remote_batch_size,
            concurrency=models.remote_concurrency,
            attempts=models.remote_attempts,
            timeout_s=models.remote_timeout_s,
        )
