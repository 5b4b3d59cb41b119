"""Kill the server mid-debate, restart it: the restarted server's worker takes the task of the
dead one up, the debate resumes on its thread, no move lost or repeated, and a client's stream
picks up from its Last-Event-ID."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import pytest

from disputatio.settings import Settings

from .conftest import free_port, read_sse
from .fakes import KEY_A

pytestmark = pytest.mark.integration

CHILD = Path(__file__).with_name("serve_child.py")


#: The queue of this module's servers (no other test's worker takes their tasks).
QUEUE = f"restart-{uuid.uuid4().hex[:8]}"


def _spawn(port: int, settings: Settings, db_url: str, log: Path) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "DATABASE_URL": db_url,
        "DISPUTATIO_HOME": str(settings.home),
        "QUEUE_NAME": QUEUE,
    }
    proc = subprocess.Popen(
        [sys.executable, str(CHILD), str(port)],
        env=env,
        stdout=log.open("ab"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"server exited: {log.read_text()[-2000:]}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.2)
    proc.kill()
    raise AssertionError("server did not start")


def test_killed_server_resumes_the_debate_without_losing_or_repeating_moves(
    api_settings: Settings, db_url: str, corpus_a: dict[str, Any], tmp_path: Path
) -> None:
    log = tmp_path / "server.log"
    port = free_port()
    first = _spawn(port, api_settings, db_url, log)
    headers = {"X-API-Key": KEY_A}
    url = f"http://127.0.0.1:{port}"
    try:
        with httpx.Client(base_url=url, headers=headers, timeout=60) as client:
            case_id = client.post(
                "/debate/start",
                json={"protocol": "hierarchical", "question": "How is brucellosis diagnosed?"},
            ).json()["case_id"]
            with client.stream("GET", f"/debate/{case_id}/stream") as resp:
                before = read_sse(resp, stop_after=2)
            assert client.get(f"/debate/{case_id}").json()["status"] == "running"
    finally:
        os.killpg(first.pid, signal.SIGKILL)  # no shutdown hook runs
        first.wait(timeout=30)
    moves_before = [e for e in before if e["event"] == "move"]
    assert len(moves_before) == 2

    second = _spawn(port, api_settings, db_url, log)
    try:
        with httpx.Client(base_url=url, headers=headers, timeout=120) as client:
            last = max(int(e["id"]) for e in before if "id" in e)
            with client.stream(
                "GET", f"/debate/{case_id}/stream", headers={"Last-Event-ID": str(last)}
            ) as resp:
                after = read_sse(resp)
            session = client.get(f"/debate/{case_id}").json()
            with client.stream("GET", f"/debate/{case_id}/stream") as resp:
                replay = read_sse(resp)
    finally:
        os.killpg(second.pid, signal.SIGTERM)
        second.wait(timeout=30)

    assert session["status"] == "done", session
    assert after[-1]["event"] == "end" and any(e["event"] == "final" for e in after)
    events = [e for e in before + after if "id" in e]
    ids = [int(e["id"]) for e in events]
    assert ids == list(range(1, len(ids) + 1))  # nothing lost, nothing twice, in order
    assert ids == [int(e["id"]) for e in replay if "id" in e]  # a full replay says the same
    moves = [e["data"] for e in events if e["event"] == "move"]
    keys = Counter((m["field"], m["index"]) for m in moves)
    assert all(n == 1 for n in keys.values())
    transcript = session["result"]["transcript"]
    assert [m["move"] for m in moves] == transcript  # exactly the checkpointed moves
    # the debate was really cut and resumed, not run again: the moves the first server made
    # stay in the transcript as it made them, and the second server made only the rest
    rounds = Counter(m["round"] for m in transcript if m["kind"] == "answer")
    assert rounds == {0: 2, 1: 2, 2: 2}
    by_first = [m for m in transcript if f"(server {first.pid})" in m["content"]]
    by_second = [m for m in transcript if f"(server {second.pid})" in m["content"]]
    assert len(by_first) + len(by_second) == len(transcript)
    assert transcript[: len(by_first)] == by_first  # the first server's moves come first
    assert [e["data"]["move"] for e in moves_before] == by_first[: len(moves_before)]
    assert by_second and len(by_first) >= len(moves_before)
