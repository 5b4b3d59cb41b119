"""Moves beyond claims: hypotheses from retrieval, assumptions, queries/answers, proposed tests."""

from __future__ import annotations

from typing import Any

import pytest

from disputatio.argumentation import (
    CandidateTest,
    DebateGraph,
    EdgeKind,
    NodeKind,
    expected_information_gain,
)
from disputatio.graphs.rdc import graph
from disputatio.settings import Settings
from disputatio.testing import ScriptedChatModel

from .builders import ballot, case_data, claim, move, scripted_context

EMPTY = move("nothing", [])


def _run(settings: Settings, scripts: dict[str, list[Any]], **knobs: Any) -> tuple[Any, Any]:
    models = {n: ScriptedChatModel(name=n, script=s) for n, s in scripts.items()}
    ctx = scripted_context(settings, models, max_rounds=1, turns_per_phase=1, **knobs)
    return graph.invoke({"case": case_data()}, context=ctx), models


def _with(base: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {**base, **extra}


LYME = {"id": "Lyme disease", "label": "Lyme disease", "provenance": ["sec-qfever-1"]}


def test_a_backed_hypothesis_from_retrieval_joins_the_differential(
    unit_settings: Settings,
) -> None:
    backed = _with(
        move("tick exposure", [claim("c", ["sec-qfever-1"], {"lyme_disease": 1.0})]),
        hypotheses=[LYME],
    )
    out, _ = _run(unit_settings, {"a": [backed, EMPTY, EMPTY, ballot("brucellosis")]})
    hyps = [row["hypothesis"] for row in out["verdict"]["differential"]]
    assert "lyme_disease" in hyps and len(hyps) == 4
    g = DebateGraph.from_dict(out["graph"])
    node = g.node("lyme_disease")
    assert node.kind is NodeKind.HYPOTHESIS and node.provenance == ("sec-qfever-1",)
    assert "lyme_disease" in g.backed_claims()
    # the test plan still covers every hypothesis (uninformative likelihoods for the newcomer)
    assert out["verdict"]["test_plan"]
    assert out["moves"][0]["hypotheses"] == ["lyme_disease"]


def test_hypotheses_without_backing_or_from_case_evidence_are_rejected(
    unit_settings: Settings,
) -> None:
    unbacked = _with(EMPTY, hypotheses=[LYME])
    from_case = _with(
        move("x", [claim("c", ["goat_cheese"], {"lyme": 1.0})]),
        hypotheses=[{"id": "lyme", "provenance": ["goat_cheese"]}],
    )
    out, _ = _run(unit_settings, {"a": [unbacked, from_case, EMPTY, ballot("brucellosis")]})
    reasons = {r["reason"] for r in out["rejected"] if r["what"] == "hypothesis"}
    assert any(r.startswith("invariant: not backed") for r in reasons)
    assert any(r.startswith("untraceable: a new hypothesis") for r in reasons)
    assert len(out["verdict"]["differential"]) == 3


def test_an_explicit_assumption_backs_a_hypothesis_and_the_budget_holds(
    unit_settings: Settings,
) -> None:
    assumed = _with(
        EMPTY,
        assumptions=[{"id": "a1", "text": "Ticks are endemic on the farm."}],
        hypotheses=[_with(LYME, assumption="a1")],
    )
    second = _with(
        EMPTY,
        assumptions=[{"id": "a2", "text": "x"}],
        hypotheses=[{"id": "tularemia", "provenance": ["sec-qfever-1"], "assumption": "a2"}],
    )
    out, _ = _run(
        unit_settings,
        {"a": [assumed, second, EMPTY, ballot("brucellosis")]},
        retrieved_hypotheses=1,
    )
    g = DebateGraph.from_dict(out["graph"])
    assert "lyme_disease" in g and "tularemia" not in g
    assumption = next(n for n in g.nodes_of(NodeKind.ASSUMPTION))
    assert any(e.source == assumption.id and e.target == "lyme_disease" for e in g.edges)
    assert any(r["reason"].startswith("no more hypotheses") for r in out["rejected"])


def test_queries_reach_the_next_speaker_and_are_answered(unit_settings: Settings) -> None:
    ask = _with(EMPTY, queries=[{"id": "q1", "question": "Was it repeated?", "target": "ferritin"}])
    answer = move(
        "yes",
        [claim("c", ["sec-still-1"], {"adult_onset_still": 0.3})],
        relations=[("c", "t1.a.q1", "answers")],
    )
    out, models = _run(
        unit_settings, {"a": [ask, EMPTY, ballot("brucellosis")], "b": [answer, ballot("x")]}
    )
    g = DebateGraph.from_dict(out["graph"])
    assert g.node("t1.a.q1").kind is NodeKind.QUERY
    assert ("t2.b.c", "t1.a.q1", EdgeKind.ANSWERS) in {
        (e.source, e.target, e.kind) for e in g.edges
    }
    assert g.open_queries() == []
    # b was asked the open question in its prompt
    assert "t1.a.q1: Was it repeated? (about ferritin)" in str(models["b"].prompts[0][-1].content)


def test_a_proposed_test_carries_its_discriminative_power(unit_settings: Settings) -> None:
    pcr = {
        "id": "pcr",
        "label": "Brucella PCR",
        "positive": [
            {"hypothesis": "brucellosis", "probability": 0.9},
            {"hypothesis": "q_fever", "probability": 0.05},
        ],
        "cost": 0.05,
        "risk": 0.0,
    }
    out, _ = _run(
        unit_settings, {"a": [_with(EMPTY, tests=[pcr]), EMPTY, EMPTY, ballot("brucellosis")]}
    )
    g = DebateGraph.from_dict(out["graph"])
    node = g.node("p1.pcr")
    assert node.kind is NodeKind.TEST and node.discriminative_power is not None
    # its likelihoods: the named rates, the mean (0.475) for the unnamed hypothesis
    plan = {t["test"]: t for t in out["verdict"]["test_plan"]}
    assert "p1.pcr" in plan
    post = {r["hypothesis"]: r["posterior"] for r in out["verdict"]["differential"]}
    pos = {"brucellosis": 0.9, "q_fever": 0.05, "adult_onset_still": 0.475}
    t = CandidateTest("p1.pcr", {"positive": pos, "negative": {h: 1 - p for h, p in pos.items()}})
    assert plan["p1.pcr"]["eig"] == pytest.approx(expected_information_gain(post, t))
    assert {e.source for e in g.edges if e.target == "p1.pcr"} == {"brucellosis", "q_fever"}
    assert out["moves"][0]["tests"][0]["id"] == "p1.pcr"
