"""The API on a live server: auth, health, ingestion, and bad requests writing nothing."""

from __future__ import annotations

import functools
import threading
import uuid
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from disputatio.api import store

from .conftest import KEY_A, KEY_B, TENANT_A, LiveServer, wait_job

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
