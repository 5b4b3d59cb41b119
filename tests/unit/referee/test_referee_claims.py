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


def _models(
    faiss_latency: str = "FAISS searches trillions of vectors in memory.",
) -> dict[str, Any]:
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
        advocate_faiss=[_advocate("FAISS", faiss_latency, "fa-1")],  # fa-1: billions
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


def test_a_recommendation_no_supported_claim_backs_is_no_recommendation() -> None:
    """The demo corpus (2026-12-02): serology recommended "confidence: high" while none of its
    claims was supported. Here FAISS: its latency claim is unsupported, its operations claim
    cites nothing; pgvector's latency claim is supported."""
    out = _run(context(_models()))
    ruling = out["ruling"]
    assert ruling["recommendation"] == "" and ruling["confidence"] == "low"
    assert "FAISS" in ruling["unbacked"]
    assert ruling["caveats"][0].startswith("No recommendation on the evidence: no score of FAISS")
    assert ruling["rendered"].startswith("No recommendation on the evidence")
    assert ruling["unsupported_cells"] == [
        "pgvector / operations",
        "FAISS / latency",
        "FAISS / operations",
    ]
    assert ruling["leader"] == "FAISS"  # the totals are the referee's; only the verdict is held


def test_a_recommendation_partly_backed_keeps_its_option_at_medium_confidence() -> None:
    out = _run(context(_models(faiss_latency="FAISS searches billions of vectors in memory.")))
    ruling = out["ruling"]
    assert {c["id"]: c["verdict"] for c in out["claims"]}["faiss#1"] == "supported"
    assert ruling["recommendation"] == "FAISS" and ruling["confidence"] == "medium"
    assert not ruling["unbacked"]
    assert ruling["unsupported_cells"] == ["pgvector / operations", "FAISS / operations"]
