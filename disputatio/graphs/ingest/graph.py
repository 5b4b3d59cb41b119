"""Assembly of the ingestion graph.

``discover → screen → (load → entities → embed → index)* → summarize``: ``screen`` hashes
every file and settles unchanged ones before any parsing; the loop then takes
``ingest.batch_size`` files per turn, so spaCy and the embedding model see whole batches while
no document is ever half-written. The loop ends when the queue is empty or after
``ingest.max_batches`` batches.

spaCy and the embedding model run one after the other, not side by side: beside a Python-heavy
thread (spaCy's pipeline, loading a spaCy model) the encode calls of a worker ran 2-3x slower
than the bare model's (``docs/scale_out.md``, "Where the time went"), most likely because the
model's forward pass is hundreds of small torch operations, each taking the GIL back. Each now
has every core to itself.
"""

from __future__ import annotations

from typing import Any

from langgraph.graph import END, START, StateGraph
from langgraph.types import RetryPolicy

from disputatio.nodes.ingest import batch, pipeline
from disputatio.nodes.ingest.context import IngestContext
from disputatio.state.ingest import IngestInput, IngestOutput, IngestState

#: Supersteps one batch takes at most (load, entities, embed, index).
STEPS_PER_BATCH = 4

#: Recursion limit that lets the loop run to ``ingest.max_batches`` at its upper bound
#: (the settings field allows at most 1,000,000 batches).
RECURSION_LIMIT = STEPS_PER_BATCH * 1_000_000 + 16


def build_graph() -> StateGraph[Any, Any, Any, Any]:
    """The batch ingestion graph."""
    builder = StateGraph(
        IngestState,
        context_schema=IngestContext,
        input_schema=IngestInput,
        output_schema=IngestOutput,
    )
    db_retry = RetryPolicy(max_attempts=2)
    builder.add_node("discover", batch.discover)
    builder.add_node("screen", batch.screen, retry_policy=db_retry)
    builder.add_node("load", pipeline.load)
    builder.add_node("entities", pipeline.entities)
    builder.add_node("embed", pipeline.embed)
    builder.add_node("index", pipeline.index)
    builder.add_node("summarize", batch.summarize)
    builder.add_edge(START, "discover")
    builder.add_edge("discover", "screen")
    builder.add_conditional_edges("screen", batch.route, ["load", "summarize"])
    # spaCy, then the embedding model, on the same batch (not side by side: see the docstring)
    builder.add_edge("load", "entities")
    builder.add_edge("entities", "embed")
    builder.add_edge("embed", "index")
    builder.add_conditional_edges("index", batch.route, ["load", "summarize"])
    builder.add_edge("summarize", END)
    return builder


graph = build_graph().compile(name="ingest").with_config(recursion_limit=RECURSION_LIMIT)
