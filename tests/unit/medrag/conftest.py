"""Fixtures of the MedRAG debate tests: a recording retriever and a debate runner."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from disputatio.graphs.medrag_debate import MedragContext, graph
from disputatio.state.retrieval import Section
from disputatio.testing import FakeRetriever

MC_OPTIONS = {"A": "Aspirin", "B": "Metformin", "C": "Insulin", "D": "Warfarin"}
QUESTION = "Which drug is a biguanide used first-line in type 2 diabetes?"


#: What the retriever returns for every query: the first ``k`` (3 unless asked) of these.
RANKING = [
    Section(id=f"sec-{i}", text=f"Evidence {i} about biguanides.", score=1.0 - i / 10)
    for i in range(10)
]


@pytest.fixture
def retriever() -> FakeRetriever:
    """Returns the first ``k`` sections of :data:`RANKING` and records every search."""
    return FakeRetriever(RANKING, k=3, match_all=True)


@pytest.fixture
def mc_options() -> dict[str, str]:
    return dict(MC_OPTIONS)


@pytest.fixture
def run_debate(
    retriever: FakeRetriever,
) -> Callable[..., tuple[dict[str, Any], list[Any]]]:
    """Run the debate on scripted models; returns ``(output, custom_events)``."""

    def run(
        models: dict[str, Any],
        *,
        options: Any = None,
        question: str = QUESTION,
        **ctx: Any,
    ) -> tuple[dict[str, Any], list[Any]]:
        # one scripted reply per turn unless a test asks for the agents' own search calls
        ctx.setdefault("agent_query", False)
        context = MedragContext(models=models, retriever=retriever, **ctx)
        inputs = {
            "question": question,
            "options": MC_OPTIONS if options is None else options,
            "question_id": "q1",
        }
        events: list[Any] = []
        output: Any = {}
        for mode, chunk in graph.stream(
            inputs, context=context, stream_mode=["updates", "custom", "values"]
        ):
            if mode == "custom":
                events.append(chunk)
            elif mode == "values":
                output = chunk
        return output, events

    return run
