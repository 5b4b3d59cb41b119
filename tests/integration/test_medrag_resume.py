"""The MedRAG debate on Postgres: a run killed in round 2 resumes without repeating round 1;
the benchmark harness writes its rows and reuses finished threads.
"""

from __future__ import annotations

import subprocess
import sys
import uuid

import psycopg
import pytest
from langchain_core.runnables import RunnableConfig

from disputatio.eval.datasets import Question
from disputatio.eval.harness import run_benchmark
from disputatio.graphs.medrag_debate import MedragContext, build_graph
from disputatio.settings import Settings
from disputatio.state.retrieval import Section
from disputatio.storage.checkpoint import open_checkpointer
from disputatio.testing import FakeRetriever, ScriptedChatModel

pytestmark = pytest.mark.integration

OPTIONS = {"A": "Metformin", "B": "Aspirin"}
#: The one section the retriever returns, whatever the query.
METFORMIN = Section(id="s1", text="Metformin.")

#: Runs round 1 (A vs B), the summaries, then dies inside Agent1's round-2 reply.
CRASHING_RUN = r"""
import os, sys, time
from disputatio.graphs.medrag_debate import MedragContext, build_graph
from disputatio.settings import load_settings
from disputatio.state.retrieval import Section
from disputatio.storage.checkpoint import open_checkpointer
from disputatio.testing import FakeRetriever, ScriptedChatModel

def crash(_messages):
    time.sleep(0.5)  # let Agent2's round-2 turn finish and be saved first
    os._exit(1)

settings = load_settings(database_url=sys.argv[1])
models = {
    "agent1": ScriptedChatModel(script=["R1-AGENT1\nAnswer Choice: A", crash]),
    "agent2": ScriptedChatModel(script=["R1-AGENT2\nAnswer Choice: B", "Answer Choice: A"]),
    "agent1_summarizer": ScriptedChatModel(script=["AGENT1-R1-SUMMARY"]),
    "agent2_summarizer": ScriptedChatModel(script=["AGENT2-R1-SUMMARY"]),
}
retriever = FakeRetriever([Section(id="s1", text="Metformin.")], match_all=True)
ctx = MedragContext(models=models, retriever=retriever, settings=settings, agent_query=False)
with open_checkpointer(settings) as saver:
    graph = build_graph().compile(checkpointer=saver)
    graph.invoke(
        {"question": "Which drug is a biguanide?", "options": {"A": "Metformin", "B": "Aspirin"}},
        {"configurable": {"thread_id": sys.argv[2]}},
        context=ctx,
    )
sys.exit(3)
"""


def text_of(model: ScriptedChatModel, call: int) -> str:
    return "\n".join(str(m.content) for m in model.prompts[call])


