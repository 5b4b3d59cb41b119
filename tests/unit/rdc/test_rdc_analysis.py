"""The jury's analysis on debate graphs: bipolar admission, hotspots, the conflict pair."""

from __future__ import annotations

import math

import pytest

from disputatio.argumentation import DebateGraph, EdgeKind, Label, Node, NodeKind
from disputatio.nodes.rdc.analysis import (
    conflict_pair,
    differential,
    graph_counter_evidence,
    hotspots,
    labelling,
)

HK = [Node("h", NodeKind.HYPOTHESIS, prior=0.5), Node("k", NodeKind.HYPOTHESIS, prior=0.5)]


def _issue_case_b() -> DebateGraph:
    """C2 attacks case evidence E (E supports h), C3 attacks C2, C1 supports C3, C4 attacks C3."""
    g = DebateGraph(
        [*HK, *[Node(i, NodeKind.EVIDENCE) for i in ("E", "C1", "C2", "C3", "C4", "F")]]
    )
    g.add_edge("E", "h", EdgeKind.SUPPORTS, llr=2.0)
    g.add_edge("F", "k", EdgeKind.SUPPORTS, llr=0.1)
    g.add_edge("C2", "E", EdgeKind.ATTACKS)
    g.add_edge("C3", "C2", EdgeKind.ATTACKS)
    g.add_edge("C1", "C3", EdgeKind.SUPPORTS)
    g.add_edge("C4", "C3", EdgeKind.ATTACKS)
    return g


def test_bipolar_admission_keeps_the_attacked_evidence_out() -> None:
    g = _issue_case_b()
    _, bipolar = differential(g, 1.0)
    _, derived = differential(g, 1.0, "derived")
    # bipolar: E is OUT, only F (LR e^0.1) counts; derived: E comes back in (LR e^2)
    assert bipolar["h"] == pytest.approx(1 / (1 + math.exp(0.1)))
    assert derived["h"] == pytest.approx(1 / (1 + math.exp(0.1 - 2.0)))


def test_noisy_or_counts_an_in_edge_without_likelihood() -> None:
    g = DebateGraph(
        [*HK, *[Node("e", NodeKind.EVIDENCE, quality=0.5), Node("f", NodeKind.EVIDENCE)]]
    )
    g.add_edge("e", "h", EdgeKind.SUPPORTS)  # no llr: noisy-OR, strength 0.5
    g.add_edge("f", "k", EdgeKind.SUPPORTS, llr=0.0)
    scores, post = differential(g, 1.0)
    # prior of h normalised 0.5; P+ = 1 − 0.5·0.5 = 0.75: shift ln 3 on h's log-score
    assert scores["h"] - scores["k"] == pytest.approx(math.log(3))
    assert post["h"] == pytest.approx(0.75)


def test_the_consistency_regulariser_moves_mass_off_out_hypotheses() -> None:
    g = _issue_case_b()
    labels = labelling(g)
    assert labels["h"] is Label.OUT and labels["k"] is Label.IN  # h lost its only supporter
    _, plain = differential(g, 1.0)
    _, strong = differential(g, 1.0, consistency=2.0)
    assert strong["h"] < plain["h"]
    assert strong["h"] == pytest.approx(1 / (1 + math.exp(0.1 + 2.0)))


def test_counter_evidence_from_the_graph() -> None:
    g = DebateGraph(
        [
            *HK,
            *[Node(i, NodeKind.EVIDENCE) for i in ("a", "b", "c")],
            *[Node("f", NodeKind.FINDING, llr=1.0)],
        ]
    )
    g.add_edge("a", "h", EdgeKind.SUPPORTS, llr=1.0)
    g.add_edge("b", "h", EdgeKind.SUPPORTS, llr=0.5)
    g.add_edge("c", "k", EdgeKind.SUPPORTS, llr=1.2)
    g.add_edge("f", "a", EdgeKind.DERIVED_FROM)
    g.add_edge("f", "h", EdgeKind.SUPPORTS)
    labels = labelling(g)
    scores, _ = differential(g, 1.0)
    found = graph_counter_evidence(g, scores, labels, 1.0, 64)
    # h leads 2.5 to 1.2: defeating f (1.0) or a (1.0) alone leaves 1.5 > 1.2; a + f flips
    assert found["defeat_set"]["challenger"] == "k" and len(found["defeat_set"]["ids"]) == 2
    cut = found["support_cut"]
    assert sorted(map(tuple, cut["paths"])) == [("a", "f", "h"), ("a", "h"), ("b", "h")]
    assert cut["members"] == ["a", "b"] and cut["exact"]


def test_hotspots_rank_cycles_then_conflicts_then_undecided_subgraphs() -> None:
    g = DebateGraph([*HK, *[Node(i, NodeKind.EVIDENCE) for i in ("x", "y", "z", "s", "t", "u")]])
    g.add_edge("x", "y", EdgeKind.ATTACKS)
    g.add_edge("y", "x", EdgeKind.ATTACKS)  # cycle
    g.add_edge("s", "z", EdgeKind.SUPPORTS)
    g.add_edge("t", "z", EdgeKind.ATTACKS)  # z: IN supporter and IN attacker
    g.add_edge("u", "h", EdgeKind.SUPPORTS, llr=0.5)
    g.add_edge("u", "k", EdgeKind.SUPPORTS, llr=0.5)  # u bears on an even pair
    spots = hotspots(g, labelling(g), {"h": 0.5, "k": 0.5})
    assert [(s["node"], s["why"]) for s in spots] == [
        ("x", "cycle"),
        ("y", "cycle"),
        ("z", "conflict"),
        ("u", "high_entropy"),
    ]


def test_conflict_pair_uses_the_vote_vectors() -> None:
    post = {"a": 0.5, "b": 0.3, "c": 0.2}
    votes = [
        {"ranking": ["a"], "distribution": {"a": 0.5, "b": 0.1, "c": 0.4}},
        {"ranking": ["c"], "distribution": {"a": 0.2, "b": 0.3, "c": 0.5}},
    ]
    assert conflict_pair(post, votes) == ("a", "c")
    assert conflict_pair(post, [{"ranking": ["a"]}]) is None
