"""Test doubles for the hierarchical debate tests: a fixed retriever and a run helper."""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.memory import InMemorySaver

from disputatio.graphs.debate import DebateContext, build_graph
from disputatio.retrievers.base import RetrievalFilters
from disputatio.settings import Settings, load_settings
from disputatio.state.retrieval import RetrievalResult, Section
from disputatio.testing import ScriptedChatModel

SETTINGS: Settings = load_settings(models={"chat": "openai:never-called"})

ASPIRIN = Section(
    id="s-aspirin", source="pharma.md", page=3, text="Aspirin irreversibly inhibits COX-1."
)
DOSE = Section(id="s-dose", source="dosing.md", text="The usual dose is 75 mg daily.")
BLEED = Section(id="s-bleed", source="risks.md", text="Aspirin raises bleeding risk.")


class FakeRetriever:
    """Returns fixed sections: those of the first keyword found in the query, else defaults.

    Attributes:
        queries: Every ``(query, k)`` searched, in order.
    """

    def __init__(
        self,
        default: Sequence[Section] = (ASPIRIN,),
        by_keyword: Mapping[str, Sequence[Section]] | None = None,
    ) -> None:
        self.default = list(default)
        self.by_keyword = dict(by_keyword or {"dose": [DOSE], "bleed": [BLEED]})
        self.queries: list[tuple[str, int | None]] = []
        self._lock = threading.Lock()

    def search(
        self,
        query: str,
        *,
        k: int | None = None,
        threshold: float | None = None,
        filters: RetrievalFilters | None = None,
    ) -> RetrievalResult:
        with self._lock:
            self.queries.append((query, k))
        hits = next(
            (list(v) for key, v in self.by_keyword.items() if key in query.lower()), self.default
        )
        return RetrievalResult(
            query=query, sections=hits[: k or len(hits)], best_score=0.9, threshold=0.25
        )

    @property
    def returned_ids(self) -> set[str]:
        """Every id this retriever could have returned for the queries seen."""
        ids: set[str] = set()
        for query, _ in self.queries:
            hits = next(
                (v for key, v in self.by_keyword.items() if key in query.lower()), self.default
            )
            ids.update(s.id for s in hits)
        return ids


def scripted(name: str, *replies: Any) -> ScriptedChatModel:
    """A scripted model for one agent."""
    return ScriptedChatModel(script=list(replies), name=name)


def context(models: Mapping[str, Any], retriever: Any = None, **kwargs: Any) -> DebateContext:
    """A debate context on the test settings with the given models.

    The citation repair call is off unless a test asks for it (scripts hold one reply per turn).
    """
    kwargs.setdefault("cite_repair", False)
    return DebateContext(
        models=dict(models), retriever=retriever or FakeRetriever(), settings=SETTINGS, **kwargs
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
