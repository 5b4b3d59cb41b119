"""How processes share one local model server, and let go of it.

A ``local:`` model's server runs inside the process that started it (its host); other
processes find it through ``<home>/run/llm-<name>.json`` and send it their requests
(:func:`disputatio.models.local.ensure_server`). Two things keep that safe when the host exits
while another process is still working:

- the host withdraws the run file, then waits until its server has no request in flight
  (:func:`drain`, read from llama.cpp's ``/slots``) before it stops the server;
- a client's HTTP traffic goes through a :class:`Route`, which looks at the run file before
  each request (one ``stat``) and, when it has changed or a connection is refused, finds the
  server again, starting one of its own when none is left (:func:`http_clients`).

So the host's exit waits for the requests already sent to it, and every later request goes
to a live server.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING

import httpx

if TYPE_CHECKING:
    from disputatio.settings import Settings

logger = logging.getLogger(__name__)


def in_flight(base_url: str) -> int | None:
    """Requests the llama.cpp server at ``base_url`` is decoding now (its ``/slots``).

    Returns:
        The number of busy slots, or None when the server does not say (no ``/slots``).
    """
    try:
        slots = httpx.get(f"{base_url.removesuffix('/v1')}/slots", timeout=2.0).json()
        return sum(1 for slot in slots if slot.get("is_processing"))
    except (httpx.HTTPError, ValueError, AttributeError, TypeError):
        return None


def drain(base_url: str, timeout_s: float, *, idle_polls: int = 3, every_s: float = 0.2) -> bool:
    """Wait until the server at ``base_url`` has had no request in flight for a moment.

    A request queued while every slot is busy is not in ``/slots``; it takes a slot within
    milliseconds of one freeing, so the server counts as idle only after ``idle_polls`` idle
    polls in a row.

    Returns:
        True when the server went idle (or cannot tell), False after ``timeout_s``.
    """
    deadline = time.monotonic() + timeout_s
    idle, told = 0, False
    while True:
        busy = in_flight(base_url)
        if busy is None:
            return True
        idle = idle + 1 if busy == 0 else 0
        if idle >= idle_polls:
            return True
        if time.monotonic() >= deadline:
            return False
        if busy and not told:
            logger.warning(
                "waiting up to %.0fs for %d request(s) in flight on the local model server at %s "
                "(this process's or another's) before stopping it",
                max(0.0, deadline - time.monotonic()),
                busy,
                base_url,
            )
            told = True
        time.sleep(every_s)


def _stamp(path: Path) -> tuple[int, int, int] | None:
    """What identifies one version of a run file (None when there is none)."""
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_ino, st.st_mtime_ns, st.st_size)


class Route:
    """Where the local model server of ``name`` is now, for one process's clients.

    Args:
        name: The local model's name.
        settings: Settings (their ``home`` holds the run file).
        base_url: The server found when the model was built.
    """

    def __init__(self, name: str, settings: Settings, base_url: str) -> None:
        from disputatio.models.local import run_file

        self.name = name
        self.settings = settings
        self._file = run_file(settings, name)
        self._lock = threading.Lock()
        self._base = base_url
        self._seen = _stamp(self._file)

    def known(self) -> str | None:
        """The server's base URL when the run file is as last seen, else None (look again)."""
        return self._base if _stamp(self._file) == self._seen else None

    def find(self, failed: str | None = None) -> str:
        """Find the server again (may start one here); ``failed``: a base that refused us."""
        from disputatio.models.local import ensure_server

        with self._lock:
            if failed is not None and self._base != failed:
                return self._base  # another thread has already moved on
            if failed is None and _stamp(self._file) == self._seen:
                return self._base
            previous = self._base
            self._base = ensure_server(self.name, self.settings)
            self._seen = _stamp(self._file)
            if self._base != previous:
                logger.info("local model %s moved: %s -> %s", self.name, previous, self._base)
            return self._base


def _to(request: httpx.Request, base_url: str) -> httpx.Request:
    """``request`` sent to the server at ``base_url`` instead (same path, body and headers)."""
    target = httpx.URL(base_url)
    if (request.url.host, request.url.port) == (target.host, target.port):
        return request
    request.url = request.url.copy_with(scheme=target.scheme, host=target.host, port=target.port)
    request.headers["Host"] = request.url.netloc.decode("ascii")
    return request


class RouteTransport(httpx.BaseTransport):
    """Sends each request to the server its :class:`Route` names now; retries a refusal once."""

    def __init__(self, route: Route, inner: httpx.BaseTransport | None = None) -> None:
        self.route = route
        self._inner = inner or httpx.HTTPTransport()

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        """Send ``request``; when its server refuses the connection, to the one found next."""
        base = self.route.known() or self.route.find()
        try:
            return self._inner.handle_request(_to(request, base))
        except httpx.ConnectError:
            moved = self.route.find(failed=base)
            if moved == base:
                raise
            return self._inner.handle_request(_to(request, moved))

    def close(self) -> None:
        """Close the connections."""
        self._inner.close()


class AsyncRouteTransport(httpx.AsyncBaseTransport):
    """:class:`RouteTransport` for async clients (finding a server runs in a thread)."""

    def __init__(self, route: Route, inner: httpx.AsyncBaseTransport | None = None) -> None:
        self.route = route
        self._inner = inner or httpx.AsyncHTTPTransport()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        """Send ``request``; when its server refuses the connection, to the one found next."""
        base = self.route.known()
        if base is None:
            base = await asyncio.to_thread(self.route.find)
        try:
            return await self._inner.handle_async_request(_to(request, base))
        except httpx.ConnectError:
            moved = await asyncio.to_thread(self.route.find, base)
            if moved == base:
                raise
            return await self._inner.handle_async_request(_to(request, moved))

    async def aclose(self) -> None:
        """Close the connections."""
        await self._inner.aclose()


_clients: dict[tuple[str, str, int], tuple[httpx.Client, httpx.AsyncClient]] = {}
_clients_lock = threading.Lock()


def http_clients(
    name: str, settings: Settings, base_url: str
) -> tuple[httpx.Client, httpx.AsyncClient]:
    """The sync and async HTTP clients of ``local:<name>`` models, shared by the process.

    One :class:`Route` per model and home, so every model object of the process follows the
    server together and shares its connections.
    """
    key = (name, str(Path(settings.home).resolve()), os.getpid())  # a fork gets its own
    with _clients_lock:
        if key not in _clients:
            route = Route(name, settings, base_url)
            timeout = httpx.Timeout(settings.models.timeout_s)
            _clients[key] = (
                httpx.Client(transport=RouteTransport(route), timeout=timeout),
                httpx.AsyncClient(transport=AsyncRouteTransport(route), timeout=timeout),
            )
        return _clients[key]
