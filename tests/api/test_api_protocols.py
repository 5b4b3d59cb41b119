"""The referee's clarification interrupt answered over HTTP, the RDC graph, verdict and ledger
routes, and the MedRAG debate's stream and verdict (scripted agents)."""

from __future__ import annotations

import uuid

import pytest

from disputatio.api import store
from disputatio.nodes.rdc.memory import NAMESPACE
from disputatio.storage.checkpoint import open_store

from .conftest import KEY_B, TENANT_A, LiveServer, read_sse, start_debate, unserved

pytestmark = pytest.mark.integration


def test_referee_clarification_is_answered_over_http(live: LiveServer) -> None:
    with live.client() as client:
        body = {"protocol": "referee", "question": "Which vector store?"}
        started, events = start_debate(client, body, stop_on=("interrupt",))
        case_id = started["case_id"]
        interrupt = events[-1]
        assert interrupt["event"] == "interrupt", events
        questions = interrupt["data"]["value"]["questions"]
        assert questions[0]["id"] == "q1" and "FAISS" in questions[0]["choices"]
        assert client.get(f"/debate/{case_id}").json()["status"] == "interrupted"
        with live.client(KEY_B) as other:
            forbidden = other.post(f"/debate/{case_id}/clarify", json={"answers": {}})
            assert forbidden.status_code == 403
        bad = client.post(f"/debate/{case_id}/clarify", json={"answer": "FAISS"})
        assert bad.status_code == 422 and bad.json()["error"]["field"] == "answers"
        answered = client.post(f"/debate/{case_id}/clarify", json={"answers": {"q1": ["FAISS"]}})
        assert answered.status_code == 202, answered.text
        last = max(int(e["id"]) for e in events if "id" in e)
        with client.stream(
            "GET", f"/debate/{case_id}/stream", headers={"Last-Event-ID": str(last)}
        ) as resp:
            rest = read_sse(resp)
        assert rest[-1]["data"]["status"] == "done", rest[-3:]
        verdict = client.get(f"/debate/{case_id}/verdict").json()
        assert verdict["ruling"]["recommendation"] == "FAISS"
        assert [o["name"] for o in verdict["plan"]["options"]] == ["pgvector", "FAISS"]
        moves = [e["data"]["field"] for e in events + rest if e["event"] == "move"]
        assert {"clarifications", "briefs", "cross_examinations"} <= set(moves)
        again = client.post(f"/debate/{case_id}/clarify", json={"answers": {"q1": ["FAISS"]}})
        assert again.status_code == 409 and again.json()["error"]["code"] == "NOT_WAITING"
        assert client.get(f"/debate/{case_id}/graph").status_code == 404  # no graph: a 4xx


def test_rdc_debate_graph_verdict_and_ledger(live: LiveServer) -> None:
    with live.client() as client:
        case = client.get("/debate/cases").json()["cases"][0]
        started, events = start_debate(client, {"protocol": "rdc", "case": case})
        case_id = started["case_id"]
        assert events[-1]["data"]["status"] == "done", events[-3:]
        assert any(e["event"] == "graph" for e in events)
        assert any(e["event"] == "posterior" for e in events)
        verdict = client.get(f"/debate/{case_id}/verdict").json()["verdict"]
        posteriors = [row["posterior"] for row in verdict["differential"]]
        assert len(posteriors) == len(case["hypotheses"])
        assert abs(sum(posteriors) - 1.0) < 1e-6
        jsonld = client.get(f"/debate/{case_id}/graph").json()
        assert "@graph" in jsonld and "@context" in jsonld
        graphml = client.get(f"/debate/{case_id}/graph?format=graphml")
        assert graphml.headers["content-type"].startswith("application/graphml+xml")
        assert "<graphml" in graphml.text
        ledger = client.get(f"/debate/{case_id}/ledger").json()
        assert ledger["entries"] and ledger["verified"] is True
        # checked against the head the verdict anchored, not only the head table
        assert ledger["anchored"] is True
        assert len(ledger["entries"]) == verdict["ledger"]["entries"]
        assert client.get(f"/debate/{case_id}/graph?format=png").status_code == 422
        # the specialists' private diaries went to the LangGraph store (seed §9), per tenant
        with open_store(live.settings) as long_term:
            for agent in ("infectious", "autoimmune"):
                diary = long_term.search((NAMESPACE, TENANT_A, agent), limit=1000)
                assert verdict["run_id"] in {item.key for item in diary}, agent
        with live.client(KEY_B) as other:
            assert other.get(f"/debate/{case_id}/ledger").status_code == 403


