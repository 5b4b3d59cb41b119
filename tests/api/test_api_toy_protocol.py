"""A toy protocol registered in the graph registry is served by ``POST /debate/start``: it is
listed by ``GET /debate/protocols``, its moves stream, its verdict has its fields, its graph
export is served by ``GET /debate/{id}/graph``, and it is refused again once unregistered."""

from __future__ import annotations

import pytest
from toy_protocol import export_graph, toy_registered

from disputatio.graphs import registry

from .conftest import LiveServer, start_debate

pytestmark = pytest.mark.integration


def test_a_registered_toy_protocol_is_listed_run_answered_and_graphed(live: LiveServer) -> None:
    question = {"protocol": "toy", "question": "Is this an echo?"}
    with live.client() as client, toy_registered():
        listed = client.get("/debate/protocols").json()["protocols"]
        assert listed[-1] == {"protocol": "toy", "label": "Toy echo",
                              "description": "echoes the question", "needs_question": True,
                              "needs_options": False, "option_forms": ["letters", "names"],
                              "graph": True}  # fmt: skip
        started, events = start_debate(client, question)
        assert started["protocol"] == "toy"
        case_id = started["case_id"]
        assert events[-1]["data"]["status"] == "done", events[-3:]
        moves = [e["data"] for e in events if e["event"] == "move"]
        assert moves == [
            {"field": "moves", "index": 0,
             "move": {"agent": "echo", "content": "Echo: Is this an echo?"}}
        ]  # fmt: skip
        verdict = client.get(f"/debate/{case_id}/verdict").json()
        assert verdict == {"case_id": case_id, "protocol": "toy", "question": "Is this an echo?",
                           "answer": "Echo: Is this an echo?", "claims": []}  # fmt: skip
        final = next(e for e in events if e["event"] == "final")["data"]["verdict"]
        assert final == verdict
        jsonld, graphml = export_graph({"answer": verdict["answer"]}, case_id)
        served = client.get(f"/debate/{case_id}/graph")
        assert served.headers["content-type"].startswith("application/ld+json")
        assert served.json() == jsonld
        as_graphml = client.get(f"/debate/{case_id}/graph?format=graphml")
        assert as_graphml.headers["content-type"].startswith("application/graphml+xml")
        assert as_graphml.text == graphml
    with live.client() as client:
        refused = client.post("/debate/start", json=question)
        served_now = client.get("/debate/protocols").json()["protocols"]
        gone = client.get(f"/debate/{case_id}/graph")  # its run stays; its export went with it
    assert refused.status_code == 422 and refused.json()["error"]["field"] == "protocol"
    assert [p["protocol"] for p in served_now] == list(registry.api_protocols())
    assert "toy" not in registry.api_protocols()
    assert gone.status_code == 404 and gone.json()["error"]["code"] == "NO_GRAPH"
