"""Orchestration of the referee graph with one scripted model per agent."""

from __future__ import annotations

import uuid
from typing import Any

import httpx
import pytest
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command

from disputatio.graphs.referee import RefereeContext, build_graph
from disputatio.state.referee import RefereeResult

from .referee_fakes import (
    AXES,
    AXIS_NAMES,
    advocate_reply,
    context,
    examiner_reply,
    happy_models,
    plan_reply,
    ruling_reply,
    scripted,
)


def _graph() -> Any:
    return build_graph(max_attempts=3, initial_interval=0.01).compile(checkpointer=InMemorySaver())


def _thread() -> dict[str, Any]:
    return {"configurable": {"thread_id": f"t-{uuid.uuid4()}"}}


def _run(ctx: RefereeContext, inputs: dict[str, Any] | None = None) -> RefereeResult:
    out = _graph().invoke(inputs or {"query": "pgvector or FAISS?"}, _thread(), context=ctx)
    return RefereeResult.model_validate(out)


def test_happy_path_computes_weighted_totals_in_code() -> None:
    models = happy_models()
    events: list[dict[str, Any]] = []
    graph = _graph()
    thread = _thread()
    for mode, chunk in graph.stream(
        {"query": "pgvector or FAISS?"},
        thread,
        context=context(models),
        stream_mode=["updates", "custom"],
    ):
        if mode == "custom":
            events.append(chunk)
    result = RefereeResult.model_validate(graph.get_state(thread).values)

    assert result.status == "ok" and result.error is None
    assert result.completed_phases == ["plan", "advocacy", "cross_examination", "verdict"]
    assert result.ruling is not None
    totals = {t.option: t for t in result.ruling.totals}
    # pgvector: 8*6 + 3*9 = 48 + 27 = 75 over weight 11; FAISS: 8*9 + 3*4 = 72 + 12 = 84
    assert totals["pgvector"].weighted_sum == 75
    assert totals["FAISS"].weighted_sum == 84
    assert totals["pgvector"].weighted_score == pytest.approx(75 / 11)
    assert totals["FAISS"].weighted_score == pytest.approx(84 / 11)
    assert result.ruling.leader == "FAISS" and result.ruling.recommendation == "FAISS"
    assert result.ruling.trade_offs[0].choose == "pgvector"
    # one advocate and one examiner per option, each with its own usage record
    assert {b.agent for b in result.briefs} == {"advocate-pgvector", "advocate-faiss"}
    assert set(result.usage) == {
        "planner",
        "advocate-pgvector",
        "advocate-faiss",
        "examiner-pgvector",
        "examiner-faiss",
        "referee",
    }
    assert all(rec["calls"] == 1 and rec["input_tokens"] > 0 for rec in result.usage.values())
    assert {e["agent"] for e in events if e.get("status") == "done"} == set(result.usage)


def test_citations_are_checked_against_the_sections_seen() -> None:
    models = happy_models()
    result = _run(context(models))
    pg = next(b for b in result.briefs if b.option == "pgvector")
    assert pg.claims[0].citations == ["pg-1"] and pg.claims[0].cited
    assert pg.invalid_citations == ["made-up-id"]
    assert not pg.claims[1].cited  # the operations claim cites nothing
    # the advocate researched "<option> <axis>" and saw the sections in XML tags
    prompt = str(models["advocate-pgvector"].prompts[0][-1].content)
    assert '<section id="S1"' in prompt and "latency (weight 8/10)" in prompt
    assert "pgvector adds vector similarity search" in prompt
    # a "disputed" verdict citing no evidence is downgraded to "unverifiable"
    exam = next(e for e in result.cross_examinations if e.option == "pgvector")
    verdicts = {c.claim_id: c.verdict for c in exam.checks}
    assert verdicts == {"faiss#1": "confirmed", "faiss#2": "unverifiable"}
    # examiners see only opponents' claims; the referee sees the cases and the verdicts
    exam_prompt = str(models["examiner-pgvector"].prompts[0][-1].content)
    claims_block = exam_prompt.split("<claims>")[1].split("</claims>")[0]
    assert "faiss#1" in claims_block and "pgvector#1" not in claims_block
    referee_prompt = str(models["referee"].prompts[0][-1].content)
    assert "faiss#1: confirmed" in referee_prompt and '<case option="pgvector">' in referee_prompt


def test_short_labels_map_back_to_section_ids() -> None:
    reply = advocate_reply("FAISS", "s1", AXIS_NAMES)  # labels match case-insensitively
    reply["claims"][0]["text"] += " [S1]"
    result = _run(context(happy_models(advocate_faiss=[reply])))
    faiss = next(b for b in result.briefs if b.option == "FAISS")
    label_s1 = faiss.sources[0]  # S1 is the first section the advocate saw
    assert faiss.claims[0].citations == [label_s1] and label_s1.startswith("fa-")
    assert faiss.claims[0].text == "FAISS is good at latency"  # the agent-local label is gone


