"""A local model server shared by processes: the host lets go safely, clients follow it.

No model: loopback servers that answer like llama.cpp (``/v1/models``, ``/slots``,
``/v1/chat/completions``) stand in for it, and the run file is written as another host would.
"""

from __future__ import annotations

import asyncio
import json
import os
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import pytest

from disputatio.models import get_chat_model, local
from disputatio.models.local_handoff import (
    AsyncRouteTransport,
    Route,
    RouteTransport,
    drain,
    in_flight,
)
from disputatio.settings import Settings

MODEL = "qwen2.5-coder-0.5b"


class FakeLlama:
    """A loopback server answering like llama.cpp serving ``MODEL``.

    Attributes:
        busy: ``/slots`` reports this many slots processing (a list: one value per poll,
            the last one repeated).
        asked: The chat requests it received (their JSON bodies).
        polls: ``/slots`` requests received.
    """

    def __init__(self, reply: str) -> None:
        self.busy: list[int] = [0]
        self.asked: list[dict[str, Any]] = []
        self.polls = 0
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def _send(self, status: int, payload: Any) -> None:
                body = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_GET(self) -> None:
                if self.path == "/v1/models":
                    self._send(200, {"data": [{"id": MODEL, "aliases": []}]})
                elif self.path == "/slots":
                    n = fake.busy[min(fake.polls, len(fake.busy) - 1)]
                    fake.polls += 1
                    self._send(200, [{"id": i, "is_processing": i < n} for i in range(2)])
                else:
                    self._send(404, {"error": "not found"})

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", 0))
                fake.asked.append(json.loads(self.rfile.read(length)))
                self._send(
                    200,
                    {
                        "id": "x",
                        "object": "chat.completion",
                        "created": 0,
                        "model": MODEL,
                        "choices": [
                            {
                                "index": 0,
                                "message": {"role": "assistant", "content": reply},
                                "finish_reason": "stop",
                            }
                        ],
                        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
                    },
                )

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def llamas() -> Iterator[tuple[FakeLlama, FakeLlama]]:
    first, second = FakeLlama("from the first"), FakeLlama("from the second")
    yield first, second
    first.close()
    second.close()


@pytest.fixture
def home(settings: Settings, tmp_path: Path) -> Settings:
    """Settings of a private home (its own run files)."""
    return settings.model_copy(update={"home": tmp_path})


def _host(settings: Settings, base: str, pid: int | None = None) -> None:
    """Write the run file as a host process does."""
    path = local.run_file(settings, MODEL)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"pid": pid or os.getpid(), "base_url": base}))


# --------------------------------------------------------------------------- the host's drain
def test_in_flight_reads_busy_slots_and_none_without_slots(
    llamas: tuple[FakeLlama, FakeLlama],
) -> None:
    first, _ = llamas
    first.busy = [2]
    assert in_flight(first.base) == 2
    first.busy = [0]
    assert in_flight(first.base) == 0
    assert in_flight("http://127.0.0.1:9/v1") is None  # nothing listens: cannot tell


def test_drain_waits_until_no_request_is_in_flight(llamas: tuple[FakeLlama, FakeLlama]) -> None:
    first, _ = llamas
    first.busy = [1, 1, 1, 1, 0]
    assert drain(first.base, timeout_s=10, idle_polls=3, every_s=0.01)
    assert first.polls == 4 + 3  # four busy polls, then three idle in a row


def test_drain_does_not_take_one_idle_moment_for_idle(llamas: tuple[FakeLlama, FakeLlama]) -> None:
    first, _ = llamas
    first.busy = [1, 0, 1, 0, 0, 0]  # a queued request takes the slot freed a moment ago
    assert drain(first.base, timeout_s=10, idle_polls=3, every_s=0.01)
    assert first.polls == 6


def test_drain_gives_up_after_its_timeout(llamas: tuple[FakeLlama, FakeLlama]) -> None:
    first, _ = llamas
    first.busy = [1]
    assert not drain(first.base, timeout_s=0.05, idle_polls=3, every_s=0.01)


