"""Fetching a document by URL for ``POST /ingest``: public addresses only, checked on connect.

A URL's host is resolved once, by the transport's network backend (:class:`PublicOnlyBackend`),
which refuses a host with any loopback, private or reserved address and connects to an address
it checked (TLS still verifies the certificate against the host name). So a name that answers a
public address to a check and a private one to the connection (DNS rebinding) cannot reach the
server's own network, and every redirect hop is checked the same way.

With an egress proxy configured for the URL (``HTTPS_PROXY``... and not ``NO_PROXY``), the proxy
resolves the name and connects: the host is then checked before each request only (best effort;
the proxy's own policy decides). ``server.ingest_private_urls`` turns the check off.
"""

from __future__ import annotations

import asyncio
import ipaddress
import urllib.request
from collections.abc import Iterable
from typing import Any

import httpcore
import httpx

from disputatio.api.errors import ApiError, invalid

#: Seconds one fetch may take to connect, to answer, and between chunks.
FETCH_TIMEOUT_S = 30.0


def is_public(address: str) -> bool:
    """Whether an IP address is a public (global unicast) one."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_global and not ip.is_multicast


async def public_addresses(host: str, port: int) -> list[str]:
    """The addresses of ``host``, all of them public, or a 422 naming the field ``url``.

    Raises:
        ApiError: If the host does not resolve or any of its addresses is not public.
    """
    try:
        infos = await asyncio.get_running_loop().getaddrinfo(host, port)
    except OSError:
        raise invalid("url", f"cannot resolve host {host!r}") from None
    addresses = list(dict.fromkeys(str(info[4][0]) for info in infos))
    if not addresses or not all(is_public(a) for a in addresses):
        raise invalid(
            "url",
            f"host {host!r} is a loopback, private or reserved address; this server fetches "
            "public addresses only (server.ingest_private_urls allows others)",
        )
    return addresses


class PublicOnlyBackend(httpcore.AsyncNetworkBackend):
    """A network backend that resolves hosts itself and connects to checked addresses only."""

    def __init__(self, inner: httpcore.AsyncNetworkBackend | None = None) -> None:
        self._inner = inner or httpcore.AnyIOBackend()

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        """Connect to the first of ``host``'s (public) addresses that answers."""
        error: Exception | None = None
        for address in await public_addresses(host, port):
            try:
                return await self._inner.connect_tcp(
                    address,
                    port,
                    timeout=timeout,
                    local_address=local_address,
                    socket_options=socket_options,
                )
            except (httpcore.ConnectError, httpcore.ConnectTimeout) as exc:
                error = exc
        assert error is not None  # public_addresses returns at least one address
        raise error

    async def connect_unix_socket(
        self, path: str, timeout: float | None = None, socket_options: Iterable[Any] | None = None
    ) -> httpcore.AsyncNetworkStream:
        """Refused: a URL never names a socket file."""
        raise httpcore.ConnectError("unix sockets are not fetched")

    async def sleep(self, seconds: float) -> None:
        """Sleep (used by httpcore's retries)."""
        await self._inner.sleep(seconds)


def public_only_transport() -> httpx.AsyncHTTPTransport:
    """An httpx transport whose connections go through :class:`PublicOnlyBackend`."""
    transport = httpx.AsyncHTTPTransport(trust_env=False)
    # httpx builds its pool without a way to pass a network backend: replace it (httpx is pinned;
    # tests/api/test_fetch.py fails if this stops routing connections through the backend)
    transport._pool = httpcore.AsyncConnectionPool(
        ssl_context=httpx.create_ssl_context(), network_backend=PublicOnlyBackend()
    )
    return transport


def _uses_proxy(url: httpx.URL) -> bool:
    """Whether the environment sends ``url`` through an egress proxy."""
    proxies = urllib.request.getproxies()
    if not (proxies.get(url.scheme) or proxies.get("all")):
        return False
    return not urllib.request.proxy_bypass(url.host)


async def _check_host(request: httpx.Request) -> None:
    """Refuse a request or redirect to a non-public host before it is sent (an httpx hook)."""
    await public_addresses(request.url.host, request.url.port or 0)


def _client(url: str, *, allow_private: bool) -> httpx.AsyncClient:
    if allow_private:
        return httpx.AsyncClient(timeout=FETCH_TIMEOUT_S, follow_redirects=True)
    if _uses_proxy(httpx.URL(url)):
        hooks = {"request": [_check_host]}
        return httpx.AsyncClient(timeout=FETCH_TIMEOUT_S, follow_redirects=True, event_hooks=hooks)
    return httpx.AsyncClient(
        timeout=FETCH_TIMEOUT_S, follow_redirects=True, transport=public_only_transport()
    )


async def fetch(url: str, limit: int, *, allow_private: bool = False) -> bytes:
    """The body at ``url`` (at most ``limit`` bytes), fetched from public addresses only.

    Raises:
        ApiError: 422 for a URL that is not http(s), resolves to a non-public address or cannot
            be fetched (field ``url``); 413 past ``limit``.
    """
    if not url.startswith(("http://", "https://")):
        raise invalid("url", "only http:// and https:// URLs are fetched")
    chunks: list[bytes] = []
    total = 0
    try:
        async with (
            _client(url, allow_private=allow_private) as client,
            client.stream("GET", url) as resp,
        ):
            if resp.status_code >= 400:
                raise invalid("url", f"fetching it answered HTTP {resp.status_code}")
            async for chunk in resp.aiter_bytes():
                total += len(chunk)
                if total > limit:
                    raise ApiError(413, "TOO_LARGE", f"the document at url exceeds {limit} bytes")
                chunks.append(chunk)
    except httpx.HTTPError as exc:
        raise invalid("url", f"cannot fetch it ({type(exc).__name__})") from None
    return b"".join(chunks)
