"""The API against a live server on loopback: every route, auth, limits and tenant isolation."""

from __future__ import annotations

import contextlib
import functools
import json
import threading
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from disputatio.api import store

from .conftest import (
    KEY_A,
    KEY_B,
    TENANT_A,
    TENANT_B,
    LiveServer,
    read_sse,
    start_debate,
    unserved,
    wait_job,
)

pytestmark = pytest.mark.integration


def _count(live: LiveServer, table: str) -> int:
    with store.db(live.settings) as conn:
        row = conn.execute(f"SELECT count(*) AS n FROM {table}").fetchone()
    return int(row["n"]) if row else 0


def test_requests_without_a_valid_key_are_refused(live: LiveServer) -> None:
    with live.client(None) as anon, live.client("not-a-key") as wrong:
        for client in (anon, wrong):
            for method, path in [("GET", "/health"), ("POST", "/query"), ("GET", "/sessions"),
                                 ("POST", "/debate/start"), ("POST", "/ingest")]:  # fmt: skip
                resp = client.request(method, path, json={})
                assert resp.status_code == 401, (path, resp.text)
                err = resp.json()["error"]
                assert err["code"] == "UNAUTHORIZED" and err["retryable"] is False
    with live.client(None) as anon:
        assert anon.get("/").status_code == 200  # the page itself asks for a key


def test_health_reports_database_model_and_each_channel(live: LiveServer) -> None:
    with live.client() as client:
        body = client.get("/health").json()
    assert body["tenant"] == TENANT_A
    assert body["database"]["ok"] and body["database"]["latency_ms"] >= 0
    assert "model_server" in body
    assert set(body["channels"]) >= {"lexical", "semantic"}
    assert all("latency_ms" in c for c in body["channels"].values())


def test_ingest_job_status_and_the_documents_it_wrote(
    live: LiveServer, corpus_a: dict[str, Any]
) -> None:
    job = corpus_a["brucellosis.txt"]
    assert job["document_id"] and job["finished_at"]
    with live.client() as client:
        docs = client.get("/documents").json()["documents"]
        assert job["document_id"] in {d["document_id"] for d in docs}
        doc = client.get(f"/documents/{job['document_id']}").json()
        assert "rucell" in doc["markdown"] and doc["collection"] == "sample"
        # the same bytes again: accepted, and the job says the document was already there
        again = client.post(
            "/ingest", files={"file": ("brucellosis.txt", _sample("brucellosis.txt"))}
        )
        assert again.status_code == 202 and again.json()["document_id"] == job["document_id"]
        assert wait_job(client, again.json()["ingestion_job_id"])["status"] == "skipped"
        missing = client.get(f"/ingest/status/{uuid.uuid4()}")
        assert missing.status_code == 404 and missing.json()["error"]["code"] == "NOT_FOUND"


def test_ingest_answers_the_document_id_the_job_then_writes(live: LiveServer) -> None:
    marker = uuid.uuid4().hex  # new content: the document does not exist when it is accepted
    text = (
        f"# Zorbak fever {marker}\n\nZorbak fever is diagnosed by a zorbak antigen test "
        "on a throat swab; treatment is rest and fluids.\n"
    )
    with live.client() as client:
        accepted = client.post(
            "/ingest",
            files={"file": (f"zorbak-{marker}.md", text.encode())},
            data={"metadata": '{"collection": "zorbak"}'},
        )
        assert accepted.status_code == 202, accepted.text
        doc_id, job_id = accepted.json()["document_id"], accepted.json()["ingestion_job_id"]
        assert doc_id and str(uuid.UUID(doc_id)) == doc_id
        assert client.get(f"/ingest/status/{job_id}").json()["document_id"] == doc_id
        done = wait_job(client, job_id)
        assert done["status"] == "succeeded" and done["document_id"] == doc_id
        assert client.get(f"/documents/{doc_id}").json()["collection"] == "zorbak"
        scope = {"collections": ["zorbak"]}
        body = client.post(
            "/query", json={"query": "How is zorbak fever diagnosed?", "filters": scope}
        ).json()
        assert body["contexts"] and {c["document_id"] for c in body["contexts"]} == {doc_id}


