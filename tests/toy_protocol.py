"""A toy debate protocol for the registry tests: one node that echoes the question.

It has its own state, context class, input builder and graph export (one node: its answer),
and one registry entry (:data:`TOY`);
:func:`toy_registered` registers it for the length of a test. Its ``langgraph.json`` path is
where a user would put it: the file is not in ``langgraph.json``, which is the point of the
check that reports it.
"""

from __future__ import annotations

import operator
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Annotated, Any
from xml.sax.saxutils import escape

from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime
from typing_extensions import TypedDict

from disputatio.graphs import registry


@dataclass
class ToyContext:
    """The toy's context: the caller's tenant and settings, and how it echoes."""

    tenant: str | None = None
    settings: Any = None
    prefix: str = "Echo"


class ToyState(TypedDict, total=False):
    """The question, the echo and its moves."""

    question: str
    options: dict[str, str] | list[str] | None
    answer: str
    moves: Annotated[list[dict[str, Any]], operator.add]


def echo(state: ToyState, runtime: Runtime[ToyContext]) -> dict[str, Any]:
    """Echo the question (and choose the first option, when there are options)."""
    prefix = runtime.context.prefix if runtime.context is not None else "Echo"
    text = f"{prefix}: {state['question']}"
    options = state.get("options") or {}
    if options:
        text += f"\nAnswer: {next(iter(options))}"
    return {"answer": text, "moves": [{"agent": "echo", "content": text}]}


def toy_inputs(request: Mapping[str, Any], case_id: str | None) -> dict[str, Any]:
    """The toy's input builder: the question and its options."""
    return {"question": request["question"], "options": request.get("options")}


def export_graph(values: Mapping[str, Any], case_id: str) -> tuple[dict[str, Any], str]:
    """The toy's graph export: one node, its answer (``GET /debate/{id}/graph`` serves it).

    Raises:
        registry.GraphNotReady: No answer yet.
    """
    if not values.get("answer"):
        raise registry.GraphNotReady("the echo is not written yet")
    node = {"@id": f"urn:toy:{case_id}", "@type": "Echo", "answer": values["answer"]}
    jsonld = {"@context": {"@vocab": "https://example.org/toy#"}, "@graph": [node]}
    graphml = (
        '<graphml xmlns="http://graphml.graphdrawing.org/xmlns"><graph edgedefault="directed">'
        f'<node id="{escape(case_id)}"/></graph></graphml>'
    )
    return jsonld, graphml


def build_graph() -> StateGraph[Any, Any, Any, Any]:
    """START → echo → END."""
    builder = StateGraph(ToyState, context_schema=ToyContext)
    builder.add_node("echo", echo)
    builder.add_edge(START, "echo")
    builder.add_edge("echo", END)
    return builder


graph = build_graph().compile(name="toy")

#: Where the toy would be served from, as a ``langgraph.json`` path.
TOY_PATH = "./tests/toy_protocol.py:graph"

TOY = registry.GraphSpec(
    name="toy",
    builder=build_graph,
    context=ToyContext,
    description="echoes the question",
    label="Toy echo",
    protocol="toy",
    inputs=toy_inputs,
    graph_export=export_graph,
    move_fields=("moves",),
    verdict_fields=("question", "answer"),
    cli_names=("toy",),
    eval_names=("toy",),
    langgraph=TOY_PATH,
)


@contextmanager
def toy_registered() -> Iterator[registry.GraphSpec]:
    """The toy protocol, registered while the block runs."""
    registry.register(TOY)
    try:
        yield TOY
    finally:
        registry.unregister(TOY.name)
