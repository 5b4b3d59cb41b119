"""Debate graph: validation, invariants, conversions and serialisation."""

import json
import math
import xml.etree.ElementTree as ET

import pytest

from disputatio.argumentation import (
    DebateGraph,
    Edge,
    EdgeKind,
    Node,
    NodeKind,
)
from disputatio.argumentation.serialization import GRAPHML_NS


def _graph() -> DebateGraph:
    g = DebateGraph()
    g.add_node(Node("h", NodeKind.HYPOTHESIS, prior=0.3))
    g.add_node(Node("e", NodeKind.EVIDENCE, quality=0.8, llr=2.0, provenance="paper A"))
    g.add_node(Node("t", NodeKind.TEST, cost=1.0, risk=0.1, discriminative_power=0.4))
    g.add_edge("e", "h", EdgeKind.SUPPORTS)
    g.add_edge("h", "t", EdgeKind.SUGGESTS_TEST)
    return g


def test_edge_sign_follows_kind() -> None:
    positive = {EdgeKind.SUPPORTS, EdgeKind.CAUSES, EdgeKind.REFINES, EdgeKind.DERIVED_FROM}
    negative = {EdgeKind.ATTACKS, EdgeKind.CONTRADICTS}
    for kind in EdgeKind:
        expected = 1 if kind in positive else -1 if kind in negative else 0
        assert Edge("a", "b", kind).sign == expected
    assert Edge("a", "b", EdgeKind.SUGGESTS_TEST).sign == 0


def test_node_normalises_provenance_and_kind() -> None:
    assert Node("e", NodeKind.EVIDENCE, provenance="doc").provenance == ("doc",)
    assert Node("e", NodeKind.EVIDENCE, provenance=["a", "b"]).provenance == ("a", "b")
    assert Node("h", "hypothesis").kind is NodeKind.HYPOTHESIS  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "kwargs",
    [
        {"id": "", "kind": NodeKind.EVIDENCE},
        {"id": "x", "kind": NodeKind.EVIDENCE, "quality": 1.5},
        {"id": "x", "kind": NodeKind.EVIDENCE, "quality": -0.1},
        {"id": "x", "kind": NodeKind.TEST, "cost": -1.0},
        {"id": "x", "kind": NodeKind.TEST, "risk": math.inf},
        {"id": "x", "kind": NodeKind.EVIDENCE, "prior": 0.5},
        {"id": "x", "kind": NodeKind.HYPOTHESIS, "prior": 0.0},
        {"id": "x", "kind": NodeKind.HYPOTHESIS, "prior": 1.0},
        {"id": "x", "kind": NodeKind.HYPOTHESIS, "discriminative_power": 1.0},
        {"id": "x", "kind": NodeKind.TEST, "discriminative_power": -1.0},
        {"id": "x", "kind": NodeKind.TEST, "llr": 1.0},
        {"id": "x", "kind": NodeKind.EVIDENCE, "llr": math.nan},
        {"id": "x", "kind": "opinion"},
    ],
)
def test_bad_nodes_raise(kwargs: dict) -> None:
    with pytest.raises(ValueError):
        Node(**kwargs)


def test_add_edge_validation() -> None:
    g = _graph()
    with pytest.raises(ValueError, match="not a node"):
        g.add_edge("e", "nowhere", EdgeKind.SUPPORTS)
    with pytest.raises(ValueError, match="not a node"):
        g.add_edge("ghost", "h", EdgeKind.ATTACKS)
    for weight in (-0.1, 1.5, math.nan, math.inf):
        with pytest.raises(ValueError, match="weight"):
            g.add_edge("e", "h", EdgeKind.ATTACKS, weight=weight)
    with pytest.raises(ValueError, match="duplicate edge"):
        g.add_edge("e", "h", EdgeKind.SUPPORTS)
    with pytest.raises(ValueError, match="self-loop"):
        g.add_edge("h", "h", EdgeKind.REFINES)
    with pytest.raises(ValueError, match="not a test"):
        g.add_edge("h", "e", EdgeKind.SUGGESTS_TEST)
    with pytest.raises(ValueError, match="duplicate node"):
        g.add_node(Node("h", NodeKind.HYPOTHESIS))
    with pytest.raises(ValueError):
        g.add_edge("e", "h", "endorses")
    assert len(g.edges) == 2  # nothing invalid was added


