"""A full scripted debate: phases, provenance checks, ledger, and the jury against the engine."""

from __future__ import annotations

import hashlib
import math
from dataclasses import replace
from typing import Any

import pytest

from disputatio.argumentation import (
    DebateGraph,
    Label,
    bipolar_labelling,
    differential_log_scores,
    disagreement,
    entropy_nats,
    expected_calibration_error,
    flip_table,
    minimal_counter_evidence,
    multiclass_brier_score,
    pairwise_test_shifts,
    rank_tests,
    softmax,
    verdict,
)
from disputatio.graphs.rdc import RdcContext, graph
from disputatio.nodes.rdc.case import candidate_tests, evidence_items
from disputatio.settings import Settings
from disputatio.state.rdc import Case
from disputatio.storage.ledger import InMemoryLedger
from disputatio.testing import ScriptedChatModel

from .builders import FixedRetriever, ballot, case_data, claim, move

SPEAKERS = ["infectious", "autoimmune"]


def scripts() -> dict[str, ScriptedChatModel]:
    infectious = ScriptedChatModel(
        name="infectious",
        script=[
            move("raw dairy", [claim("c1", ["sec-brucella-1"], {"brucellosis": 1.2})]),
            move(
                "the cheese label is irrelevant",
                [claim("r1", ["[goat_cheese]"])],
                [("r1", "t2.autoimmune.a2", "attacks")],
            ),
            move("made up", [claim("x1", ["pubmed-123"], {"q_fever": 2.0})]),
            ballot("brucellosis", "q_fever", "adult_onset_still"),
        ],
    )
    autoimmune = ScriptedChatModel(
        name="autoimmune",
        script=[
            move(
                "ferritin and the cheese",
                [
                    claim("a1", ["sec-still-1"], {"Adult-onset Still's disease": 1.0}),
                    claim("a2", ["sec-still-1"], quality=0.5),
                ],
                [("a2", "goat_cheese", "attacks")],
            ),
            move("the rash", [claim("a3", ["sec-still-1"])], [("a3", "rash_reported", "supports")]),
            move("nothing to add", []),
            ballot("adult_onset_still", "brucellosis", "q_fever"),
        ],
    )
    return {"infectious": infectious, "autoimmune": autoimmune}


def run(settings: Settings, **overrides: Any) -> tuple[dict[str, Any], RdcContext]:
    models = scripts()
    ctx = RdcContext(
        models=models,
        retriever=FixedRetriever(),
        settings=settings,
        specialists=SPEAKERS,
        max_rounds=1,
        entropy_stop=0.0,
        voi_stop=0.0,
        appeal=False,
        ledger=InMemoryLedger(),
    )
    ctx = replace(ctx, **overrides)
    return graph.invoke({"case": case_data()}, context=ctx), ctx


@pytest.fixture
def debate(unit_settings: Settings) -> tuple[dict[str, Any], RdcContext]:
    return run(unit_settings)


def test_full_phase_sequence_with_round_robin(debate: tuple[dict[str, Any], RdcContext]) -> None:
    out, _ = debate
    assert out["phase_log"] == ["seeding", "challenges", "rebuttal", "cross_examination", "vote",
                                "jury"]  # fmt: skip
    assert out["halt_reason"] == "budget_rounds"
    assert [(m["phase"], m["speaker"]) for m in out["moves"]] == [
        (phase, s) for phase in ("challenges", "rebuttal", "cross_examination") for s in SPEAKERS
    ]
    assert [v["speaker"] for v in out["votes"]] == SPEAKERS


def test_untraceable_claim_is_rejected_and_not_in_graph(
    debate: tuple[dict[str, Any], RdcContext],
) -> None:
    out, _ = debate
    ids = {n["id"] for n in out["graph"]["nodes"]}
    assert "t5.infectious.x1" not in ids
    (rejection,) = [r for r in out["rejected"] if r.get("id") == "x1"]
    assert rejection["reason"].startswith("untraceable") and rejection["speaker"] == "infectious"
    # traceable claims (a section id, a bracketed case evidence id) were accepted
    assert {"t1.infectious.c1", "t3.infectious.r1", "t2.autoimmune.a2"} <= ids


def test_grounded_labelling_decides_what_counts(debate: tuple[dict[str, Any], RdcContext]) -> None:
    out, _ = debate
    v = out["verdict"]
    # a2 attacked goat_cheese, r1 attacked a2 and nothing attacks r1: goat_cheese is reinstated
    assert "goat_cheese" in v["admitted_evidence"]
    assert v["excluded_evidence"]["t2.autoimmune.a2"] == "out"


def engine_verdict(out: dict[str, Any], case: Case) -> dict[str, Any]:
    """Recompute the jury's numbers from the final graph with the engine alone.

    The labelling is the seed's bipolar rule (``rdc.semantics`` default), computed on the
    graph's bipolar framework with the graph's base facts.
    """
    g = DebateGraph.from_dict(out["graph"])
    labels = bipolar_labelling(g.to_framework(), g.base_facts())
    items = [i for i in g.evidence_items() if labels[i.id] is Label.IN]
    scores = differential_log_scores(g.priors(), items, 1.0)
    post = softmax(scores)
    admissible = [t for t in candidate_tests(case) if t.risk <= 0.5]
    ranked = rank_tests(post, admissible, max_risk=0.5)
    pairs = pairwise_test_shifts(scores, admissible, top_n=3)  # rdc.top_pairs default
    return {"scores": scores, "post": post, "ranked": ranked, "pairs": pairs}