def _sample(name: str) -> bytes:
    from .conftest import SAMPLE_CORPUS

    return (SAMPLE_CORPUS / name).read_bytes()


def test_ingest_by_file_id_reuses_an_upload_of_the_same_tenant(
    live: LiveServer, corpus_a: dict[str, Any]
) -> None:
    with live.client(KEY_A) as a, live.client(KEY_B) as b:
        first = a.post("/ingest", files={"file": ("q_fever.md", _sample("q_fever.md"))}).json()
        again = a.post("/ingest", json={"file_id": first["file_id"], "file_name": "q.md"})
        assert again.status_code == 202, again.text
        other = b.post("/ingest", json={"file_id": first["file_id"], "file_name": "q.md"})
        assert other.status_code == 422 and other.json()["error"]["field"] == "file_id"
        wait_job(a, first["ingestion_job_id"])
        wait_job(a, again.json()["ingestion_job_id"])


@pytest.fixture
def web_document(tmp_path: Path) -> Iterator[str]:
    """The URL of a markdown file served over HTTP on loopback."""
    marker = uuid.uuid4().hex
    (tmp_path / "urlfever.md").write_text(
        f"# Urlfever {marker}\n\nUrlfever is diagnosed by an urlfever antigen test.\n"
    )
    handler = functools.partial(SimpleHTTPRequestHandler, directory=str(tmp_path))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/urlfever.md"
    finally:
        server.shutdown()


def test_ingest_by_url_keeps_the_seeds_metadata(live: LiveServer, web_document: str) -> None:
    from disputatio.api.auth import hash_key

    key = f"key-web-{uuid.uuid4().hex}"  # a tenant of this test alone
    live.settings.server.api_keys[hash_key(key)] = "api-web"
    live.settings.server.ingest_private_urls = True  # the test's web server is on loopback
    try:
        with live.client(key) as client:
            accepted = client.post(
                "/ingest",
                json={
                    "url": web_document,
                    "mime_type": "text/markdown",
                    "language": "en",
                    "metadata": {"collection": "web", "tags": ["fever"], "external_id": "ext-7"},
                },
            )
            assert accepted.status_code == 202, accepted.text
            job = wait_job(client, accepted.json()["ingestion_job_id"])
            assert job["status"] == "succeeded", job
            doc = client.get(f"/documents/{accepted.json()['document_id']}").json()
    finally:
        del live.settings.server.api_keys[hash_key(key)]
        live.settings.server.ingest_private_urls = False
    assert "antigen" in doc["markdown"]
    assert doc["collection"] == "web" and doc["tags"] == ["fever"]
    assert doc["metadata"]["external_id"] == "ext-7" and doc["metadata"]["url"] == web_document


def test_ingest_refuses_urls_into_the_servers_own_network(
    live: LiveServer, web_document: str
) -> None:
    assert live.settings.server.ingest_private_urls is False  # the default
    before = {t: _count(live, t) for t in ("api_jobs", "documents")}
    with live.client() as client:
        for url in (
            web_document,
            "http://[::1]:9/x",
            "http://10.1.2.3/x",
            "http://169.254.169.254/",
        ):
            resp = client.post("/ingest", json={"url": url, "file_name": "x.md"})
            assert resp.status_code == 422, (url, resp.text)
            assert resp.json()["error"]["field"] == "url"
            assert "public addresses only" in resp.json()["error"]["message"]
    assert {t: _count(live, t) for t in ("api_jobs", "documents")} == before


