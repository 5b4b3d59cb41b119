"""The API on a live server: debates streamed, tenant isolation, concurrent-run limits."""

from __future__ import annotations

import json
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from disputatio.api import store

from .conftest import KEY_A, KEY_B, TENANT_A, LiveServer, read_sse, start_debate, unserved

pytestmark = pytest.mark.integration


def test_debate_streams_moves_and_ends_with_a_verdict(
    live: LiveServer, corpus_a: dict[str, Any]
) -> None:
    with live.client(KEY_A) as client:
        started, events = start_debate(
            client, {"protocol": "hierarchical", "question": "How is brucellosis diagnosed?"}
        )
        case_id, url = started["case_id"], started["stream_url"]
        moves = [e for e in events if e["event"] == "move"]
        assert moves and events[-1]["event"] == "end"
        ids = [int(e["id"]) for e in events if "id" in e]
        assert ids == sorted(set(ids))  # no event twice, in order
        final = next(e for e in events if e["event"] == "final")
        assert final["data"]["verdict"]["answer"]
        # resumable: from the 2nd event on, the stream replays exactly the rest
        with client.stream("GET", url, headers={"Last-Event-ID": str(ids[1])}) as resp:
            rest = [e for e in read_sse(resp) if "id" in e]
        assert [int(e["id"]) for e in rest] == ids[2:]
        verdict = client.get(f"/debate/{case_id}/verdict").json()
        assert verdict["answer"] and verdict["citations"]
        tree = client.get(f"/debate/{case_id}/graph").json()
        assert tree["@graph"] and client.get(f"/debate/{case_id}/graph?format=graphml").text
        bad_format = client.get(f"/debate/{case_id}/graph?format=svg")
        assert bad_format.status_code == 422 and bad_format.json()["error"]["field"] == "format"
        ledger = client.get(f"/debate/{case_id}/ledger").json()
        assert ledger["case_id"] == case_id and isinstance(ledger["entries"], list)
        listed = client.get("/sessions").json()["sessions"]
        assert case_id in {s["case_id"] for s in listed}
        assert client.get(f"/sessions/{case_id}").json()["status"] == "done"
    # the workers saw only tenant A's sections
    worker = live.fakes.models[("debate", TENANT_A, "worker-root-0")]
    assert worker.prompts and all("brucell" in json.dumps(str(p)).lower() for p in worker.prompts)


def test_another_tenants_debate_is_forbidden(live: LiveServer, corpus_a: dict[str, Any]) -> None:
    with live.client(KEY_A) as a, live.client(KEY_B) as b:
        case_id = a.post(
            "/debate/start", json={"protocol": "hierarchical", "question": "What is Q fever?"}
        ).json()["case_id"]
        for path in ("", "/stream", "/verdict", "/graph", "/ledger"):
            resp = b.get(f"/debate/{case_id}{path}")
            assert resp.status_code == 403, (path, resp.text)
            assert resp.json()["error"]["code"] == "FORBIDDEN"
        assert b.delete(f"/sessions/{case_id}").status_code == 403
        assert case_id not in {s["case_id"] for s in b.get("/sessions").json()["sessions"]}
        assert b.get(f"/debate/{uuid.uuid4()}").status_code == 404
        with a.stream("GET", f"/debate/{case_id}/stream") as resp:
            read_sse(resp)
        deleted = a.delete(f"/sessions/{case_id}")
        assert deleted.status_code == 204
        assert a.get(f"/debate/{case_id}").status_code == 404


def test_concurrent_runs_per_tenant_are_limited(live: LiveServer) -> None:
    limit = live.settings.server.max_runs_per_tenant
    with store.db(live.settings) as conn:  # occupy the tenant's slots without running anything
        for _ in range(limit):
            conn.execute(
                "INSERT INTO api_runs (id, tenant, protocol, question, status, lease_until)"
                " VALUES (%s, 'api-busy', 'hierarchical', 'q', 'running', now() + '1 hour')",
                (str(uuid.uuid4()),),
            )
    from disputatio.api.auth import hash_key

    live.settings.server.api_keys[hash_key("key-busy")] = "api-busy"
    try:
        with live.client("key-busy") as client:
            resp = client.post("/debate/start", json={"protocol": "hierarchical", "question": "q?"})
        assert resp.status_code == 429 and resp.json()["error"]["retryable"] is True
        assert int(resp.headers["Retry-After"]) > 0
    finally:
        del live.settings.server.api_keys[hash_key("key-busy")]
        with store.db(live.settings) as conn:
            conn.execute("DELETE FROM api_runs WHERE tenant = 'api-busy'")


@pytest.mark.parametrize("kind", ["runs", "jobs"])
def test_concurrent_creations_never_pass_the_tenants_limit(live: LiveServer, kind: str) -> None:
    """Count and insert are one step: eight simultaneous creations with room for two make two.

    Ten rounds, each a fresh tenant, so that an unguarded count-then-insert shows its race.
    """
    for _ in range(10):
        _race_to_the_limit(live, kind, tenant_name=f"api-race-{uuid.uuid4().hex[:8]}")


def _race_to_the_limit(live: LiveServer, kind: str, *, tenant_name: str) -> None:
    limit, attempts = 2, 8
    barrier = threading.Barrier(attempts)

    def create(_: int) -> int | None:
        row_id = str(uuid.uuid4())
        barrier.wait()
        if kind == "runs":
            run = {"id": row_id, "tenant": tenant_name, "protocol": "hierarchical",
                   "question": "q", "request": {}}  # fmt: skip
            return store.create_run(unserved(live.settings), run, limit=limit)
        job = {"id": row_id, "tenant": tenant_name, "collection": "c", "file_name": "f.txt",
               "path": "/nowhere/f.txt", "sha256": "0" * 64, "request": {}}  # fmt: skip
        return store.create_job(unserved(live.settings), job, limit=limit)

    table = "api_runs" if kind == "runs" else "api_jobs"
    try:
        with ThreadPoolExecutor(attempts) as pool:
            refused = [r for r in pool.map(create, range(attempts)) if r is not None]
        with store.db(live.settings) as conn:
            row = conn.execute(
                f"SELECT count(*) AS n FROM {table} WHERE tenant = %s", (tenant_name,)
            ).fetchone()
        assert row is not None and row["n"] == limit
        assert len(refused) == attempts - limit and set(refused) == {limit}
    finally:
        with store.db(live.settings) as conn:
            conn.execute(f"DELETE FROM {table} WHERE tenant = %s", (tenant_name,))


def test_cases_route_lists_the_sample_case(live: LiveServer) -> None:
    with live.client() as client:
        cases = client.get("/debate/cases").json()["cases"]
    assert cases and all("hypotheses" in c for c in cases)
    time.sleep(0)
