"""The graph exports of the shipped protocols (``GraphSpec.graph_export``): the hierarchical
debate's question tree and the RDC debate graph, as JSON-LD and GraphML."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

import pytest

from disputatio.argumentation import DebateGraph, EdgeKind, Node, NodeKind
from disputatio.graphs import registry
from disputatio.graphs.debate.export import export_graph as tree_export
from disputatio.graphs.rdc.export import export_graph as rdc_export

NS = "{http://graphml.graphdrawing.org/xmlns}"
TREE = [
    {"id": "root", "question": 'Is <x> & "y" so?', "answer": "yes", "confidence": 0.8},
    {"id": "root-0", "question": "Why?", "answer": None, "confidence": None, "parent": "root"},
]


def test_the_shipped_entries_name_these_exports() -> None:
    assert registry.by_protocol("hierarchical").graph_exporter() is tree_export
    assert registry.by_protocol("rdc").graph_exporter() is rdc_export


@pytest.mark.parametrize("values", [{"tree": TREE}, {"nodes": {n["id"]: n for n in TREE}}])
def test_the_question_tree_exports_each_node_and_its_parent(values: dict[str, Any]) -> None:
    jsonld, graphml = tree_export(values, "c1")
    ids = [n["@id"] for n in jsonld["@graph"]]
    assert ids == ["urn:disputatio:c1:root", "urn:disputatio:c1:root-0"]
    assert jsonld["@graph"][1]["parent"] == "urn:disputatio:c1:root"
    assert "parent" not in jsonld["@graph"][0]
    root = ET.fromstring(graphml)  # well-formed despite the question's markup characters
    questions = [d.text for d in root.iter(f"{NS}data")]
    assert questions == [n["question"] for n in TREE]
    edges = [(e.get("source"), e.get("target")) for e in root.iter(f"{NS}edge")]
    assert edges == [("root", "root-0")]


def test_the_rdc_export_is_the_debate_graphs_own() -> None:
    graph = DebateGraph()
    graph.add_node(Node("h", NodeKind.HYPOTHESIS, prior=0.3))
    graph.add_node(Node("e", NodeKind.EVIDENCE, quality=0.8, llr=2.0, provenance="paper A"))
    graph.add_edge("e", "h", EdgeKind.SUPPORTS)
    jsonld, graphml = rdc_export({"graph": graph.to_dict()}, "c1")
    assert jsonld == graph.to_jsonld() and graphml == graph.to_graphml()


@pytest.mark.parametrize(
    ("export", "values"),
    [(tree_export, {"tree": [], "nodes": {}}), (rdc_export, {"graph": {}, "moves": []})],
)
def test_an_unbuilt_graph_is_not_ready(export: Any, values: dict[str, Any]) -> None:
    with pytest.raises(registry.GraphNotReady, match="not built yet"):
        export(values, "c1")
