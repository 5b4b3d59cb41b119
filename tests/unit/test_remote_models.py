"""Remote embedding and rerank servers at scale: batching, the concurrency cap and retries.

A scripted endpoint (``httpx.MockTransport``) answers in the OpenAI ``/embeddings`` and the
``/rerank`` shapes and can be told to fail, stall or answer slowly.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable

import httpx
import pytest

from disputatio.errors import ModelError
from disputatio.models.embeddings import RemoteEmbeddings, get_embeddings
from disputatio.models.rerank import RemoteReranker, get_reranker
from disputatio.settings import load_settings


def vector_of(text: str) -> list[float]:
    """A vector that identifies its text (so order mistakes show)."""
    return [float(len(text)), float(sum(map(ord, text)) % 997)]


class Endpoint:
    """A scripted server: records requests, tracks requests in flight, fails on demand.

    Args:
        fail: Called with the request number (1-based); returns a status code to answer
            instead of success, an exception to raise, or None to answer normally.
        delay_s: Time each successful answer takes.
    """

    def __init__(
        self,
        fail: Callable[[int], int | Exception | None] = lambda n: None,
        delay_s: float = 0.0,
    ) -> None:
        self.fail = fail
        self.delay_s = delay_s
        self.bodies: list[dict[str, object]] = []
        self.in_flight = 0
        self.max_in_flight = 0
        self._lock = threading.Lock()

    def __call__(self, request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        with self._lock:
            self.bodies.append(body)
            number = len(self.bodies)
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            outcome = self.fail(number)
            if isinstance(outcome, Exception):
                raise outcome
            if outcome is not None:
                return httpx.Response(outcome, json={"error": "scripted"})
            time.sleep(self.delay_s)
            if request.url.path.endswith("/embeddings"):
                data = [
                    {"index": i, "embedding": vector_of(t)} for i, t in enumerate(body["input"])
                ]
                return httpx.Response(200, json={"data": data[::-1]})  # any order
            scores = [{"index": i, "relevance_score": len(d)} for i, d in enumerate(body["texts"])]
            return httpx.Response(200, json={"results": scores[::-1]})
        finally:
            with self._lock:
                self.in_flight -= 1

    @property
    def requests(self) -> int:
        """Requests received (failed ones included)."""
        return len(self.bodies)


def embedder(
    endpoint: Endpoint, *, batch_size: int = 64, concurrency: int = 4, attempts: int = 3
) -> RemoteEmbeddings:
    """A :class:`RemoteEmbeddings` on the scripted endpoint (no backoff wait)."""
    return RemoteEmbeddings(
        "http://tei.test/v1",
        "m",
        batch_size=batch_size,
        concurrency=concurrency,
        attempts=attempts,
        backoff_s=0.0,
        transport=httpx.MockTransport(endpoint),
    )


TEXTS = [f"passage number {i} " + "x" * i for i in range(10)]


def test_embeddings_are_sent_in_batches_and_come_back_in_input_order() -> None:
    endpoint = Endpoint()
    vectors = embedder(endpoint, batch_size=3, concurrency=2).embed_documents(TEXTS)
    assert vectors == [vector_of(t) for t in TEXTS]
    sizes = sorted(len(b["input"]) for b in endpoint.bodies)  # type: ignore[arg-type]
    assert sizes == [1, 3, 3, 3]
    assert all(b["model"] == "m" for b in endpoint.bodies)


def test_requests_in_flight_never_exceed_the_cap_across_callers() -> None:
    endpoint = Endpoint(delay_s=0.03)
    model = embedder(endpoint, batch_size=1, concurrency=3)
    outputs: list[list[list[float]]] = []
    callers = [
        threading.Thread(target=lambda: outputs.append(model.embed_documents(TEXTS)))
        for _ in range(3)
    ]
    for caller in callers:
        caller.start()
    for caller in callers:
        caller.join()
    assert endpoint.requests == 3 * len(TEXTS)
    assert endpoint.max_in_flight == 3  # the cap is used, and never passed
    assert all(out == [vector_of(t) for t in TEXTS] for out in outputs)


@pytest.mark.parametrize(
    "failure",
    [503, 502, 429, httpx.ReadTimeout("stalled"), httpx.ConnectError("refused")],
    ids=["503", "502", "429", "timeout", "connect"],
)
def test_transient_failures_are_retried(failure: int | Exception) -> None:
    endpoint = Endpoint(fail=lambda n: failure if n <= 2 else None)
    vectors = embedder(endpoint, batch_size=20, attempts=3).embed_documents(TEXTS)
    assert vectors == [vector_of(t) for t in TEXTS]
    assert endpoint.requests == 3


def test_a_request_failing_every_attempt_is_a_model_error() -> None:
    endpoint = Endpoint(fail=lambda n: 500)
    with pytest.raises(ModelError, match="after 4 attempts"):
        embedder(endpoint, attempts=4).embed_documents(TEXTS)
    assert endpoint.requests == 4


def test_client_errors_are_not_retried() -> None:
    endpoint = Endpoint(fail=lambda n: 400)
    with pytest.raises(ModelError, match="embedding server"):
        embedder(endpoint, attempts=5).embed_documents(TEXTS)
    assert endpoint.requests == 1


def test_rerank_batches_keep_each_score_with_its_passage() -> None:
    endpoint = Endpoint(fail=lambda n: 503 if n == 1 else None)
    reranker = RemoteReranker(
        "http://rerank.test/v1",
        "bge",
        batch_size=4,
        concurrency=2,
        backoff_s=0.0,
        transport=httpx.MockTransport(endpoint),
    )
    scores = reranker.score("q", TEXTS)
    # the server scores a passage by its length (a logit, squashed to [0, 1] by a sigmoid)
    assert scores == pytest.approx([1 / (1 + pow(2.718281828459045, -len(t))) for t in TEXTS])
    assert endpoint.requests == 4  # 3 batches, one of them tried twice
    assert all(b["query"] == "q" and len(b["texts"]) <= 4 for b in endpoint.bodies)  # type: ignore[arg-type]


def test_settings_reach_the_remote_clients() -> None:
    settings = load_settings(
        models={
            "embeddings": "vllm:bge@http://127.0.0.1:9/v1",
            "reranker": "remote:bge@http://127.0.0.1:9/v1",
            "remote_batch_size": 7,
            "remote_concurrency": 5,
            "remote_attempts": 2,
        }
    )
    model = get_embeddings(settings=settings)
    reranker = get_reranker(settings=settings)
    assert isinstance(model, RemoteEmbeddings) and isinstance(reranker, RemoteReranker)
    for batcher in (model.batcher, reranker.batcher):
        assert (batcher.batch_size, batcher.concurrency, batcher.attempts) == (7, 5, 2)
