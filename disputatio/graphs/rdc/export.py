"""The RDC debate's graph export: its typed, signed debate graph as JSON-LD and GraphML.

The registry entry of the ``rdc`` protocol names :func:`export_graph` as its ``graph_export``;
``GET /debate/{id}/graph`` serves what it returns.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from disputatio.argumentation import DebateGraph
from disputatio.graphs.registry import GraphNotReady


def export_graph(values: Mapping[str, Any], case_id: str) -> tuple[dict[str, Any], str]:
    """The debate graph of an RDC run's state (its ``graph``, as :meth:`DebateGraph.to_dict`).

    Args:
        values: The debate's result, or its latest checkpoint's values while it runs.
        case_id: The run's id (unused: the graph's own ids name its nodes).

    Returns:
        ``(JSON-LD document, GraphML text)``.

    Raises:
        GraphNotReady: The moderator has not seeded the graph yet.
    """
    if not values.get("graph"):
        raise GraphNotReady("the debate graph is not built yet")
    debate = DebateGraph.from_dict(values["graph"])
    return debate.to_jsonld(), debate.to_graphml()