def test_sound_graph_has_no_violations() -> None:
    assert _graph().check_invariants() == []


def test_unbacked_claims_and_tests_without_power_are_reported() -> None:
    g = DebateGraph()
    g.add_node(Node("h1", NodeKind.HYPOTHESIS))
    g.add_node(Node("h2", NodeKind.HYPOTHESIS))
    g.add_node(Node("f", NodeKind.FINDING))
    g.add_node(Node("e", NodeKind.EVIDENCE))
    g.add_node(Node("t", NodeKind.TEST))
    g.add_edge("e", "h2", EdgeKind.ATTACKS)  # attacking evidence does not back a claim
    g.add_edge("f", "h1", EdgeKind.SUPPORTS)  # f itself is unbacked
    problems = g.check_invariants()
    assert len(problems) == 4
    assert any("'h1'" in p for p in problems)
    assert any("'h2'" in p for p in problems)
    assert any("finding 'f'" in p for p in problems)
    assert any("test 't'" in p and "discriminative" in p for p in problems)
    # f derived_from e backs f, and through f backs h1.
    g.add_edge("f", "e", EdgeKind.DERIVED_FROM)
    assert g.backed_claims() == {"f", "h1"}
    # An explicit assumption backs h2.
    g.add_node(Node("a", NodeKind.ASSUMPTION, label="the assay is calibrated"))
    g.add_edge("a", "h2", EdgeKind.SUPPORTS)
    assert g.check_invariants() == ["test 't' has no expected discriminative power"]


def test_evidence_items_use_weight_sign_quality_and_edge_llr() -> None:
    g = _graph()
    g.add_node(Node("h2", NodeKind.HYPOTHESIS, prior=0.7))
    g.add_node(Node("q", NodeKind.EVIDENCE))  # qualitative: no llr anywhere
    g.add_edge("e", "h2", EdgeKind.ATTACKS, weight=0.5)
    g.add_edge("q", "h2", EdgeKind.SUPPORTS)
    g.add_edge("e", "h", EdgeKind.CONTRADICTS, llr=3.0)
    by_h = g.evidence_items("h")
    # supports: llr = 1.0 * 2.0, sign +1; contradicts uses the edge llr 3.0, sign -1.
    assert [(i.llr, i.sign, i.quality) for i in by_h] == [(2.0, 1, 0.8), (3.0, -1, 0.8)]
    # attacks with weight 0.5: llr = 0.5 * 2.0 = 1.0, sign -1; "q" is skipped.
    [item] = g.evidence_items("h2")
    assert (item.llr, item.sign, item.hypothesis) == (1.0, -1, "h2")
    assert len(g.evidence_items()) == 3
    assert g.priors() == {"h": 0.3, "h2": 0.7}


def test_to_framework_maps_edges() -> None:
    g = DebateGraph()
    for nid, kind in [("h", "hypothesis"), ("e", "evidence"), ("f", "finding"), ("t", "test")]:
        g.add_node(Node(nid, NodeKind(kind)))
    g.add_edge("e", "h", EdgeKind.CONTRADICTS)
    g.add_edge("f", "e", EdgeKind.DERIVED_FROM)
    g.add_edge("f", "h", EdgeKind.SUPPORTS)
    g.add_edge("h", "t", EdgeKind.SUGGESTS_TEST)
    g.add_edge("e", "f", EdgeKind.CAUSES)
    bf = g.to_framework()
    assert bf.arguments == {"h", "e", "f"}
    assert bf.attacks == {("e", "h"), ("h", "e")}
    assert bf.supports == {("e", "f"), ("f", "h")}