def test_jury_numbers_equal_the_engine_on_the_final_graph(
    debate: tuple[dict[str, Any], RdcContext], case: Case
) -> None:
    out, _ = debate
    v = out["verdict"]
    ref = engine_verdict(out, case)
    got = {row["hypothesis"]: row["posterior"] for row in v["differential"]}
    assert got == pytest.approx(ref["post"], abs=1e-12)
    assert math.fsum(got.values()) == pytest.approx(1.0)
    assert v["entropy"] == pytest.approx(entropy_nats(ref["post"]))
    # test plan: same order and numbers; the bone-marrow biopsy (risk 0.6 > 0.5) is excluded
    assert [t["test"] for t in v["test_plan"]] == [r.test.id for r in ref["ranked"]]
    assert [t["utility"] for t in v["test_plan"]] == pytest.approx(
        [r.utility for r in ref["ranked"]]
    )
    assert [t["eig"] for t in v["test_plan"]] == pytest.approx([r.eig for r in ref["ranked"]])
    assert v["excluded_tests"] == [{"test": "t3_marrow", "risk": 0.6}]
    utilities = [t["utility"] for t in v["test_plan"]]
    assert utilities == sorted(utilities, reverse=True)
    # what would change our mind, and the minimal counter-evidence set
    candidates = evidence_items(case.counter_evidence)
    change = v["what_would_change_our_mind"]
    assert change["odds_shift"] == pytest.approx(verdict(ref["scores"]).margin)
    assert change["finding_flips"] == flip_table(ref["scores"], candidates)
    mce = minimal_counter_evidence(ref["scores"], candidates)
    assert v["minimal_counter_evidence"] == (
        None if mce is None else {"ids": list(mce.ids), "challenger": mce.challenger}
    )
    # Δ_ik(T = o) for the top hypothesis pairs, each with its test and outcome (seed §6)
    assert v["semantics"] == "bipolar"
    pairs = change["test_pairs"]
    assert pairs and len(pairs) == len(ref["pairs"])
    for row, r in zip(pairs, ref["pairs"], strict=True):
        assert (row["pair"], row["test"], row["outcome"]) == (
            [r.leader, r.challenger],
            r.test,
            r.outcome,
        )
        assert row["reverses"] == r.reverses
        assert row["delta"] == pytest.approx(r.delta) and row["after"] == pytest.approx(r.after)
        assert row["probability"] == pytest.approx(r.probability)
    assert {row["test"] for row in pairs} == {t.test.id for t in ref["ranked"]}
    # disagreement of the two votes: split top choices, rankings partly reversed
    hyps = list(ref["post"])
    rankings = [
        {"brucellosis": 3.0, "q_fever": 2.0, "adult_onset_still": 1.0},
        {"adult_onset_still": 3.0, "brucellosis": 2.0, "q_fever": 1.0},
    ]
    d = disagreement(["brucellosis", "adult_onset_still"], rankings, options=hyps)
    assert v["disagreement"]["index"] == pytest.approx(d.index)
    assert v["disagreement"]["vote_entropy"] == pytest.approx(d.vote_entropy)
    assert v["disagreement"]["mean_tau"] == pytest.approx(d.mean_tau)
    # calibration against the gold diagnosis
    top = v["top"]
    gold_index = hyps.index("brucellosis")
    cal = v["calibration"]
    assert cal["multiclass_brier"] == pytest.approx(
        multiclass_brier_score([[ref["post"][h] for h in hyps]], [gold_index])
    )
    assert cal["ece"] == pytest.approx(
        expected_calibration_error([ref["post"][top]], [int(top == "brucellosis")])
    )


def test_ledger_chain_verifies_and_records_prompts(
    debate: tuple[dict[str, Any], RdcContext],
) -> None:
    out, ctx = debate
    ledger = ctx.ledger
    assert isinstance(ledger, InMemoryLedger)
    thread = out["ledger_thread"]
    result = ledger.verify(thread)
    assert result.ok and result.first_bad_idx is None
    entries = ledger.entries(thread)
    kinds = [e.kind for e in entries]
    assert kinds[0] == "seed" and kinds[-1] == "verdict"
    assert {"prompt", "tool_call", "move", "graph_delta", "vote", "halt", "tally"} <= set(kinds)
    assert out["verdict"]["ledger"]["head_hash"] == entries[-1].hash
    # prompt entries hold the sha256 of exactly what each model was sent
    sent = [m for model in ctx.models.values() for m in model.prompts]
    texts = ["\n\n".join(f"{m.type}: {m.content}" for m in prompt) for prompt in sent]
    digests = {hashlib.sha256(t.encode()).hexdigest() for t in texts}
    assert {e.payload["sha256"] for e in entries if e.kind == "prompt"} == digests


def test_tampering_with_an_in_memory_entry_is_detected(
    debate: tuple[dict[str, Any], RdcContext],
) -> None:
    out, ctx = debate
    ledger = ctx.ledger
    thread = out["ledger_thread"]
    chain = ledger.raw(thread)
    i = next(i for i, e in enumerate(chain) if e.kind == "move")
    forged = {**chain[i].payload, "accepted": ["forged"]}
    chain[i] = replace(chain[i], payload=forged)
    result = ledger.verify(thread)
    assert not result.ok and result.first_bad_idx == i and "modified" in result.reason


def test_every_specialist_search_is_a_retrieval_tool_run(unit_settings: Settings) -> None:
    from langchain_core.tracers.context import collect_runs

    from disputatio.tools.retrieval import TOOL_NAME

    with collect_runs() as cb:
        _, ctx = run(unit_settings)
    runs, tools = list(cb.traced_runs), []
    while runs:
        current = runs.pop(0)
        runs.extend(current.child_runs)
        if current.run_type == "tool" and current.name == TOOL_NAME:
            tools.append((current.inputs["query"], current.inputs["k"]))
    asked = ctx.retriever.queries
    assert asked and sorted(tools) == sorted((q, ctx.sections_per_turn) for q in asked)
