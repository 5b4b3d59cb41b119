"""Claims over HTTP: ``POST /query`` and ``GET /debate/{id}/verdict`` carry the answer's claims.

The quick answerer is scripted to restate a sentence it was shown (so the real, lexical
checker finds it supported) and to add a claim no sentence supports (a number that is in no
section), which is dropped from the answer.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from disputatio.api import store
from disputatio.api.schemas import DebateVerdict, QueryAnswer

from .conftest import KEY_A, KEY_B, TENANT_A, LiveServer, start_debate, unserved
from .fakes import UNSUPPORTED_CLAIM as UNSUPPORTED
from .fakes import restating

pytestmark = pytest.mark.integration


@pytest.fixture
def restated(live: LiveServer, monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The quick answerer restates a shown sentence and adds an unsupported claim."""
    shown: list[str] = []
    assert live.fakes is not None
    monkeypatch.setattr(live.fakes, "rag_reply", restating(shown))
    yield shown


def test_query_returns_the_claims_with_their_verdicts(
    live: LiveServer, corpus_a: dict[str, Any], restated: list[str]
) -> None:
    with live.client() as client:
        resp = client.post("/query", json={"query": "How is brucellosis diagnosed?", "debug": True})
    assert resp.status_code == 200, resp.text
    body = resp.json()
    QueryAnswer.model_validate(body)  # the documented shape
    claims = {c["text"].rstrip("."): c for c in body["claims"]}
    good = claims[restated[0].rstrip(".")]
    assert good["verdict"] == "supported" and not good["dropped"]
    assert " ".join(good["evidence"]["sentence"].split()) == restated[0]  # the span, as shown
    assert good["citations"] == [good["evidence"]["section_id"]] == body["citations"]
    bad = claims[UNSUPPORTED]
    assert bad["verdict"] == "unsupported" and bad["dropped"] and "4711" in bad["reason"]
    assert body["grounded"] is True and body["not_found"] is False
    assert "4711" not in body["answer"] and "4711" in body["trace"]["draft"]
    assert 0.0 < body["confidence"] < 1.0  # the fitted P(right) of the answer shown
    ids = {c["parent_chunk_id"] for c in body["contexts"]}
    assert good["evidence"]["section_id"] in ids


def test_a_refused_query_says_not_found(live: LiveServer, corpus_a: dict[str, Any]) -> None:
    with live.client(KEY_B) as client:  # tenant B has no documents
        body = client.post("/query", json={"query": "How is brucellosis diagnosed?"}).json()
    assert body["answer"] is None and body["error"]["code"] == "NO_SUITABLE_CONTEXT"
    assert body["not_found"] is True
    assert [c["verdict"] for c in body["claims"]] == ["not_found"]
    assert "nothing is ingested" in body["error"]["message"]  # an empty tenant says so


def test_the_verdict_and_the_final_event_carry_the_debates_claims(
    live: LiveServer, corpus_a: dict[str, Any]
) -> None:
    with live.client(KEY_A) as client:
        started, events = start_debate(
            client, {"protocol": "hierarchical", "question": "How is brucellosis diagnosed?"}
        )
        case_id = started["case_id"]
        verdict = client.get(f"/debate/{case_id}/verdict").json()
    assert events[-1]["data"]["status"] == "done", events[-3:]
    DebateVerdict.model_validate(verdict)
    claims = verdict["claims"]
    support = next(v for v in verdict["validation"] if v["name"] == "support")
    assert claims and claims == support["details"]["claims"]  # the support check's claims
    assert all("verdict" in c and "dropped" in c for c in claims)
    for claim in claims:  # what the answer says is what its kept claims say
        assert (claim["text"].rstrip(".") in verdict["answer"]) != claim["dropped"], claim
    final = next(e for e in events if e["event"] == "final")["data"]["verdict"]
    assert final["claims"] == claims


def test_a_verdict_stored_before_claims_answers_an_empty_list(live: LiveServer) -> None:
    case_id = str(uuid.uuid4())
    run = {"id": case_id, "tenant": TENANT_A, "protocol": "hierarchical",
           "question": "q?", "request": {"question": "q?"}}  # fmt: skip
    store.create_run(unserved(live.settings), run)  # recorded: no worker runs it
    old = {"question": "q?", "answer": "An old answer [s1].", "citations": [{"id": "s1"}],
           "confidence": 0.5, "notes": []}  # fmt: skip
    store.update_run(live.settings, case_id, status="done", result=old)
    try:
        with live.client(KEY_A) as client:
            verdict = client.get(f"/debate/{case_id}/verdict").json()
    finally:
        store.delete_run(live.settings, TENANT_A, case_id)
    assert verdict["claims"] == [] and verdict["answer"] == "An old answer [s1]."
    assert (verdict["case_id"], verdict["protocol"]) == (case_id, "hierarchical")