def test_medrag_debate_streams_each_agents_turns_and_answers_the_verdict(
    live: LiveServer,
) -> None:
    options = {"A": "A chest X-ray", "B": "Blood culture and serology"}
    with live.client() as client:
        started, events = start_debate(
            client,
            {"protocol": "medrag", "question": "How is brucellosis diagnosed?", "options": options},
        )
        case_id = started["case_id"]
        assert events[-1]["event"] == "end" and events[-1]["data"]["status"] == "done", events[-3:]
        moves = [e["data"] for e in events if e["event"] == "move"]
        turns = [m["move"] for m in moves if m["field"] == "turns"]
        assert sorted((t["agent"], t["round"]) for t in turns) == [
            ("agent1", 1), ("agent1", 2), ("agent2", 1), ("agent2", 2)
        ]  # fmt: skip
        summaries = [m["move"] for m in moves if m["field"] == "summaries"]
        assert len(summaries) == 2  # one per agent after the round-1 disagreement
        assert [int(e["id"]) for e in events if "id" in e] == sorted(
            {int(e["id"]) for e in events if "id" in e}
        )  # each event once, in order
        verdict = client.get(f"/debate/{case_id}/verdict").json()
        assert (verdict["answer"], verdict["consensus_type"], verdict["agreement_round"]) == (
            "B", "agreement", 2
        )  # fmt: skip
        with live.client(KEY_B) as other:
            assert other.get(f"/debate/{case_id}/verdict").status_code == 403
    # each agent saw the retrieved sections; in round 2 it saw the other agent's summary only
    agent1 = live.fakes.models[("medrag_debate", TENANT_A, "agent1")]
    agent2 = live.fakes.models[("medrag_debate", TENANT_A, "agent2")]
    assert agent1.calls == agent2.calls == 2
    round1 = "\n".join(str(m.content) for m in agent1.prompts[0])
    round2 = "\n".join(str(m.content) for m in agent1.prompts[1])
    assert "Rose Bengal" in round1 and "SUMMARY-OF" not in round1
    assert "SUMMARY-OF-AGENT2" in round2 and "SUMMARY-OF-AGENT1" not in round2


def test_a_steps_last_events_and_the_status_they_announce_are_written_together(
    live: LiveServer,
) -> None:
    """The referee's interrupt event came before its ``interrupted`` status (CI, 2026-12-02:
    a client polled ``running`` after reading the interrupt); one transaction writes both."""
    case_id = str(uuid.uuid4())
    run = {"id": case_id, "tenant": TENANT_A, "protocol": "referee",
           "question": "q?", "request": {"question": "q?"}}  # fmt: skip
    store.create_run(unserved(live.settings), run)  # recorded: no worker runs it
    try:
        asks = [("interrupt:a", "interrupt", {"interrupt_id": "a", "value": {"q": 1}})]
        assert store.update_run_with_events(live.settings, case_id, asks, status="interrupted")
        assert store.run_status(live.settings, case_id) == "interrupted"
        assert [e["type"] for e in store.events_after(live.settings, case_id, 0)] == ["interrupt"]
        assert store.cancel_run(live.settings, case_id)
        late = [("final", "final", {"verdict": {}})]
        assert not store.update_run_with_events(live.settings, case_id, late, status="done")
        assert store.run_status(live.settings, case_id) == "cancelled"  # and no final event
        assert [e["type"] for e in store.events_after(live.settings, case_id, 0)] == [
            "interrupt",
            "cancelled",
        ]
    finally:
        store.delete_run(live.settings, TENANT_A, case_id)