def test_query_answers_with_contexts_and_trace(live: LiveServer, corpus_a: dict[str, Any]) -> None:
    with live.client() as client:
        resp = client.post(
            "/query",
            json={"query": "How is brucellosis diagnosed?", "top_k": 3,
                  "filters": {"collections": ["sample"]}, "return_context": True},
        )  # fmt: skip
    assert resp.status_code == 200, resp.text
    body = resp.json()
    assert body["answer"] and body["contexts"]
    ctx = body["contexts"][0]
    assert set(ctx) == {"document_id", "parent_chunk_id", "score", "snippet", "metadata"}
    assert set(ctx["metadata"]) >= {"page", "section_heading"}
    ids = {c["parent_chunk_id"] for c in body["contexts"]}
    assert set(body["citations"]) <= ids and body["citations"]
    trace = body["trace"]
    assert trace["max_rerank_score"] > 0 and trace["channels_used"]
    assert "total" in trace["timings_ms"]
    owned = {job["document_id"] for job in corpus_a.values()}
    assert {c["document_id"] for c in body["contexts"]} <= owned


def test_query_refusal_shape(live: LiveServer, corpus_a: dict[str, Any]) -> None:
    with live.client(KEY_B) as client:  # tenant B has no documents: nothing can be relevant
        body = client.post("/query", json={"query": "How is brucellosis diagnosed?"}).json()
    assert body["answer"] is None
    assert body["error"]["code"] == "NO_SUITABLE_CONTEXT"
    assert isinstance(body["error"]["max_rerank_score"], int | float)
    assert body["error"]["message"]


def test_a_tenant_at_its_query_limit_is_refused_while_others_are_answered(
    live: LiveServer, corpus_a: dict[str, Any]
) -> None:
    limit = live.settings.server.max_queries_per_tenant
    query = {"query": "How is brucellosis diagnosed?"}
    with contextlib.ExitStack() as stack:  # tenant A has `limit` queries in flight
        held = [stack.enter_context(live.services.queries.hold(TENANT_A, limit))]
        held += [stack.enter_context(live.services.queries.hold(TENANT_A, limit))
                 for _ in range(limit - 1)]  # fmt: skip
        assert all(held)
        with live.client(KEY_A) as a:
            refused = a.post("/query", json=query)
        assert refused.status_code == 429 and refused.headers["Retry-After"]
        err = refused.json()["error"]
        assert err["code"] == "TOO_MANY_QUERIES" and err["retryable"]
        with live.client(KEY_B) as b:  # another tenant is not held back
            assert b.post("/query", json=query).status_code == 200
        assert live.services.queries.active(TENANT_B) == 0  # released once answered
    with live.client(KEY_A) as a:  # once A's queries are answered, A is served again
        assert a.post("/query", json=query).status_code == 200
    assert live.services.queries.active(TENANT_A) == 0


def test_tenants_are_isolated_on_documents_jobs_and_queries(
    live: LiveServer, corpus_a: dict[str, Any]
) -> None:
    doc_id = corpus_a["brucellosis.txt"]["document_id"]
    job_id = corpus_a["brucellosis.txt"]["ingestion_job_id"]
    with live.client(KEY_B) as b:
        assert b.get("/documents").json()["documents"] == []
        assert b.get(f"/documents/{doc_id}").status_code == 404
        assert b.get(f"/ingest/status/{job_id}").status_code == 404
        body = b.post("/query", json={"query": "brucellosis diagnosis serology"}).json()
        assert body["answer"] is None
    with live.client(KEY_A) as a:
        assert a.get(f"/documents/{doc_id}").status_code == 200
        contexts = a.post("/query", json={"query": "How is brucellosis diagnosed?"}).json()
        first = contexts["contexts"][0]
        section_id = first["parent_chunk_id"]
        section = a.get(f"/sections/{section_id}").json()
        assert section["document_id"] == first["document_id"]
        assert section["text"].startswith(first["snippet"][:100])
    with live.client(KEY_B) as b:  # a citation's source is its tenant's alone
        assert b.get(f"/sections/{section_id}").status_code == 404


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        ({"query": ""}, "query"),
        ({"query": "x" * 501}, "query"),
        ({"query": "ok", "top_k": 0}, "top_k"),
        ({"query": "ok", "top_k": 1000}, "top_k"),
        ({"query": " \n\t "}, "query"),  # whitespace only: nothing to answer
        ({"question": "no query field"}, "query"),
    ],
)
def test_query_validation_names_the_field(
    live: LiveServer, payload: dict[str, Any], field: str
) -> None:
    with live.client() as client:
        resp = client.post("/query", json=payload)
    assert resp.status_code == 422, resp.text
    err = resp.json()["error"]
    assert err["field"] == field and err["code"] == "INVALID_FIELD" and not err["retryable"]


