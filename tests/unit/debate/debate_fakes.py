"""Helpers of the hierarchical debate tests: sections, a fixed corpus, contexts, a run helper."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.memory import InMemorySaver

from disputatio.graphs.debate import DebateContext, build_graph
from disputatio.settings import Settings, load_settings
from disputatio.state.retrieval import Section
from disputatio.testing import FakeRetriever, ScriptedChatModel

#: The orchestrator's decomposition is what these tests script: a question stating its parts
#: is not split on them (``debate.stated_parts``; its own tests turn it on).
SETTINGS: Settings = load_settings(
    models={"chat": "openai:never-called"}, debate={"stated_parts": False}
)

ASPIRIN = Section(
    id="s-aspirin", source="pharma.md", page=3, text="Aspirin irreversibly inhibits COX-1."
)
DOSE = Section(id="s-dose", source="dosing.md", text="The usual dose is 75 mg daily.")
BLEED = Section(id="s-bleed", source="risks.md", text="Aspirin raises bleeding risk.")


def aspirin_retriever() -> FakeRetriever:
    """The tests' default corpus: ``ASPIRIN`` for any query, ``DOSE`` or ``BLEED`` by keyword.

    A query naming a dose gets ``DOSE``, one naming bleeding ``BLEED``; every search is recorded
    (see :class:`~disputatio.testing.FakeRetriever`).
    """
    return FakeRetriever([ASPIRIN], match_all=True, by_keyword={"dose": [DOSE], "bleed": [BLEED]})


def scripted(name: str, *replies: Any) -> ScriptedChatModel:
    """A scripted model for one agent."""
    return ScriptedChatModel(script=list(replies), name=name)


def context(models: Mapping[str, Any], retriever: Any = None, **kwargs: Any) -> DebateContext:
    """A debate context on the test settings with the given models.

    The citation repair call is off unless a test asks for it (scripts hold one reply per turn).
    """
    kwargs.setdefault("cite_repair", False)
    return DebateContext(
        models=dict(models), retriever=retriever or aspirin_retriever(), settings=SETTINGS, **kwargs
    )


def run(
    question: str, ctx: DebateContext, **inputs: Any
) -> tuple[dict[str, Any], list[dict[str, Any]], list[dict[str, Any]]]:
    """Run the graph; return the output, the custom events and the update chunks."""
    graph = build_graph().compile(checkpointer=InMemorySaver())
    config: RunnableConfig = {"configurable": {"thread_id": "t"}}
    events: list[Any] = []
    updates: list[Any] = []
    for mode, chunk in graph.stream(
        {"question": question, **inputs},
        config,
        context=ctx,
        stream_mode=["updates", "custom"],
    ):
        if mode == "custom":
            events.append(chunk)
        else:
            updates.append(chunk)
    state = graph.get_state(config).values
    return dict(state), events, updates