def test_release_withdraws_the_run_file_before_it_drains_and_stops_after(
    home: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = local.run_file(home, MODEL)
    _host(home, "http://127.0.0.1:1/v1")
    seen: list[tuple[bool, bool]] = []

    def fake_drain(base: str, timeout_s: float) -> bool:
        seen.append((path.exists(), MODEL in local._servers))
        return True

    monkeypatch.setattr(local, "drain", fake_drain)
    monkeypatch.setitem(local._servers, MODEL, (object(), "http://127.0.0.1:1/v1"))
    local._release(MODEL, path, 5.0)
    # while it drained, no new client could find the server, and the server still ran
    assert seen == [(False, True)]
    assert MODEL not in local._servers and not path.exists()


def test_release_leaves_a_run_file_another_host_wrote(
    home: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = local.run_file(home, MODEL)
    _host(home, "http://127.0.0.1:2/v1", pid=1)  # another process has taken over since
    monkeypatch.setattr(local, "drain", lambda base, timeout_s: True)
    local._release(MODEL, path, 5.0)
    assert json.loads(path.read_text())["pid"] == 1


# --------------------------------------------------------------------------- the clients' route
def test_a_request_goes_where_the_run_file_points_now(
    home: Settings, llamas: tuple[FakeLlama, FakeLlama]
) -> None:
    first, second = llamas
    _host(home, first.base)
    client = httpx.Client(transport=RouteTransport(Route(MODEL, home, first.base)))
    assert client.post(f"{first.base}/chat/completions", json={"n": 1}).status_code == 200
    _host(home, second.base)  # the first host left; another took over
    reply = client.post(f"{first.base}/chat/completions", json={"n": 2})
    assert reply.json()["choices"][0]["message"]["content"] == "from the second"
    assert [a["n"] for a in first.asked] == [1] and [a["n"] for a in second.asked] == [2]


@pytest.fixture
def dead_host(home: Settings, llamas: tuple[FakeLlama, FakeLlama]) -> Iterator[Route]:
    """A route to the first server, whose host died without a word (its run file stays)."""
    first, _ = llamas
    _host(home, first.base)
    route = Route(MODEL, home, first.base)
    first.close()
    had = local._servers.pop(MODEL, None)
    yield route
    local._servers.pop(MODEL, None)
    if had is not None:
        local._servers[MODEL] = had


def test_a_refused_connection_is_sent_once_more_to_the_server_found_next(
    dead_host: Route, llamas: tuple[FakeLlama, FakeLlama], monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second = llamas
    monkeypatch.setattr(local, "_start_server", lambda name, settings: (object(), second.base))
    client = httpx.Client(transport=RouteTransport(dead_host))
    reply = client.post(f"{first.base}/chat/completions", json={"n": 3})
    assert reply.json()["choices"][0]["message"]["content"] == "from the second"
    assert [a["n"] for a in second.asked] == [3]


def test_a_refusal_with_nowhere_else_to_go_is_raised(
    dead_host: Route, llamas: tuple[FakeLlama, FakeLlama], monkeypatch: pytest.MonkeyPatch
) -> None:
    first, _ = llamas
    monkeypatch.setattr(local, "ensure_server", lambda name, settings: first.base)
    with pytest.raises(httpx.ConnectError):
        httpx.Client(transport=RouteTransport(dead_host)).post(f"{first.base}/chat/completions")


def test_async_requests_follow_the_run_file_too(
    home: Settings, llamas: tuple[FakeLlama, FakeLlama]
) -> None:
    first, second = llamas
    _host(home, first.base)
    route = Route(MODEL, home, first.base)

    async def ask() -> str:
        async with httpx.AsyncClient(transport=AsyncRouteTransport(route)) as client:
            await client.post(f"{first.base}/chat/completions", json={"n": 1})
            _host(home, second.base)
            reply = await client.post(f"{first.base}/chat/completions", json={"n": 2})
            return str(reply.json()["choices"][0]["message"]["content"])

    assert asyncio.run(ask()) == "from the second"
    assert [a["n"] for a in second.asked] == [2]


def test_a_local_chat_model_follows_its_server_to_a_new_host(
    home: Settings, llamas: tuple[FakeLlama, FakeLlama]
) -> None:
    first, second = llamas
    _host(home, first.base)
    llm = get_chat_model(f"local:{MODEL}", settings=home, max_tokens=8)
    assert llm.invoke("Which server?").content == "from the first"
    _host(home, second.base)
    assert llm.invoke("Which server now?").content == "from the second"
    assert second.asked[0]["messages"][0]["content"] == "Which server now?"
