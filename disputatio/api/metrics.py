"""Prometheus metrics of the API, served at ``GET /metrics`` (no key: no tenant data).

What is measured:

* ``disputatio_http_request_duration_seconds{method, route}`` (histogram) and
  ``disputatio_http_requests_total{method, route, status}``: every request, labelled by its
  route *template* (``/debate/{case_id}/stream``, never the raw path, so the number of series
  stays bounded); a path no route matched is ``route="<unmatched>"``. A stream's latency is
  the time until its last byte.
* ``disputatio_queue_depth{state}``: ingestion jobs and debate runs per state, read from the
  database by :func:`queue_depth` (all servers share it: aggregate with ``max``, not ``sum``).
* ``disputatio_task_retries_total{task}``, ``disputatio_dead_letters_total{task}`` and
  ``disputatio_task_duration_seconds{task, outcome}``: fed by the task runner through
  :func:`task_retried`, :func:`task_dead_lettered` and :func:`task_finished`.

Everything is registered in ``prometheus_client``'s default registry. Standalone,
``GET /metrics`` refreshes the queue depth and renders that registry. Mounted in the LangGraph
server (``langgraph.json`` ``http.app``), ``/metrics`` is the server's own route (it cannot be
shadowed), and it renders the same default registry: these metrics appear there beside the
server's, the HTTP middleware sees the server's routes too (the app's middleware becomes the
server's), and :class:`QueueSampler` keeps the queue depth fresh without a request. A
standalone ``disputatio worker --metrics-port N`` serves its own process's metrics
(:func:`serve_worker_metrics`).
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

from prometheus_client import CONTENT_TYPE_LATEST, Counter, Gauge, Histogram, generate_latest
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from disputatio.api.http import services
from disputatio.settings import Settings
from disputatio.storage import queue

logger = logging.getLogger(__name__)

HTTP_LATENCY = Histogram(
    "disputatio_http_request_duration_seconds",
    "HTTP request latency by route template, until the response's last byte.",
    ["method", "route"],
)
HTTP_REQUESTS = Counter(
    "disputatio_http_requests", "HTTP requests by route template and status.",
    ["method", "route", "status"],
)  # fmt: skip
QUEUE_DEPTH = Gauge(
    "disputatio_queue_depth", "Ingestion jobs and debate runs per state.", ["state"]
)
TASK_RETRIES = Counter("disputatio_task_retries", "Task attempts scheduled again.", ["task"])
DEAD_LETTERS = Counter(
    "disputatio_dead_letters", "Tasks given up after their last attempt.", ["task"]
)
TASK_LATENCY = Histogram(
    "disputatio_task_duration_seconds", "Task run time by outcome.", ["task", "outcome"],
    buckets=(0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800, float("inf")),
)  # fmt: skip

#: Label of a request no route matched.
UNMATCHED = "<unmatched>"
#: Seconds between two reads of the queue depth by :class:`QueueSampler`.
SAMPLE_EVERY_S = 15.0

_seen_states: set[str] = set()
_seen_lock = threading.Lock()


# --- queue depth: THE place to switch to the task queue ---------------------------------------


def queue_depth(settings: Settings) -> dict[str, int]:
    """Queue jobs (ingestion jobs and debate runs) per state, across every server and worker.

    The single place that reads the queue's depth: the task queue's own counts
    (:func:`disputatio.storage.queue.queue_counts`: ``todo``, ``doing``, ``succeeded``,
    ``failed``, ``cancelled``, ``aborting``, ``aborted``).
    """
    return queue.queue_counts(settings)


def refresh_queue_depth(settings: Settings) -> dict[str, int]:
    """Read :func:`queue_depth` into the gauge (a state seen before and now empty reads 0)."""
    counts = queue_depth(settings)
    with _seen_lock:
        _seen_states.update(counts)
        for state in _seen_states:
            QUEUE_DEPTH.labels(state=state).set(counts.get(state, 0))
    return counts


class QueueSampler:
    """Refreshes the queue depth every ``every_s`` seconds in a daemon thread.

    Needed where ``/metrics`` is not ours to refresh on (the LangGraph server's route). A failed
    read is logged (once per run of failures) and tried again on the next tick.
    """

    def __init__(self, settings: Settings, every_s: float = SAMPLE_EVERY_S) -> None:
        self.settings = settings
        self.every_s = every_s
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Start sampling (the first read happens at once)."""
        self._thread = threading.Thread(target=self._loop, name="queue-metrics", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop sampling."""
        self._stop.set()

    def _loop(self) -> None:
        failing = False
        while True:
            try:
                refresh_queue_depth(self.settings)
                failing = False
            except Exception as exc:  # the database may be down for a while: report, retry
                if not failing:
                    logger.warning("cannot read the queue depth for metrics: %s", exc)
                failing = True
            if self._stop.wait(self.every_s):
                return


def serve_worker_metrics(port: int, host: str = "127.0.0.1") -> None:
    """Serve this process's metrics at ``http://host:port/metrics`` (a standalone worker).

    A ``disputatio worker`` counts its tasks' latency, retries and dead letters in its own
    process; this serves them for Prometheus to scrape, from a daemon thread for the life of the
    process. Start a :class:`QueueSampler` beside it for the queue depth.

    Raises:
        OSError: The port cannot be bound (in use, not permitted).
    """
    from prometheus_client import start_http_server

    start_http_server(port, addr=host)


# --- task runner hooks ----------------------------------------------------------------------


def task_retried(task: str) -> None:
    """Count one attempt of ``task`` (``ingest``, ``debate``) scheduled again."""
    TASK_RETRIES.labels(task=task).inc()


def task_dead_lettered(task: str) -> None:
    """Count one ``task`` given up after its last attempt."""
    DEAD_LETTERS.labels(task=task).inc()


def task_finished(task: str, outcome: str, seconds: float) -> None:
    """Record one run of ``task`` that ended with ``outcome`` (``succeeded``, ``failed``...)."""
    TASK_LATENCY.labels(task=task, outcome=outcome).observe(seconds)


# --- HTTP -----------------------------------------------------------------------------------


def route_template(scope: Scope) -> str:
    """The template of the route that served ``scope`` (set by Starlette's router)."""
    route = scope.get("route")
    path = getattr(route, "path", None)
    if not isinstance(path, str):
        return UNMATCHED
    return path or "/"


class HttpMetrics:
    """ASGI middleware timing every HTTP request by method and route template."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Time the request until its last byte, labelled once the router has matched it.

        The observation is made *before* the last byte is passed on, so a client that has read
        the whole response finds its request in ``/metrics`` (an outer middleware may still be
        running this one's call when the client already has the response).
        """
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        t0 = time.perf_counter()
        status = 500
        recorded = False

        def observe() -> None:
            nonlocal recorded
            if recorded:
                return
            recorded = True
            route = route_template(scope)
            method = str(scope.get("method", "GET"))
            HTTP_LATENCY.labels(method=method, route=route).observe(time.perf_counter() - t0)
            HTTP_REQUESTS.labels(method=method, route=route, status=str(status)).inc()

        async def record(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            elif message["type"] == "http.response.body" and not message.get("more_body", False):
                observe()
            await send(message)

        try:
            await self.app(scope, receive, record)
        finally:
            observe()  # no last byte: an error, a disconnect


async def metrics(request: Request) -> Response:
    """Every metric in the Prometheus text format (the queue depth read now)."""
    settings = services(request).settings
    try:
        await run_in_threadpool(refresh_queue_depth, settings)
    except Exception as exc:  # the other metrics still matter when the database is down
        logger.warning("cannot read the queue depth for metrics: %s", exc)
    body: Any = await run_in_threadpool(generate_latest)
    return Response(body, media_type=CONTENT_TYPE_LATEST, headers={"Cache-Control": "no-store"})
