"""The claims a ruling rests on are judged against the sections their advocates cited."""

from __future__ import annotations

import uuid
from typing import Any

from langgraph.checkpoint.memory import InMemorySaver

from disputatio.graphs.referee import RefereeContext, build_graph

from .referee_fakes import AXIS_NAMES, context, happy_models, ruling_reply


def _run(ctx: RefereeContext) -> dict[str, Any]:
    graph: Any = build_graph(max_attempts=1).compile(checkpointer=InMemorySaver())
    thread = {"configurable": {"thread_id": f"t-{uuid.uuid4()}"}}
    return dict(graph.invoke({"query": "pgvector or FAISS?"}, thread, context=ctx))


def _advocate(option: str, latency: str, cite: str) -> dict[str, Any]:
    claims = [{"axis": AXIS_NAMES[0], "text": latency, "citations": [cite]}]
    claims += [
        {"axis": a, "text": f"{option} is fine for {a}", "citations": []} for a in AXIS_NAMES[1:]
    ]
    return {"summary": f"{option} fits", "claims": claims, "weaknesses": []}


def _models() -> dict[str, Any]:
    reply = ruling_reply({}, "FAISS", confidence="high")
    reply["scores"] = [
        {"option": o, "axis": a, "score": n, "rationale": "r", "evidence": [f"{o.lower()}#{i}"]}
        for o, a, n, i in [
            ("pgvector", "latency", 6, 1),
            ("pgvector", "operations", 9, 2),
            ("FAISS", "latency", 9, 1),
            ("FAISS", "operations", 4, 2),
        ]
    ]
    return happy_models(
        advocate_pgvector=[
            _advocate("pgvector", "pgvector adds vector similarity search to PostgreSQL.", "pg-1")
        ],
        advocate_faiss=[  # fa-1 says billions of vectors, not trillions
            _advocate("FAISS", "FAISS searches trillions of vectors in memory.", "fa-1")
        ],
        referee=[reply],
    )


def test_each_advocate_claim_carries_its_verdict_and_the_ruling_names_weak_scores() -> None:
    out = _run(context(_models()))
    by_id = {c["id"]: c for c in out["claims"]}
    assert by_id["pgvector#1"]["verdict"] == "supported"
    assert by_id["pgvector#1"]["evidence"]["section_id"] == "pg-1"
    assert by_id["faiss#1"]["verdict"] == "unsupported"
    assert by_id["faiss#1"]["part"] == "FAISS / latency"
    assert by_id["faiss#2"]["verdict"] == "uncited"
    caveat = next(c for c in out["ruling"]["caveats"] if c.startswith("Scores resting on"))
    assert "FAISS / latency" in caveat and "pgvector / latency" not in caveat
