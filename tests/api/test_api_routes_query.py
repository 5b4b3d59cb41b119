"""The API on a live server: /query answers, refusals, validation, limits, tenants."""

from __future__ import annotations

import contextlib
from typing import Any

import pytest

from .conftest import KEY_A, KEY_B, TENANT_A, TENANT_B, LiveServer

pytestmark = pytest.mark.integration


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
