"""POST /ingest {url}: the host is resolved once and the connection goes to the checked address.

No network: the resolver (``socket.getaddrinfo``) and the socket layer (httpcore's AnyIO
backend) are replaced by recorders, so a test sees what was resolved and where a connection
was attempted.
"""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Iterator
from typing import Any

import httpcore
import pytest

from disputatio.api import fetch as fetching
from disputatio.api.errors import ApiError

PUBLIC = "93.184.216.34"


class Network:
    """Answers lookups from a script (one answer per lookup) and refuses every connection."""

    def __init__(self, *answers: list[str]) -> None:
        self.answers = list(answers)
        self.lookups: list[str] = []
        self.connects: list[str] = []

    def getaddrinfo(self, host: Any, port: Any, *args: Any, **kwargs: Any) -> list[Any]:
        self.lookups.append(str(host))
        addresses = self.answers.pop(0) if len(self.answers) > 1 else self.answers[0]
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (a, port or 80)) for a in addresses]

    async def connect_tcp(self, host: str, port: int, **kwargs: Any) -> Any:
        self.connects.append(host)
        raise httpcore.ConnectError(f"no network in tests ({host}:{port})")


@pytest.fixture
def network(monkeypatch: pytest.MonkeyPatch) -> Iterator[Network]:
    net = Network([PUBLIC])
    monkeypatch.setattr(socket, "getaddrinfo", net.getaddrinfo)
    monkeypatch.setattr(httpcore.AnyIOBackend, "connect_tcp", net.connect_tcp)
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy"):
        monkeypatch.delenv(name, raising=False)
    yield net


def _fetch(url: str) -> ApiError:
    with pytest.raises(ApiError) as caught:
        asyncio.run(fetching.fetch(url, 1 << 20))
    return caught.value


def test_a_rebinding_name_is_connected_at_the_address_that_was_checked(network: Network) -> None:
    # first answer public, every later one loopback: a second lookup would reach the server
    network.answers = [[PUBLIC], ["127.0.0.1"]]
    error = _fetch("http://rebind.example/doc.md")
    assert network.lookups == ["rebind.example"]  # resolved once...
    assert network.connects == [PUBLIC]  # ...and connected to that address, not by name
    assert error.status == 422 and "cannot fetch it" in error.message


def test_a_host_with_any_private_address_is_refused_before_connecting(network: Network) -> None:
    network.answers = [[PUBLIC, "10.0.0.7"]]
    error = _fetch("https://mixed.example/doc.pdf")
    assert error.status == 422 and error.field == "url"
    assert "public addresses only" in error.message
    assert network.connects == []


def test_an_address_literal_is_checked_too(network: Network) -> None:
    network.answers = [["169.254.169.254"]]
    assert "public addresses only" in _fetch("http://169.254.169.254/latest/").message
    assert network.connects == []


def test_an_egress_proxy_gets_the_request_after_the_host_is_checked(
    network: Network, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HTTP_PROXY", "http://proxy.internal:3128")
    monkeypatch.setenv("NO_PROXY", "")
    network.answers = [["10.0.0.9"]]  # the URL's host: refused before anything is sent
    assert "public addresses only" in _fetch("http://intranet.example/x").message
    assert network.connects == [] and network.lookups == ["intranet.example"]
    network.answers = [[PUBLIC]]  # a public host goes to the proxy, by the proxy's name
    _fetch("http://public.example/x")
    assert network.connects == ["proxy.internal"]