def test_killed_debate_resumes_without_repeating_round_one(settings: Settings, db_url: str) -> None:
    thread_id = f"medrag-crash-{uuid.uuid4()}"
    proc = subprocess.run(
        [sys.executable, "-c", CRASHING_RUN, db_url, thread_id],
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert proc.returncode == 1, proc.stderr[-2000:]

    config: RunnableConfig = {"configurable": {"thread_id": thread_id}}
    resumed = {
        "agent1": ScriptedChatModel(script=["Convinced.\nAnswer Choice: A"], name="agent1"),
        "agent2": ScriptedChatModel(script=["Answer Choice: A"], name="agent2"),
        "agent1_summarizer": ScriptedChatModel(script=[], name="sum1"),
        "agent2_summarizer": ScriptedChatModel(script=[], name="sum2"),
    }
    retriever = FakeRetriever([METFORMIN], match_all=True)
    ctx = MedragContext(models=resumed, retriever=retriever, settings=settings, agent_query=False)
    with open_checkpointer(settings) as saver:
        graph = build_graph().compile(checkpointer=saver)
        snapshot = graph.get_state(config)
        assert snapshot.values["round"] == 2 and "agent_turn" in snapshot.next
        assert len(snapshot.values["summaries"]) == 2
        out = graph.invoke(None, config, context=ctx)

    # round 1 and its summaries were not repeated: only round-2 prompts reached the new models
    assert resumed["agent1"].calls == 1
    assert "AGENT2-R1-SUMMARY" in text_of(resumed["agent1"], 0)
    assert resumed["agent2"].calls <= 1  # 0 when its round-2 turn was saved before the crash
    assert all(
        "AGENT1-R1-SUMMARY" in text_of(resumed["agent2"], i) for i in range(resumed["agent2"].calls)
    )
    assert resumed["agent1_summarizer"].calls == resumed["agent2_summarizer"].calls == 0
    assert retriever.queries and all("R1-SUMMARY" in q for q in retriever.queries)
    # the final state holds each turn once; round 1 comes from the crashed process
    assert sorted((t["agent"], t["round"]) for t in out["turns"]) == [
        ("agent1", 1),
        ("agent1", 2),
        ("agent2", 1),
        ("agent2", 2),
    ]
    round1 = {t["agent"]: t["response"] for t in out["turns"] if t["round"] == 1}
    assert round1["agent1"].startswith("R1-AGENT1") and round1["agent2"].startswith("R1-AGENT2")
    assert (out["answer"], out["consensus_type"], out["agreement_round"]) == ("A", "agreement", 2)


def test_harness_writes_runs_messages_and_tool_calls(settings: Settings, db_url: str) -> None:
    models = {
        "agent1": ScriptedChatModel(script=["Answer Choice: A", "Answer Choice: A"]),
        "agent2": ScriptedChatModel(script=["Answer Choice: B", "Answer Choice: B"]),
        "summarizer": ScriptedChatModel(script=["sum"], repeat_last=True),
        "verifier": ScriptedChatModel(script=["Answer Choice: A"]),
    }
    ctx = MedragContext(
        models=models,
        retriever=FakeRetriever([METFORMIN], match_all=True),
        settings=settings,
        agent_query=False,
    )
    question = Question(
        id="q-db", dataset="toy", question="Which biguanide?", options=OPTIONS, gold="A"
    )
    name = f"db-test-{uuid.uuid4()}"
    with open_checkpointer(settings) as saver:
        result = run_benchmark(
            [question], "debate", context=ctx, name=name, save_db=True, checkpointer=saver
        )
        # a second run of the same experiment reuses the finished thread: no model is called
        again = run_benchmark([question], "debate", context=ctx, name=name, checkpointer=saver)
    assert again["questions"][0]["answer"] == result["questions"][0]["answer"] == "A"
    assert models["verifier"].calls == 1
    with psycopg.connect(db_url) as conn:
        # the harness names threads bench:<name>:<config hash>:<question id>
        (thread_id,) = conn.execute(
            "SELECT r.thread_id FROM experiment_runs r JOIN experiments e"
            " ON e.id = r.experiment_id WHERE e.name = %s",
            (name,),
        ).fetchone() or ("",)
        assert thread_id.startswith(f"bench:{name}:") and thread_id.endswith(":q-db")
        run = conn.execute(
            "SELECT r.answer, r.gold, r.correct, r.consensus_type, r.metrics, r.log, e.protocol"
            " FROM experiment_runs r JOIN experiments e ON e.id = r.experiment_id"
            " WHERE r.thread_id = %s",
            (thread_id,),
        ).fetchall()
        messages = conn.execute(
            "SELECT agent, role, round, tokens_out FROM agent_messages WHERE thread_id = %s",
            (thread_id,),
        ).fetchall()
        tools = conn.execute(
            "SELECT agent, tool, arguments, result FROM tool_calls WHERE thread_id = %s",
            (thread_id,),
        ).fetchall()
    ((answer, gold, correct, consensus, metrics, log, protocol),) = run
    assert (answer, gold, correct, consensus, protocol) == ("A", "A", True, "verifier", "debate")
    assert metrics["calls"] == 7 and len(log["history"]) == 4
    roles = sorted((m[0], m[1], m[2]) for m in messages)
    assert roles == [
        ("agent1", "debater", 1),
        ("agent1", "debater", 2),
        ("agent1_summarizer", "summarizer", 1),
        ("agent2", "debater", 1),
        ("agent2", "debater", 2),
        ("agent2_summarizer", "summarizer", 1),
        ("verifier", "verifier", None),
    ]
    assert len(tools) == 4 and all(t[1] == "retrieve_corpus_sections" for t in tools)
    assert all(t[3]["ids"] == ["s1"] for t in tools)