def test_a_tenant_in_the_body_is_overwritten_by_the_keys(
    live: LiveServer, corpus_a: dict[str, Any]
) -> None:
    """As the README says: the key's tenant wins; naming another tenant reads nothing of its."""
    question = "How is brucellosis diagnosed?"
    with live.client(KEY_B) as b, live.client(KEY_A) as a:
        claimed = b.post("/query", json={"query": question, "tenant": TENANT_A})
        own = a.post("/query", json={"query": question, "tenant": TENANT_B})
    assert claimed.status_code == 200 and own.status_code == 200, (claimed.text, own.text)
    assert claimed.json()["answer"] is None and not claimed.json().get("contexts")  # B's corpus
    assert own.json()["contexts"]  # A's corpus, whatever it named


def _uploads(live: LiveServer) -> list[str]:
    folder = live.settings.home / "api" / "uploads"
    return sorted(str(p) for p in folder.rglob("*")) if folder.exists() else []


def test_bad_requests_are_4xx_and_write_nothing(live: LiveServer) -> None:
    before = {t: _count(live, t) for t in ("api_jobs", "api_runs", "documents")}
    files_before = _uploads(live)
    with live.client() as client:
        malformed = client.post(
            "/query", content=b'{"query": "x",', headers={"Content-Type": "application/json"}
        )
        assert malformed.status_code == 400
        assert malformed.json()["error"]["code"] == "MALFORMED_JSON"
        bad_debate = client.post("/debate/start", content=b"{nope", headers={
            "Content-Type": "application/json"})  # fmt: skip
        assert bad_debate.status_code == 400
        big = b"a" * int(0.3 * 1024 * 1024)
        oversize = client.post("/ingest", files={"file": ("big.txt", big)})
        assert oversize.status_code == 413 and oversize.json()["error"]["code"] == "TOO_LARGE"
        protocol = client.post("/debate/start", json={"protocol": "chess", "question": "?"})
        assert protocol.status_code == 422 and protocol.json()["error"]["field"] == "protocol"
        medrag = client.post("/debate/start", json={"protocol": "medrag", "question": "?"})
        assert medrag.status_code == 422 and medrag.json()["error"]["field"] == "options"
        rdc = client.post("/debate/start", json={"protocol": "rdc", "case": {"id": "x"}})
        assert rdc.status_code == 422 and rdc.json()["error"]["field"].startswith("case.")
        huge = client.post("/query", json={"query": "x" * 70_000})
        assert huge.status_code == 413
        no_file = client.post("/ingest", json={"file_name": "a.txt"})
        assert no_file.status_code == 422 and no_file.json()["error"]["field"] == "url"
        garbled = client.post(
            "/ingest",
            content=b"not multipart",
            headers={"Content-Type": "multipart/form-data; boundary=zz"},
        )
        assert garbled.status_code == 400 and garbled.json()["error"]["field"] == "file"
        media = client.post("/ingest", content=b"x", headers={"Content-Type": "text/plain"})
        assert media.status_code == 415
        assert client.get("/no/such/route").status_code == 404
    after = {t: _count(live, t) for t in ("api_jobs", "api_runs", "documents")}
    assert after == before
    assert _uploads(live) == files_before  # no file kept either


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
