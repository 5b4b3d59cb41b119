"""One request through the whole stack with the real local chat model (0.5B): /query answers
from the sample corpus, every claim it keeps supported by a sentence it was shown, judged by the
default (``judged``) claim checker with the same model as the judge."""

from __future__ import annotations

from typing import Any

import pytest

from disputatio.settings import Settings

from .conftest import KEY_A, start_server

pytestmark = [pytest.mark.integration, pytest.mark.model]


def test_query_answers_with_the_real_model(
    api_settings: Settings, corpus_a: dict[str, Any]
) -> None:
    grounding = api_settings.grounding.model_copy(update={"checker": "judged"})
    judged = api_settings.model_copy(update={"grounding": grounding})
    server = start_server(judged, None)  # no injected models: the settings' 0.5B
    try:
        # the model server starts on the first call and a 2-core machine may be busy: the
        # first answer can take minutes (91 s at load 5; over 120 s at load 7)
        with server.client(KEY_A, timeout=600.0) as client:
            health = client.get("/health").json()
            assert "injected" not in health["model_server"]["detail"]
            resp = client.post(
                "/query", json={"query": "How is brucellosis diagnosed?", "debug": True}
            )
        assert resp.status_code == 200, resp.text
        body = resp.json()
        assert body["answer"], body
        ids = {c["parent_chunk_id"] for c in body["contexts"]}
        assert set(body["citations"]) <= ids  # only sections it was shown survive
        assert body["trace"]["usage"]["answerer"]["calls"] >= 1  # the model really answered
        # the claims: every one kept in the answer is supported by a sentence of a shown section
        claims = body["claims"]
        assert claims and all(c["verdict"] or not c["factual"] for c in claims), claims
        kept = [c for c in claims if c["factual"] and not c["dropped"]]
        stated = [c for c in kept if c["verdict"] != "not_found"]
        assert stated or body["not_found"], claims  # an answer, or "the documents do not say"
        for claim in stated:
            assert claim["verdict"] == "supported", claims
            evidence = claim["evidence"]
            assert evidence["section_id"] in ids
            assert evidence["sentence"] and evidence["end"] > evidence["start"]
    finally:
        server.stop()
