"""The task queue through the API and the CLI: the dead letter, retry, and cancelling a debate.

The server of these tests has a queue of its own (``server.queue_name``), two attempts per task
and a short backoff, so a poison file reaches the dead letter in about a second.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

from disputatio.settings import Settings, get_settings

from .conftest import LiveServer, read_sse, start_server, wait_job
from .fakes import KEY_A, KEY_B, FakeModels, server_settings

pytestmark = pytest.mark.integration

#: Passes the upload checks (it is text), yet holds nothing to ingest: every attempt fails.
POISON = b"<html><head><script>var x = 1;</script></head><body></body></html>"


@pytest.fixture(scope="module")
def queued(api_settings: Settings) -> Iterator[LiveServer]:
    server = server_settings(
        queue_name=f"test-jobs-{uuid.uuid4().hex[:8]}",
        job_attempts=2,
        job_retry_base_s=0.1,
        queue_poll_s=0.2,
        worker_heartbeat_s=0.5,
        max_runs_per_tenant=5,
    )
    live = start_server(
        api_settings.model_copy(update={"server": server}), FakeModels(delay_s=0.4, rounds=3)
    )
    yield live
    live.stop()


def _upload(client: httpx.Client, name: str, data: bytes) -> dict[str, Any]:
    resp = client.post("/ingest", files={"file": (name, data)})
    assert resp.status_code == 202, resp.text
    return dict(resp.json())


def _failed_jobs(client: httpx.Client) -> list[dict[str, Any]]:
    resp = client.get("/jobs", params={"state": "failed"})
    assert resp.status_code == 200, resp.text
    return list(resp.json()["jobs"])


def test_poison_file_lands_in_the_dead_letter_after_its_attempts(queued: LiveServer) -> None:
    with queued.client(KEY_A) as client, queued.client(KEY_B) as other:
        job = _upload(client, f"poison-{uuid.uuid4().hex[:6]}.html", POISON)
        status = wait_job(client, job["ingestion_job_id"], timeout=60)
        assert status["status"] == "failed", status
        assert status["error"] and "/api/uploads/" not in status["error"]
        dead = [j for j in _failed_jobs(client) if j["ingestion_job_id"] == job["ingestion_job_id"]]
        assert len(dead) == 1, _failed_jobs(client)
        entry = dead[0]
        assert entry["kind"] == "ingest" and entry["attempts"] == 2 == entry["max_attempts"]
        assert entry["error"] == status["error"]
        # tenant scoped: another tenant neither sees it nor retries it
        assert all(j["id"] != entry["id"] for j in _failed_jobs(other))
        assert other.post(f"/jobs/{entry['id']}/retry").status_code == 403
        # re-queued, it runs once more (and, still poison, fails again)
        resp = client.post(f"/jobs/{entry['id']}/retry")
        assert resp.status_code == 202, resp.text
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            again = next(j for j in client.get("/jobs").json()["jobs"] if j["id"] == entry["id"])
            if again["state"] == "failed" and again["attempts"] > 2:
                break
            time.sleep(0.2)
        # procrastinate's retry counts one attempt and the run another: one more run, no more
        assert again["attempts"] == 4 and again["state"] == "failed", again
        assert client.post(f"/jobs/{entry['id']}/retry").status_code == 202
        assert client.post("/jobs/999999999/retry").status_code == 404


def test_jobs_route_refuses_a_bad_state_naming_the_field(queued: LiveServer) -> None:
    with queued.client(KEY_A) as client:
        resp = client.get("/jobs", params={"state": "dead"})
        assert resp.status_code == 422
        assert resp.json()["error"]["field"] == "state"
        assert client.get("/jobs").status_code == 200
        assert queued.client(None).get("/jobs").status_code == 401


def test_a_good_file_is_ingested_by_one_successful_attempt(queued: LiveServer) -> None:
    with queued.client(KEY_A) as client:
        text = f"Brucellosis note {uuid.uuid4()}: serology confirms the diagnosis.\n".encode()
        job = _upload(client, "note.txt", text)
        status = wait_job(client, job["ingestion_job_id"], timeout=120)
        assert status["status"] == "succeeded", status
        jobs = client.get("/jobs", params={"state": "succeeded"}).json()["jobs"]
        mine = [j for j in jobs if j.get("ingestion_job_id") == job["ingestion_job_id"]]
        assert len(mine) == 1 and mine[0]["attempts"] == 1


def test_the_cli_lists_the_dead_letter_and_retries(
    queued: LiveServer, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from disputatio.cli.app import app

    with queued.client(KEY_A) as client:
        job = _upload(client, f"poison-{uuid.uuid4().hex[:6]}.html", POISON + b"<!-- cli -->")
        assert wait_job(client, job["ingestion_job_id"], timeout=60)["status"] == "failed"
    monkeypatch.setenv("DISPUTATIO_SERVER__QUEUE_NAME", queued.settings.server.queue_name)
    get_settings.cache_clear()
    try:
        runner = CliRunner()
        listed = runner.invoke(app, ["jobs", "list", "--state", "failed", "--json"])
        assert listed.exit_code == 0, listed.output
        import json

        rows = [json.loads(line) for line in listed.output.splitlines() if line.strip()]
        row = next(r for r in rows if r.get("ingestion_job_id") == job["ingestion_job_id"])
        assert row["state"] == "failed" and row["tenant"] and row["error"]
        assert runner.invoke(app, ["jobs", "list", "--state", "nope"]).exit_code == 2
        retried = runner.invoke(app, ["jobs", "retry", str(row["id"])])
        assert retried.exit_code == 0, retried.output
        from disputatio.cli import main

        with pytest.raises(SystemExit) as stopped:  # through the CLI's error boundary
            main(["jobs", "retry", "999999999"])
        assert stopped.value.code == 2
        assert "error: no task 999999999" in capsys.readouterr().err
    finally:
        get_settings.cache_clear()


def test_a_running_debate_is_cancelled(queued: LiveServer) -> None:
    with queued.client(KEY_A) as client, queued.client(KEY_B) as other:
        case_id = client.post(
            "/debate/start",
            json={"protocol": "hierarchical", "question": "How is brucellosis diagnosed?"},
        ).json()["case_id"]
        with client.stream("GET", f"/debate/{case_id}/stream") as resp:
            read_sse(resp, stop_after=1)
        assert other.post(f"/debate/{case_id}/cancel").status_code == 403
        resp = client.post(f"/debate/{case_id}/cancel")
        assert resp.status_code == 202, resp.text
        with client.stream("GET", f"/debate/{case_id}/stream") as resp:
            events = read_sse(resp)
        assert events[-1] == {"event": "end", "data": {"status": "cancelled"}}
        assert any(e["event"] == "cancelled" for e in events)
        assert client.get(f"/debate/{case_id}").json()["status"] == "cancelled"
        assert client.post(f"/debate/{case_id}/cancel").status_code == 409
        # the worker stops the task at its next step: the queue job ends aborted, no more moves
        deadline = time.monotonic() + 30
        state = None
        while time.monotonic() < deadline:
            jobs = client.get("/jobs").json()["jobs"]
            state = next(j["state"] for j in jobs if j.get("case_id") == case_id)
            if state == "aborted":
                break
            time.sleep(0.2)
        assert state == "aborted"
        moves = client.get(f"/debate/{case_id}").json()["events"]
        time.sleep(1.5)
        assert client.get(f"/debate/{case_id}").json()["events"] == moves
