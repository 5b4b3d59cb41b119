"""Every corpus search of the hierarchical debate is a run of the retrieval tool.

The seed searches, the searches a worker's tool calls ask for and a reviewer's searches all go
through ``retrieve_corpus_sections`` (:func:`disputatio.tools.retrieval.search_corpus`), like
the other protocols' searches: a callback handler on the run sees one tool run per search the
retriever answered, with the same query and ``k``.
"""

from __future__ import annotations

from collections import Counter
from typing import Any
from uuid import UUID

from debate_fakes import aspirin_retriever, context, scripted
from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.memory import InMemorySaver

from disputatio.graphs.debate import build_graph
from disputatio.tools.retrieval import TOOL_NAME

CALL = '{"name": "retrieve_corpus_sections", "arguments": {"query": "aspirin dose", "k": 2}}'


class ToolRuns(BaseCallbackHandler):
    """Records the name and inputs of every tool run."""

    def __init__(self) -> None:
        self.runs: list[tuple[str, dict[str, Any]]] = []

    def on_tool_start(
        self,
        serialized: dict[str, Any],
        input_str: str,
        *,
        run_id: UUID,
        inputs: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        """Record one tool run."""
        self.runs.append((str(serialized.get("name")), dict(inputs or {})))


def test_seed_tool_call_and_review_searches_are_runs_of_the_retrieval_tool() -> None:
    models = {
        "worker-root-0": scripted("w0", CALL, "Verdict: safe.\nFine [S1].", "Verdict: safe."),
        "worker-root-1": scripted("w1", "Verdict: risky.\nBleeds.", "Verdict: risky."),
        "reviewer-root": scripted("rev", 'Risk is disputed.\nretrieve("bleeding risk")'),
        "summarizer-root": scripted("sum", "Verdict: risky.\nIt raises bleeding risk [S2]."),
    }
    retriever = aspirin_retriever()
    ctx = context(models, retriever, flat=True, workers=2, rounds=1, max_tool_calls=1)
    spy = ToolRuns()
    config: RunnableConfig = {"configurable": {"thread_id": "t"}, "callbacks": [spy]}
    build_graph().compile(checkpointer=InMemorySaver()).invoke(
        {"question": "Is aspirin safe?"}, config, context=ctx
    )
    asked = Counter(retriever.calls)
    # the seed searches (one per worker), the worker's call (k as asked), the reviewer's search
    assert asked[("Is aspirin safe?", ctx.seed_k)] == 2
    assert asked[("aspirin dose", 2)] == 1 and asked[("bleeding risk", ctx.seed_k)] == 1
    ran = Counter((args["query"], args["k"]) for name, args in spy.runs if name == TOOL_NAME)
    assert ran == asked
