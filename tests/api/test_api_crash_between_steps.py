"""A debate whose checkpoint write failed after a finished step is resumed, not cut short.

Every task of a step can have its writes saved while the step's checkpoint is not (the process
died, or the database failed, in between). The queue then retries the run; it must go on from
those writes. Taking the thread for a finished one (its ``snapshot.next`` is empty) would
record the half-run state as the verdict: the debate would end after round 0.
"""

from __future__ import annotations

import json
import uuid
from collections import Counter
from typing import Any

import httpx
import psycopg
import pytest
from langgraph.checkpoint.postgres import PostgresSaver

from disputatio.api.services import Services
from disputatio.settings import Settings

from .conftest import read_sse, serve_app
from .fakes import KEY_A, FakeModels, server_settings

pytestmark = pytest.mark.integration


def test_a_failed_checkpoint_write_after_round_0_does_not_end_the_debate(
    api_settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    tag = f" (crash-{uuid.uuid4().hex[:8]})"
    failed: list[int] = []
    put = PostgresSaver.put

    def failing_put(
        self: PostgresSaver, config: Any, checkpoint: Any, metadata: Any, versions: Any
    ) -> Any:
        transcript = checkpoint["channel_values"].get("transcript") or []
        if not failed and tag in json.dumps(transcript, default=str) and len(transcript) == 2:
            failed.append(metadata.get("step"))  # round 0's two answers, saved as writes only
            raise psycopg.OperationalError("server closed the connection unexpectedly")
        return put(self, config, checkpoint, metadata, versions)

    monkeypatch.setattr(PostgresSaver, "put", failing_put)
    server = server_settings(
        queue_name=f"test-crash-{uuid.uuid4().hex[:8]}", job_attempts=3, job_retry_base_s=0.1,
        queue_poll_s=0.2, worker_heartbeat_s=0.5,
    )  # fmt: skip
    settings = api_settings.model_copy(update={"server": server})
    services = Services(
        settings=settings, context_overrides=FakeModels(rounds=2, tag=tag), resume_on_startup=False
    )
    url, srv, thread = serve_app(services)
    try:
        with httpx.Client(base_url=url, headers={"X-API-Key": KEY_A}, timeout=120) as client:
            start = client.post(
                "/debate/start",
                json={"protocol": "hierarchical", "question": "How is brucellosis diagnosed?"},
            )
            assert start.status_code == 202, start.text
            with client.stream("GET", start.json()["stream_url"]) as resp:
                events = read_sse(resp)
            session = client.get(f"/debate/{start.json()['case_id']}").json()
    finally:
        srv.should_exit = True
        thread.join(timeout=30)

    assert failed, "the checkpoint write after round 0 never failed"
    assert session["status"] == "done", session
    transcript = session["result"]["transcript"]
    rounds = Counter(m.get("round") for m in transcript if m["kind"] == "answer")
    assert rounds == {0: 2, 1: 2, 2: 2}, rounds  # the debate went on after the failure
    moves = [e["data"] for e in events if e["event"] == "move"]
    assert [m["move"] for m in moves] == transcript  # each move streamed once, in order
