"""The hierarchical debate's graph export: its sub-question tree as JSON-LD and GraphML.

The registry entry of the ``hierarchical`` protocol names :func:`export_graph` as its
``graph_export``; ``GET /debate/{id}/graph`` serves what it returns.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from xml.sax.saxutils import escape

from disputatio.graphs.registry import GraphNotReady


def export_graph(values: Mapping[str, Any], case_id: str) -> tuple[dict[str, Any], str]:
    """The question tree of a debate's state (its ``tree``, else its live ``nodes``).

    Args:
        values: The debate's result, or its latest checkpoint's values while it runs.
        case_id: The run's id (the JSON-LD node ids are ``urn:disputatio:<case_id>:<node>``).

    Returns:
        ``(JSON-LD document, GraphML text)``.

    Raises:
        GraphNotReady: No sub-question yet.
    """
    tree = values.get("tree") or list((values.get("nodes") or {}).values())
    if not tree:
        raise GraphNotReady("the question tree is not built yet")
    return tree_jsonld(tree, case_id), tree_graphml(tree)


def tree_jsonld(tree: list[dict[str, Any]], case_id: str) -> dict[str, Any]:
    """The tree as JSON-LD: one ``SubQuestion`` per node, with its ``parent``."""
    nodes = [
        {
            "@id": f"urn:disputatio:{case_id}:{n.get('id')}",
            "@type": "SubQuestion",
            "question": n.get("question"),
            "answer": n.get("answer"),
            "confidence": n.get("confidence"),
            **(
                {"parent": f"urn:disputatio:{case_id}:{n['parent']}"}
                if n.get("parent") is not None
                else {}
            ),
        }
        for n in tree
    ]
    return {"@context": {"@vocab": "https://disputatio.dev/ns#"}, "@graph": nodes}


def tree_graphml(tree: list[dict[str, Any]]) -> str:
    """The tree as GraphML: a node per sub-question (its question as data), parent → child."""
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<graphml xmlns="http://graphml.graphdrawing.org/xmlns">',
        '<key id="q" for="node" attr.name="question" attr.type="string"/>',
        '<graph id="tree" edgedefault="directed">',
    ]
    for n in tree:
        lines.append(
            f'<node id="{escape(str(n.get("id")))}"><data key="q">'
            f"{escape(str(n.get('question') or ''))}</data></node>"
        )
    for n in tree:
        if n.get("parent") is not None:
            lines.append(
                f'<edge source="{escape(str(n["parent"]))}" target="{escape(str(n.get("id")))}"/>'
            )
    lines += ["</graph>", "</graphml>"]
    return "\n".join(lines)
