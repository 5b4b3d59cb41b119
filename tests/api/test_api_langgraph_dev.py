"""The same routes and auth under ``langgraph dev`` (offline, on a free port), plus tenant
isolation on the LangGraph server's own routes (threads, runs) through ``disputatio.api.auth``."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from disputatio.api import store
from disputatio.api.auth import hash_key
from disputatio.settings import Settings

from .conftest import free_port, read_sse, unserved
from .fakes import KEY_A, KEY_B, TENANT_A, TENANT_B

#: A tenant of this module only (its document must not reach the other modules' tenants).
KEY_C, TENANT_C = "key-lgdev-5555555555", "api-lgdev"

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]
LANGGRAPH = Path(os.environ.get("VIRTUAL_ENV", ROOT / ".venv")) / "bin" / "langgraph"


def _absolute(value: Any) -> Any:
    """``value`` with every ``./``-relative path string resolved against the project root."""
    if isinstance(value, dict):
        return {k: _absolute(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_absolute(v) for v in value]
    if isinstance(value, str) and (value == "." or value.startswith("./")):
        return str(ROOT / value)
    return value


@pytest.fixture(scope="module")
def lg_dev(
    api_settings: Settings, db_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    if not LANGGRAPH.exists():
        pytest.skip("langgraph-cli is not installed (pip install -e '.[server]')")
    # never inside the project: a log there makes the file watcher reload, and the in-memory
    # runtime persists its threads and assistants under the working directory's .langgraph_api
    # (a second run would start with the first run's assistants)
    workdir = tmp_path_factory.mktemp("langgraph-dev")
    log = workdir / "server.log"
    port = free_port()
    keys = {hash_key(KEY_A): TENANT_A, hash_key(KEY_B): TENANT_B, hash_key(KEY_C): TENANT_C}
    env = {
        **os.environ,
        "LANGGRAPH_CLI_NO_ANALYTICS": "1",
        "LANGGRAPH_NO_VERSION_CHECK": "true",
        "DATABASE_URL": db_url,
        "DISPUTATIO_HOME": str(api_settings.home),
        "DISPUTATIO_SERVER__API_KEYS": json.dumps(keys),
        # no chat model here: a model server nobody listens on, so a debate ends at once
        "DISPUTATIO_MODELS__CHAT": "vllm:none@http://127.0.0.1:9/v1",
        "DISPUTATIO_MODELS__MAX_RETRIES": "0",
    }
    config = workdir / "langgraph.json"  # the project's, its paths made absolute
    config.write_text(json.dumps(_absolute(json.loads((ROOT / "langgraph.json").read_text()))))
    cmd = [str(LANGGRAPH), "dev", "--no-browser", "--no-reload", "--port", str(port),
           "--host", "127.0.0.1", "--config", str(config)]  # fmt: skip
    with log.open("wb") as out:
        proc = subprocess.Popen(
            cmd, cwd=workdir, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 180
        while True:
            if proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"langgraph dev did not start:\n{log.read_text()[-3000:]}")
            try:
                if httpx.get(f"{url}/ok", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            time.sleep(0.5)
        yield url
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)


def _client(url: str, key: str | None) -> httpx.Client:
    return httpx.Client(base_url=url, headers={"X-API-Key": key} if key else {}, timeout=120)


def test_custom_routes_and_auth_under_langgraph_dev(lg_dev: str, api_settings: Settings) -> None:
    with _client(lg_dev, None) as anon, _client(lg_dev, KEY_A) as a, _client(lg_dev, KEY_B) as b:
        assert anon.get("/health").status_code == 401
        assert anon.post("/query", json={"query": "x"}).status_code == 401
        health = a.get("/health").json()
        assert health["tenant"] == TENANT_A and health["database"]["ok"]
        refused = b.post("/query", json={"query": "How is brucellosis diagnosed?"}).json()
        assert refused["answer"] is None
        assert refused["error"]["code"] == "NO_SUITABLE_CONTEXT"
        bad = a.post("/debate/start", json={"protocol": "chess", "question": "?"})
        assert bad.status_code == 422 and bad.json()["error"]["field"] == "protocol"
        assert a.get("/").status_code == 200 and "disputatio" in a.get("/").text
        assert anon.get("/static/app.js").status_code == 200  # the page's script, no key
        # a debate of tenant A (recorded directly: no model runs here) is A's alone
        case_id = str(uuid.uuid4())
        store.create_run(
            unserved(api_settings),
            {"id": case_id, "tenant": TENANT_A, "protocol": "hierarchical", "question": "q",
             "request": {"question": "q"}},
        )  # fmt: skip
        store.update_run(api_settings, case_id, status="failed", error="recorded by the test")
        assert a.get(f"/debate/{case_id}").json()["status"] == "failed"
        assert b.get(f"/debate/{case_id}").status_code == 403
        assert b.get(f"/debate/{case_id}/ledger").status_code == 403
        assert case_id in {s["case_id"] for s in a.get("/sessions").json()["sessions"]}
        assert case_id not in {s["case_id"] for s in b.get("/sessions").json()["sessions"]}


def test_ingest_jobs_documents_and_streams_under_langgraph_dev(
    lg_dev: str, api_settings: Settings
) -> None:
    marker = uuid.uuid4().hex
    text = f"# Lgdev fever {marker}\n\nLgdev fever is diagnosed by a lgdev swab test.\n"
    with _client(lg_dev, KEY_C) as c, _client(lg_dev, KEY_B) as b:
        # POST /ingest: accepted, processed in the background of the langgraph dev process
        accepted = c.post("/ingest", files={"file": (f"lgdev-{marker}.md", text.encode())})
        assert accepted.status_code == 202, accepted.text
        job_id, doc_id = accepted.json()["ingestion_job_id"], accepted.json()["document_id"]
        assert b.get(f"/ingest/status/{job_id}").status_code == 404  # another tenant's job
        deadline = time.monotonic() + 300
        while (job := c.get(f"/ingest/status/{job_id}").json())["status"] in ("queued", "running"):
            assert time.monotonic() < deadline, job
            time.sleep(0.5)
        assert job["status"] == "succeeded" and job["document_id"] == doc_id, job
        assert doc_id in {d["document_id"] for d in c.get("/documents").json()["documents"]}
        assert "swab" in c.get(f"/documents/{doc_id}").json()["markdown"]
        assert b.get(f"/documents/{doc_id}").status_code == 404
        assert c.get("/debate/cases").json()["cases"]  # the bundled CASE files
        # GET /debate/{id}/stream through the server: events in order, resumable by id
        case_id = str(uuid.uuid4())
        store.create_run(
            unserved(api_settings),
            {"id": case_id, "tenant": TENANT_C, "protocol": "hierarchical", "question": "q",
             "request": {"question": "q"}},
        )  # fmt: skip
        for i in range(3):
            move = {"field": "transcript", "index": i, "move": {"content": f"move {i}"}}
            store.append_event(api_settings, case_id, f"transcript:{i}", "move", move)
        store.update_run(api_settings, case_id, status="done", result={"answer": "a"})
        with c.stream("GET", f"/debate/{case_id}/stream") as resp:
            assert resp.headers["content-type"].startswith("text/event-stream")
            events = read_sse(resp)
        moves = [e["data"]["move"]["content"] for e in events if e["event"] == "move"]
        assert moves == ["move 0", "move 1", "move 2"] and events[-1]["event"] == "end"
        first = next(e["id"] for e in events if e["event"] == "move")
        with c.stream("GET", f"/debate/{case_id}/stream", headers={"Last-Event-ID": first}) as resp:
            rest = [e["data"]["move"]["content"] for e in read_sse(resp) if e["event"] == "move"]
        assert rest == ["move 1", "move 2"]
        assert b.get(f"/debate/{case_id}/stream").status_code == 403


def test_a_debate_started_under_langgraph_dev_runs_and_streams_to_its_end(lg_dev: str) -> None:
    with _client(lg_dev, KEY_C) as c, _client(lg_dev, KEY_B) as b:
        start = c.post(
            "/debate/start", json={"protocol": "hierarchical", "question": "What is lgdev fever?"}
        )
        assert start.status_code == 202, start.text
        case_id = start.json()["case_id"]
        with c.stream("GET", start.json()["stream_url"]) as resp:
            events = read_sse(resp)
        ids = [int(e["id"]) for e in events if "id" in e]
        assert ids == sorted(set(ids)) and events[-1]["event"] == "end", events[-3:]
        # the run went through the server's engine thread to a terminal status (the model
        # server is unreachable here: done with notes, or failed with its error streamed)
        status = events[-1]["data"]["status"]
        assert status in ("done", "failed")
        assert c.get(f"/debate/{case_id}").json()["status"] == status
        if status == "failed":
            assert any(e["event"] == "error" for e in events)
            verdict = c.get(f"/debate/{case_id}/verdict")
            assert verdict.status_code == 409 and verdict.json()["error"]["retryable"] is False
        assert b.get(f"/debate/{case_id}/stream").status_code == 403


def test_langgraph_routes_are_scoped_to_the_keys_tenant(lg_dev: str) -> None:
    with _client(lg_dev, None) as anon, _client(lg_dev, KEY_A) as a, _client(lg_dev, KEY_B) as b:
        assert anon.post("/threads/search", json={}).status_code == 401
        # no Studio bypass (langgraph.json: disable_studio_auth): Studio sends a key too
        studio = {"x-auth-scheme": "langsmith"}
        assert anon.post("/threads/search", json={}, headers=studio).status_code == 401
        assert len(a.post("/assistants/search", json={}).json()) == 7  # graphs are shared
        thread = a.post("/threads", json={"metadata": {"tenant": TENANT_B}}).json()
        assert thread["metadata"]["tenant"] == TENANT_A  # the key decides, not the body
        tid = thread["thread_id"]
        assert tid in {t["thread_id"] for t in a.post("/threads/search", json={}).json()}
        assert tid not in {t["thread_id"] for t in b.post("/threads/search", json={}).json()}
        # another tenant's thread is forbidden (a missing one is still 404)
        assert b.get(f"/threads/{tid}").status_code == 403
        assert b.get(f"/threads/{tid}/state").status_code == 403
        assert b.post(f"/threads/{tid}/runs", json={"assistant_id": "rag"}).status_code == 403
        assert b.patch(f"/threads/{tid}", json={"metadata": {"x": 1}}).status_code == 403
        assert b.delete(f"/threads/{tid}").status_code == 403
        assert b.get(f"/threads/{uuid.uuid4()}").status_code == 404
        # a run's input tenant is dropped, its context's overwritten with the caller's
        # (retrieval only: no model)
        run = a.post(
            f"/threads/{tid}/runs/wait",
            json={"assistant_id": "rag", "context": {"answer": False, "tenant": TENANT_B},
                  "input": {"question": "brucellosis diagnosis", "tenant": TENANT_B}},
        )  # fmt: skip
        assert run.status_code == 200, run.text
        values = a.get(f"/threads/{tid}/state").json()["values"]
        assert "tenant" not in values and values["question"] == "brucellosis diagnosis"
        (done,) = a.get(f"/threads/{tid}/runs").json()
        assert done["kwargs"]["context"]["tenant"] == TENANT_A
        assert "tenant" not in done["kwargs"]["input"]
        ingest = a.post("/runs/wait", json={"assistant_id": "ingest", "input": {"paths": ["/etc"]}})
        assert ingest.status_code == 403


def test_runs_on_a_tenants_own_assistant_get_the_keys_tenant(lg_dev: str) -> None:
    with _client(lg_dev, KEY_A) as a, _client(lg_dev, KEY_B) as b:
        # an assistant saved with another tenant in its context (mirrored into its config) and
        # its metadata
        created = a.post(
            "/assistants",
            json={"graph_id": "rag", "context": {"answer": False, "tenant": TENANT_B},
                  "metadata": {"tenant": TENANT_B}},
        )  # fmt: skip
        assert created.status_code == 200, created.text
        assistant = created.json()
        assert assistant["metadata"]["tenant"] == TENANT_A
        assert assistant["context"]["tenant"] == TENANT_A
        aid = assistant["assistant_id"]
        # it is tenant A's alone
        assert aid in {x["assistant_id"] for x in a.post("/assistants/search", json={}).json()}
        assert aid not in {x["assistant_id"] for x in b.post("/assistants/search", json={}).json()}
        assert b.get(f"/assistants/{aid}").status_code == 404
        tid = a.post("/threads", json={}).json()["thread_id"]
        run = a.post(
            f"/threads/{tid}/runs/wait",
            json={"assistant_id": aid, "context": {"tenant": TENANT_B},
                  "input": {"question": "brucellosis diagnosis", "tenant": TENANT_B}},
        )  # fmt: skip
        assert run.status_code == 200, run.text
        assert "tenant" not in a.get(f"/threads/{tid}/state").json()["values"]
        (done,) = a.get(f"/threads/{tid}/runs").json()
        assert done["kwargs"]["context"]["tenant"] == TENANT_A
        # another tenant cannot run it, and no tenant can save an ingest assistant
        other = b.post("/runs/wait", json={"assistant_id": aid, "input": {"question": "q"}})
        assert other.status_code == 403, other.text
        ingest = a.post("/assistants", json={"graph_id": "ingest"})
        assert ingest.status_code == 403
