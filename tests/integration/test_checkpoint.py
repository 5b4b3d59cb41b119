"""A checkpointed two-step graph resumes on the same thread after reconnecting."""

from __future__ import annotations

import operator
import uuid
from typing import Annotated, TypedDict

import pytest
from langgraph.graph import END, START, StateGraph

from disputatio.settings import Settings
from disputatio.storage.checkpoint import open_checkpointer

pytestmark = pytest.mark.integration


class _State(TypedDict, total=False):
    steps: Annotated[list[str], operator.add]


def _build(calls: list[str]) -> StateGraph:
    def step_one(state: _State) -> dict[str, list[str]]:
        calls.append("one")
        return {"steps": ["one"]}

    def step_two(state: _State) -> dict[str, list[str]]:
        calls.append("two")
        return {"steps": ["two"]}

    builder = StateGraph(_State)
    builder.add_node("step_one", step_one)
    builder.add_node("step_two", step_two)
    builder.add_edge(START, "step_one")
    builder.add_edge("step_one", "step_two")
    builder.add_edge("step_two", END)
    return builder


def test_resume_after_reconnect_does_not_repeat_finished_steps(
    settings: Settings, db_url: str
) -> None:
    thread = {"configurable": {"thread_id": f"resume-{uuid.uuid4()}"}}
    calls: list[str] = []
    # first process: runs step one, then "crashes" (stops before step two)
    with open_checkpointer(settings) as saver:
        graph = _build(calls).compile(checkpointer=saver, interrupt_before=["step_two"])
        graph.invoke({"steps": []}, thread)
        assert calls == ["one"]
    # second process: a fresh connection and a fresh graph object, same thread
    with open_checkpointer(settings) as saver:
        graph = _build(calls).compile(checkpointer=saver)
        snapshot = graph.get_state(thread)
        assert snapshot.next == ("step_two",)
        result = graph.invoke(None, thread)
    assert calls == ["one", "two"]
    assert result["steps"] == ["one", "two"]


def test_the_postgres_store_keeps_agent_diaries_across_connections(
    settings: Settings, db_url: str
) -> None:
    from disputatio.nodes.rdc.memory import agent_priors, write_diaries
    from disputatio.storage.checkpoint import open_store

    tenant = f"t-{uuid.uuid4().hex[:8]}"
    with open_store(settings) as store:
        write_diaries(store, tenant, "run-1", {"infectious": {"correct": False, "turns": 2,
                                                              "gain": 0.4}})  # fmt: skip
    with open_store(settings) as store:  # a later case, a fresh connection
        priors = agent_priors(store, tenant, ["infectious"])
    assert priors["infectious"] == {"reliability": 0.5, "gain": 0.2, "cases": 1.0}