def test_dict_round_trip_through_json() -> None:
    g = _graph()
    g.add_node(Node("f", NodeKind.FINDING, llr=-0.5))
    g.add_edge("f", "e", EdgeKind.DERIVED_FROM, weight=0.25)
    data = json.loads(json.dumps(g.to_dict()))
    assert DebateGraph.from_dict(data) == g
    assert DebateGraph.from_dict(data).node("e").provenance == ("paper A",)


@pytest.mark.parametrize(
    "mutate",
    [
        lambda d: d["nodes"][0].update(colour="red"),
        lambda d: d["nodes"][0].update(kind="opinion"),
        lambda d: d["nodes"][0].pop("id"),
        lambda d: d["edges"][0].update(sign=-1),
        lambda d: d["edges"][0].update(target="ghost"),
        lambda d: d["edges"][0].update(weight=2.0),
    ],
)
def test_from_dict_rejects_bad_input(mutate) -> None:  # type: ignore[no-untyped-def]
    data = _graph().to_dict()
    mutate(data)
    with pytest.raises(ValueError):
        DebateGraph.from_dict(data)


def test_jsonld_has_context_and_every_node_and_edge() -> None:
    doc = _graph().to_jsonld()
    assert "@vocab" in doc["@context"] and "@base" in doc["@context"]
    graph = doc["@graph"]
    assert len(graph) == 3 + 2
    by_id = {item["@id"]: item for item in graph if "@id" in item}
    assert by_id["h"]["@type"] == "Hypothesis"
    assert by_id["h"]["prior"] == 0.3
    assert "llr" not in by_id["h"]  # unset attributes are omitted
    edges = [item for item in graph if "@id" not in item]
    assert {e["@type"] for e in edges} == {"Supports", "SuggestsTest"}
    assert json.loads(json.dumps(doc)) == doc


def test_graphml_parses_and_carries_attributes() -> None:
    root = ET.fromstring(_graph().to_graphml())
    ns = {"g": GRAPHML_NS}
    assert root.tag == f"{{{GRAPHML_NS}}}graphml"
    graph = root.find("g:graph", ns)
    assert graph is not None and graph.get("edgedefault") == "directed"
    nodes = graph.findall("g:node", ns)
    edges = graph.findall("g:edge", ns)
    assert [n.get("id") for n in nodes] == ["h", "e", "t"]
    assert {(e.get("source"), e.get("target")) for e in edges} == {("e", "h"), ("h", "t")}
    e_node = nodes[1]
    data = {d.get("key"): d.text for d in e_node.findall("g:data", ns)}
    assert data["n_kind"] == "evidence"
    assert float(data["n_llr"] or "nan") == 2.0
    assert json.loads(data["n_provenance"] or "[]") == ["paper A"]
    keys = {k.get("id") for k in root.findall("g:key", ns)}
    assert {"n_prior", "e_sign", "e_weight"} <= keys


def test_queries_and_answers_are_dialogue_not_arguments() -> None:
    g = DebateGraph(
        [
            Node("h", NodeKind.HYPOTHESIS, prior=0.5),
            Node("e", NodeKind.EVIDENCE, llr=1.0),
            Node("q", NodeKind.QUERY, label="Was the assay repeated?"),
            Node("c", NodeKind.EVIDENCE),
        ]
    )
    g.add_edge("e", "h", EdgeKind.SUPPORTS)
    g.add_edge("q", "e", EdgeKind.QUERIES)
    assert g.open_queries() == [("q", "e")]
    g.add_edge("c", "q", EdgeKind.ANSWERS)
    assert g.open_queries() == []
    assert "q" not in g.to_framework().arguments
    with pytest.raises(ValueError):
        g.add_edge("e", "c", EdgeKind.QUERIES)  # only a query queries
    with pytest.raises(ValueError):
        g.add_edge("c", "e", EdgeKind.ANSWERS)  # an answer answers a query
    assert DebateGraph.from_dict(g.to_dict()) == g
    assert g.check_invariants() == []
