"""A toy protocol registered in the graph registry is served by ``POST /debate/start``: its
moves stream, its verdict has its fields, and it is refused again once unregistered."""

from __future__ import annotations

import pytest
from toy_protocol import toy_registered

from .conftest import LiveServer, start_debate

pytestmark = pytest.mark.integration


def test_a_registered_toy_protocol_is_accepted_streamed_and_answered(live: LiveServer) -> None:
    question = {"protocol": "toy", "question": "Is this an echo?"}
    with live.client() as client, toy_registered():
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
        assert client.get(f"/debate/{case_id}/graph").status_code == 404  # it builds no graph
    with live.client() as client:
        refused = client.post("/debate/start", json=question)
    assert refused.status_code == 422 and refused.json()["error"]["field"] == "protocol"
