"""Drawn runs of the Tech Referee for its property tests (hypothesis) over scripted models.

The seed names the properties; where it does not spell one out, the test's docstring states it
as derived from the documented contract of the code (module and function docstrings). Every run
gives each parallel agent its own scripted model, whose replies are functions of the prompt it
RECEIVED (``referee_agents``), and the tests check what each agent received.

1. plan validity            5. verdict evidence          9. option matching
2. advocate completeness    6. referee completeness      10. key parsing round trip
3. citation soundness       7. weighted totals           11. session round trip
4. cross-exam completeness  8. recommendation rule

Properties 1-8 are in ``test_referee_properties_runs.py``, 9-11 in
``test_referee_properties_keys.py``.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.memory import InMemorySaver

from disputatio.graphs.referee import build_graph
from disputatio.state.referee import RefereeResult

from . import referee_agents as ra
from .referee_fakes import context, keyword_retriever, plan_reply

RUNS = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
OPTION_POOL = ["pgvector", "FAISS", "Neo4j", "Milvus"]
AXIS_POOL = ["latency", "operations", "cost", "ecosystem", "scale", "durability"]
VERDICTS = ["confirmed", "disputed", "unverifiable"]


@dataclass
class Scenario:
    """One drawn run: the planner's reply and how every agent behaves."""

    options: list[str]
    axes: list[tuple[str, int]]
    fixed: list[str]
    cover: list[bool]
    cite: bool
    verdicts: list[str]
    answer_every: int
    claims_cap: int
    referee: ra.RefereeScript
    fill_rounds: int
    constraints: dict[str, str]


@st.composite
def scenarios(draw: st.DrawFn) -> Scenario:
    options = draw(st.lists(st.sampled_from(OPTION_POOL), min_size=2, max_size=4, unique=True))
    spelled = [draw(st.sampled_from([o, o.upper(), o.lower()])) for o in options]
    axes = draw(
        st.lists(
            st.tuples(st.sampled_from(AXIS_POOL), st.integers(-5, 20)),
            min_size=1,
            max_size=7,
            unique_by=lambda t: t[0],
        )
    )
    fixed = draw(st.sampled_from([[], options[-2:]]))
    referee = ra.RefereeScript(
        first=draw(st.lists(st.booleans(), min_size=1, max_size=6)),
        score=draw(st.lists(st.integers(1, 10), min_size=1, max_size=6)),
        recommend=draw(st.integers(0, 3)),
        fills=draw(st.booleans()),
        override=draw(st.sampled_from(["", "vendor lock-in", "must run on GPUs"])),
        rescore=draw(st.lists(st.integers(1, 10), max_size=6)),
    )
    return Scenario(
        options=spelled,
        axes=axes,
        fixed=fixed,
        cover=draw(st.lists(st.booleans(), min_size=1, max_size=4)),
        cite=draw(st.booleans()),
        verdicts=draw(st.lists(st.sampled_from(VERDICTS), min_size=1, max_size=3)),
        answer_every=draw(st.integers(1, 2)),
        claims_cap=draw(st.integers(1, 6)),
        referee=referee,
        fill_rounds=draw(st.integers(0, 2)),
        constraints=draw(st.sampled_from([{}, {"avoid": "vendor lock-in"}])),
    )


@dataclass
class Run:
    """A finished run: its result, the models (with what they received) and the scenario."""

    result: RefereeResult
    models: dict[str, Any]
    scenario: Scenario
    thread: RunnableConfig
    graph: Any
    output: dict[str, Any]


def run(s: Scenario) -> Run:
    names = [*s.fixed, *s.options]  # every spelling an agent may be named after
    advocates = {o: ra.advocate(o, s.cover, s.cite) for o in names}
    examiners = {o: ra.examiner(s.verdicts, s.answer_every, s.cite) for o in names}
    models: dict[str, Any] = ra.agents(names, advocates, examiners)
    models["planner"] = ra.ScriptedChatModel(
        script=[plan_reply(s.options, s.axes, constraints=s.constraints)], name="planner"
    )
    models["referee"] = s.referee.model(s.fill_rounds)
    ctx = context(
        models,
        retriever=keyword_retriever(),
        max_claims_checked=s.claims_cap,
        max_fill_rounds=s.fill_rounds,
        max_clarifications=0,
    )
    graph = build_graph(max_attempts=1).compile(checkpointer=InMemorySaver())
    thread: RunnableConfig = {"configurable": {"thread_id": str(uuid.uuid4())}}
    inputs: dict[str, Any] = {"query": "which vector store?"}
    if s.fixed:
        inputs["options"] = s.fixed
    out = graph.invoke(inputs, thread, context=ctx)
    return Run(RefereeResult.model_validate(out), models, s, thread, graph, out)


def _ok(r: Run) -> RefereeResult:
    assert r.result.status == "ok", (r.result.error, r.result.errors)
    assert r.result.completed_phases == ["plan", "advocacy", "cross_examination", "verdict"]
    return r.result
