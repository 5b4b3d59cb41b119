"""ResearchDebateChain end to end: the real local model, the sample corpus, Postgres.

Kept small for 2 CPU cores: 2 specialists, 1 round of one turn per phase, no structured-output
retry. Completions get the product default (models.max_tokens, 1024): a move is pretty-printed
JSON (~300 tokens for two claims), and at 512 every turn of the 0.5B was cut off
(LengthFinishReasonError). The test fails when every turn is forfeited or no claim is accepted:
the model must really have argued, with traceable provenance, for the debate to count.
"""

from __future__ import annotations

import json
import math
import uuid
from importlib import resources
from typing import Any

import pytest

from disputatio.argumentation import DebateGraph, NodeKind
from disputatio.graphs.rdc import RdcContext, build_graph
from disputatio.retrievers.base import CorpusRetriever
from disputatio.settings import Settings
from disputatio.storage.checkpoint import open_checkpointer
from disputatio.storage.db import connect
from disputatio.storage.ledger import PostgresLedger, read_entries, verify

pytestmark = [pytest.mark.integration, pytest.mark.model]


def test_rdc_end_to_end_on_the_local_model(
    settings: Settings, corpus_retriever: CorpusRetriever, db_url: str
) -> None:
    case = json.loads(
        (resources.files("disputatio") / "data" / "cases" / "rare_disease.json").read_text()
    )
    context = RdcContext(
        settings=settings,
        retriever=corpus_retriever,
        specialists=["infectious", "autoimmune"],
        max_rounds=1,
        turns_per_phase=1,
        entropy_stop=0.0,
        voi_stop=0.0,
        appeal=False,
        max_tokens=None,
        retries=0,
        sections_per_turn=2,
        section_chars=500,
        graph_lines=10,
        ledger=PostgresLedger(settings),
    )
    thread = f"rdc-e2e-{uuid.uuid4().hex[:8]}"
    config: Any = {"configurable": {"thread_id": thread}}
    with open_checkpointer(settings) as saver:
        app = build_graph().compile(checkpointer=saver)
        stream: Any = app.stream(
            {"case": case}, config, context=context, stream_mode=["updates", "custom"]
        )
        events = [chunk for mode, chunk in stream if mode == "custom"]
        out = app.get_state(config).values
    assert out["phase_log"] == ["seeding", "challenges", "rebuttal", "cross_examination", "vote",
                                "jury"]  # fmt: skip
    assert [e["agent"] for e in events if e["event"] == "turn"] == [
        "infectious",
        "autoimmune",
        "infectious",
    ]
    # the turns happened and the model's moves were accepted (not all forfeited)
    assert len(out["moves"]) == 3 and out["verdict"]["turns"] == 3
    forfeits = [r for r in out["rejected"] if r["what"] == "move"]
    assert len(forfeits) < 3, f"every turn was forfeited: {forfeits}"
    accepted = [n for m in out["moves"] for n in m["nodes"]]
    assert accepted, f"no claim was accepted; rejected: {out['rejected']}"
    assert any(v["ranking"] for v in out["votes"]), "every specialist abstained"
    verdict = out["verdict"]
    posteriors = [row["posterior"] for row in verdict["differential"]]
    assert math.fsum(posteriors) == pytest.approx(1.0)
    assert posteriors == sorted(posteriors, reverse=True)
    utilities = [t["utility"] for t in verdict["test_plan"]]
    assert utilities and utilities == sorted(utilities, reverse=True)
    assert all(t["risk"] <= 0.5 for t in verdict["test_plan"])
    # every node the model added rests on retrieved sections or case evidence
    graph = DebateGraph.from_dict(out["graph"])
    claims = {n for n in accepted if graph.node(n).kind is NodeKind.EVIDENCE}
    assert claims <= set(verdict["admitted_evidence"]) | set(verdict["excluded_evidence"])
    case_ids = {e["id"] for e in case["evidence"]}
    for move in out["moves"]:
        for node_id in move["nodes"]:
            assert set(graph.node(node_id).provenance) <= set(out["retrieved_ids"]) | case_ids
    with connect(settings) as conn:
        result = verify(conn, thread, anchor=(verdict["ledger"]["entries"] - 1,
                                              verdict["ledger"]["head_hash"]))  # fmt: skip
        kinds = [e.kind for e in read_entries(conn, thread)]
    assert result.ok, result.reason
    assert verdict["ledger"]["entries"] == result.entries
    assert kinds.count("move") == 3 and kinds[-1] == "verdict"
