"""The MedRAG debate end to end on the real local model (0.5B) over the sample corpus.

One round with the default k, section length and token budgets (the agents write their own
search call, then answer). Structure only: a 0.5B model is no accuracy reference.
"""

from __future__ import annotations

from typing import Any

import pytest

from disputatio.graphs.medrag_debate import MedragContext, graph
from disputatio.retrievers.base import CorpusRetriever
from disputatio.settings import Settings
from disputatio.state.medrag import CONSENSUS_TYPES

pytestmark = [pytest.mark.integration, pytest.mark.model]

QUESTION = "Which Brucella species is the most common and most virulent cause of human disease?"
OPTIONS = {
    "A": "Brucella abortus",
    "B": "Brucella melitensis",
    "C": "Brucella suis",
    "D": "Brucella canis",
}


def test_debate_runs_on_the_local_model(
    settings: Settings, corpus_retriever: CorpusRetriever
) -> None:
    ctx = MedragContext(settings=settings, retriever=corpus_retriever, rounds=1)
    events: list[Any] = []
    out: Any = {}
    inputs = {"question": QUESTION, "options": OPTIONS, "question_id": "brucella-1"}
    for mode, chunk in graph.stream(inputs, context=ctx, stream_mode=["custom", "values"]):
        if mode == "custom":
            events.append(chunk)
        else:
            out = chunk
    assert out["consensus_type"] in CONSENSUS_TYPES
    if out["consensus_type"] == "failed":
        assert out["answer"] is None
    else:
        assert out["answer"] in OPTIONS
    log = out["log"]
    assert {(t["agent"], t["round"]) for t in out["turns"]} == {("agent1", 1), ("agent2", 1)}
    assert all(
        t["status"] in {"OK", "PARSE_FAILED", "INVALID_CHOICE", "ERROR"} for t in out["turns"]
    )
    k = settings.medrag.k
    assert all(len(r["ids"]) <= k and len(r["ids"]) == len(r["scores"]) for r in log["retrieval"])
    assert all(h["query"] and h["query_source"] in {"agent", "question"} for h in log["history"])
    assert log["mode"] == "debate_rag" and log["final_answer"]["answer_choice"] == out["answer"]
    steps = [s["step"] for s in log["timings"]["steps"]]
    assert steps.count("agent_turn") == 2 and all(s["ms"] > 0 for s in log["timings"]["steps"])
    assert log["timings"]["total_ms"] > 0
    assert out["usage"]["agent1"]["calls"] == out["usage"]["agent2"]["calls"] == 2
    assert out["usage"]["agent1"]["output_tokens"] > 0
    assert events[-1]["event"] == "done"