def test_ambiguous_query_interrupts_and_the_plan_reflects_the_answers() -> None:
    question = {
        "question": "Which alternatives to pgvector?",
        "kind": "multi_choice",
        "choices": ["FAISS", "Neo4j", "Milvus"],
        "target": "options",
    }
    budget_q = {"question": "Monthly budget?", "kind": "free_text", "target": "budget"}
    first = plan_reply(["pgvector"], AXES, ambiguous=True, questions=[question, budget_q])
    # the model's second plan ignores the answers: the code still applies them
    models = happy_models(planner=[first, plan_reply(["pgvector"], AXES)])
    graph, thread, ctx = _graph(), _thread(), context(models)

    out = graph.invoke({"query": "which vector store?"}, thread, context=ctx)
    (pending,) = out["__interrupt__"]
    assert pending.value["type"] == "clarification"
    asked = pending.value["questions"]
    assert [(q["id"], q["kind"]) for q in asked] == [("q1", "multi_choice"), ("q2", "free_text")]

    out = graph.invoke(Command(resume={"q1": "1", "q2": "under $500"}), thread, context=ctx)
    result = RefereeResult.model_validate(out)
    assert result.status == "ok"
    assert result.plan is not None
    assert [o.name for o in result.plan.options] == ["pgvector", "FAISS"]
    assert result.plan.constraints.budget == "under $500"
    assert [a.answer for a in result.clarifications] == [["FAISS"], "under $500"]
    assert "under $500" in str(models["planner"].prompts[1][-1].content)


def test_too_few_options_without_questions_budget_is_an_invalid_request() -> None:
    models = scripted(planner=[plan_reply(["pgvector"], AXES)])
    result = _run(context(models, max_clarifications=0))
    assert result.status == "failed" and result.completed_phases == []
    assert result.error is not None and result.error.code == "INVALID_REQUEST"
    assert result.error.phase == "plan" and not result.error.retryable
    assert result.plan is not None  # what the planner found is kept


def test_one_option_gets_a_default_options_question() -> None:
    models = happy_models(planner=[plan_reply(["pgvector"], AXES), plan_reply(["pgvector"], AXES)])
    graph, thread, ctx = _graph(), _thread(), context(models)
    out = graph.invoke({"query": "is pgvector good?"}, thread, context=ctx)
    (q,) = out["__interrupt__"][0].value["questions"]
    assert q["target"] == "options" and "pgvector" in q["question"]
    out = graph.invoke(Command(resume="FAISS"), thread, context=ctx)
    assert [o["name"] for o in out["plan"]["options"]] == ["pgvector", "FAISS"]


def test_options_are_capped_at_three() -> None:
    names = ["pgvector", "FAISS", "Neo4j", "Milvus"]
    scripts: dict[str, list[Any]] = {"planner": [plan_reply(names, AXES)]}
    for name, cite in zip(names[:3], ["pg-1", "fa-1", "neo-1"], strict=True):
        scripts[f"advocate_{name.lower()}"] = [advocate_reply(name, cite, AXIS_NAMES)]
        scripts[f"examiner_{name.lower()}"] = [examiner_reply([])]
    scores = {(o, a): 5 for o in names[:3] for a in AXIS_NAMES}
    # every option scored the same: the referee is asked once more and answers the same
    scripts["referee"] = [ruling_reply(scores, "pgvector")] * 2
    models = scripted(**scripts)
    result = _run(context(models))
    assert result.plan is not None
    assert [o.name for o in result.plan.options] == names[:3]
    assert result.plan.dropped_options == ["Milvus"]
    assert len(result.briefs) == 3 and len(result.cross_examinations) == 3
    assert result.ruling is not None and result.ruling.leader is None  # a three-way tie
    assert result.ruling.degenerate and result.ruling.recommendation == ""


def test_a_failing_advocate_gives_a_partial_result() -> None:
    models = happy_models(
        advocate_faiss=["this is not JSON"], examiner_pgvector=[], examiner_faiss=[]
    )
    result = _run(context(models))
    assert result.status == "partial"
    assert result.completed_phases == ["plan"]
    assert result.error is not None and result.error.code == "AGENT_FAILED"
    assert result.error.phase == "advocacy"
    assert result.error.agent == "advocate-faiss"
    assert [b.option for b in result.briefs] == ["pgvector"]  # the finished brief is kept
    assert result.usage["advocate-faiss"]["calls"] == 1  # the failed call is still accounted
    assert models["examiner-pgvector"].calls == 0 and result.ruling is None


def test_a_transient_error_is_retried() -> None:
    brief = advocate_reply("FAISS", "fa-1", AXIS_NAMES)
    models = happy_models(advocate_faiss=[httpx.ConnectError("connection refused"), brief])
    result = _run(context(models))
    assert result.status == "ok"
    assert models["advocate-faiss"].calls == 2


def test_transient_errors_past_the_retry_budget_become_a_typed_error() -> None:
    down = httpx.ConnectError("connection refused")
    models = happy_models(referee=[down, down, down])
    result = _run(context(models))
    assert models["referee"].calls == 3  # max_attempts
    assert result.status == "partial"
    assert result.completed_phases == ["plan", "advocacy", "cross_examination"]
    assert result.error is not None and result.error.code == "AGENT_FAILED"
    assert result.error.phase == "verdict" and result.error.retryable
    assert "ConnectError" in result.error.message


def test_a_failing_examiner_stops_before_the_referee() -> None:
    models = happy_models(examiner_pgvector=[ValueError("broken")], referee=[])
    result = _run(context(models))
    assert result.completed_phases == ["plan", "advocacy"]
    assert result.error is not None and result.error.code == "AGENT_FAILED"
    assert result.error.phase == "cross_examination"
    assert models["referee"].calls == 0


def test_an_unusable_plan_falls_back_to_the_users_options_and_axes() -> None:
    models = happy_models(planner=["no JSON here"])
    axes = [{"name": n, "weight": w} for n, w in AXES]
    result = _run(context(models), {"query": "q", "options": ["pgvector", "FAISS"], "axes": axes})
    assert result.status == "ok"
    assert result.plan is not None and "planner reply unusable" in result.plan.notes[0]
    assert [(a.name, a.weight) for a in result.plan.axes] == AXES
