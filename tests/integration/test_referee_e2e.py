"""The Tech Referee end to end on the real local model (0.5B) over the sample corpus.

Structure only: a 0.5B model is no accuracy reference. Two options and two axes are fixed
by the user, so the planner only fills constraints; no clarification is asked. Every phase
must complete (plan, advocacy, cross-examination, verdict); the content of the verdict is
only checked for consistency (totals from the cells, a recommendation among the options).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from disputatio.graphs.referee import RefereeContext, build_graph
from disputatio.reports import write_referee_report
from disputatio.retrievers.base import CorpusRetriever
from disputatio.settings import Settings
from disputatio.state.referee import PHASES, RefereeResult

pytestmark = [pytest.mark.integration, pytest.mark.model]

INPUTS = {
    "query": "pgvector or FAISS for vector search in a small RAG application?",
    "options": ["pgvector", "FAISS"],
    "axes": [
        {"name": "operational simplicity", "weight": 7},
        {"name": "search speed", "weight": 4},
    ],
}


def test_referee_runs_on_the_local_model(
    settings: Settings, corpus_retriever: CorpusRetriever, tmp_path: Path
) -> None:
    ctx = RefereeContext(
        settings=settings,
        retriever=corpus_retriever,
        max_clarifications=0,
        max_tokens=640,
        k_per_query=2,
        max_sections=3,
        section_chars=300,
        max_claims_checked=1,
        max_fill_rounds=1,
        structured_retries=1,
    )
    graph = build_graph(max_attempts=1).compile()
    events: list[Any] = []
    out: dict[str, Any] = {}
    for mode, chunk in graph.stream(INPUTS, context=ctx, stream_mode=["custom", "values"]):
        if mode == "custom":
            events.append(chunk)
        elif isinstance(chunk, dict):
            out = chunk
    result = RefereeResult.model_validate(out)

    assert result.plan is not None
    assert [o.name for o in result.plan.options] == ["pgvector", "FAISS"]
    assert [(a.name, a.weight) for a in result.plan.axes] == [
        ("operational simplicity", 7),
        ("search speed", 4),
    ]
    # every phase completed, in order, with no error: a run that stops early fails here
    assert result.status == "ok", (result.error, result.errors)
    assert result.completed_phases == list(PHASES)
    assert result.error is None and result.errors == []
    assert "planner" in result.usage and result.usage["planner"]["calls"] >= 1
    done = {e.get("agent") for e in events if e.get("status") == "done"}
    assert {"planner", "referee"} <= done
    # one brief and one cross-examination per option, each by its own agent
    assert sorted(b.agent for b in result.briefs) == ["advocate-faiss", "advocate-pgvector"]
    assert sorted(e.agent for e in result.cross_examinations) == [
        "examiner-faiss",
        "examiner-pgvector",
    ]
    for brief in result.briefs:
        assert brief.sources  # the corpus was searched and shown
        assert all(set(c.citations) <= set(brief.sources) for c in brief.claims)
    # the referee's cells: at most the 2 × 2 grid, totals computed in code from them
    ruling = result.ruling
    assert ruling is not None and len(ruling.totals) == 2
    weights = {a.name: a.weight for a in result.plan.axes}
    for total in ruling.totals:
        cells = [s for s in ruling.scores if s.option == total.option]
        assert total.weighted_sum == sum(weights[s.axis] * s.score for s in cells)
    if ruling.degenerate or ruling.no_clear_winner:  # reported, not presented as a verdict
        assert ruling.confidence == "low"
        assert ruling.recommendation == "" or ruling.overridden_by
    else:
        assert ruling.recommendation in ("pgvector", "FAISS")
    assert ruling.keys and ruling.rendered.count("_Table{") == 1
    md, _ = write_referee_report(result, tmp_path)
    assert "| Axis | Weight | pgvector | FAISS |" in md.read_text(encoding="utf-8")
