"""A run that died between a step's last task and the step's checkpoint is still unfinished.

LangGraph saves each task's writes as the task ends and the step's checkpoint after the step;
a process killed in between leaves a thread whose ``snapshot.next`` is empty (it omits tasks
with saved writes) although the run has steps left. :func:`unfinished` must call it unfinished,
so every resume path goes on with it instead of taking its partial state for a result.
"""

from __future__ import annotations

import operator
from collections import Counter
from typing import Annotated, Any

import pytest
from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from typing_extensions import TypedDict

from disputatio.storage.checkpoint import unfinished


class State(TypedDict, total=False):
    """Steps write their names here."""

    done: Annotated[list[str], operator.add]


class Killed(BaseException):
    """The process died (not an error the graph would handle)."""


class DyingSaver(InMemorySaver):
    """An in-memory saver that dies while writing the checkpoint of step ``die_at``."""

    def __init__(self, die_at: int) -> None:
        super().__init__()
        self.die_at: int | None = die_at

    def put(self, config: Any, checkpoint: Any, metadata: Any, new_versions: Any) -> Any:
        if metadata.get("step") == self.die_at:
            self.die_at = None  # once: the next process writes it
            raise Killed
        return super().put(config, checkpoint, metadata, new_versions)


def build(calls: Counter[str]) -> Any:
    """``a`` and ``b`` in one step, then ``c``."""

    def step(name: str) -> Any:
        def node(state: State) -> dict[str, Any]:
            calls[name] += 1
            return {"done": [name]}

        return node

    builder = StateGraph(State)
    for name in "abc":
        builder.add_node(name, step(name))
    builder.add_edge(START, "a")
    builder.add_edge(START, "b")
    builder.add_edge(["a", "b"], "c")
    builder.add_edge("c", END)
    return builder


def test_a_run_killed_before_its_step_checkpoint_is_unfinished_and_resumes() -> None:
    calls: Counter[str] = Counter()
    saver = DyingSaver(die_at=1)  # step 0: a ‖ b; step 1's checkpoint holds their writes
    graph = build(calls).compile(checkpointer=saver)
    config: RunnableConfig = {"configurable": {"thread_id": "t"}}
    with pytest.raises(Killed):
        graph.invoke({"done": []}, config, durability="sync")

    snapshot = graph.get_state(config)
    assert snapshot.next == ()  # the trap: every task of the step has its writes saved
    assert sorted(snapshot.values["done"]) == ["a", "b"]
    assert unfinished(snapshot)

    out = graph.invoke(None, config, durability="sync")
    assert sorted(out["done"]) == ["a", "b", "c"]
    assert calls == {"a": 1, "b": 1, "c": 1}  # nothing ran twice
    assert not unfinished(graph.get_state(config))


def test_a_new_thread_and_a_finished_one_are_not_unfinished() -> None:
    graph = build(Counter()).compile(checkpointer=InMemorySaver())
    config: RunnableConfig = {"configurable": {"thread_id": "t"}}
    assert not unfinished(graph.get_state(config))
    graph.invoke({"done": []}, config)
    assert not unfinished(graph.get_state(config))
